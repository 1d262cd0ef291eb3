/**
 * A tokenizer for BOS unit-script source (and its .h headers), for syntax colours in previews: keywords,
 * preprocessor lines, numbers with `[linear]` and `<angle>` literals, strings, comments. Like the TDF
 * tokenizer it never fails: what it does not recognise is plain text, so a damaged file still shows.
 */

export type BosTokenKind = 'keyword' | 'directive' | 'number' | 'string' | 'comment' | 'punct' | 'text';

export interface BosToken {
  kind: BosTokenKind;
  text: string;
}

const KEYWORDS = new Set(
  [
    'piece', 'static-var', 'sound', 'var', 'if', 'else', 'while', 'return', 'move', 'turn', 'spin', 'stop-spin', 'to', 'around',
    'along', 'speed', 'now', 'accelerate', 'decelerate', 'x-axis', 'y-axis', 'z-axis', 'wait-for-turn', 'wait-for-move', 'show',
    'hide', 'cache', 'dont-cache', 'shade', 'dont-shade', 'dont-shadow', 'emit-sfx', 'from', 'explode', 'type', 'sleep', 'signal',
    'set-signal-mask', 'set', 'get', 'call-script', 'start-script', 'attach-unit', 'drop-unit', 'play-sound', 'rand', 'and', 'or',
    'xor', 'not', 'true', 'false',
  ],
);

const WORD = /^[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z_][A-Za-z0-9_]*)*/;
const NUMBER = /^(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d*)?|\.\d+)/;
const LITERAL = /^(?:\[\s*-?(?:\d+(?:\.\d*)?|\.\d+)\s*\]|<\s*-?(?:\d+(?:\.\d*)?|\.\d+)\s*>)/;

/** Tokens per line; a block comment that spans lines is split at each line end. */
export function tokenizeBos(text: string): BosToken[][] {
  const out: BosToken[][] = [];
  let inBlockComment = false;
  for (const line of text.split(/\r?\n/)) {
    const tokens: BosToken[] = [];
    let rest = line;
    if (!inBlockComment && /^\s*#/.test(rest)) {
      const comment = rest.indexOf('//');
      tokens.push({ kind: 'directive', text: comment < 0 ? rest : rest.slice(0, comment) });
      if (comment >= 0) tokens.push({ kind: 'comment', text: rest.slice(comment) });
      out.push(tokens);
      continue;
    }
    while (rest.length > 0) {
      let m: RegExpExecArray | null;
      if (inBlockComment) {
        const end = rest.indexOf('*/');
        const len = end < 0 ? rest.length : end + 2;
        tokens.push({ kind: 'comment', text: rest.slice(0, len) });
        rest = rest.slice(len);
        inBlockComment = end < 0;
      } else if ((m = /^\s+/.exec(rest))) {
        tokens.push({ kind: 'text', text: m[0] });
        rest = rest.slice(m[0].length);
      } else if (rest.startsWith('//')) {
        tokens.push({ kind: 'comment', text: rest });
        rest = '';
      } else if (rest.startsWith('/*')) {
        inBlockComment = true;
        tokens.push({ kind: 'comment', text: '/*' });
        rest = rest.slice(2);
      } else if ((m = LITERAL.exec(rest)) || (m = NUMBER.exec(rest))) {
        tokens.push({ kind: 'number', text: m[0] });
        rest = rest.slice(m[0].length);
      } else if ((m = /^"[^"]*"?/.exec(rest))) {
        tokens.push({ kind: 'string', text: m[0] });
        rest = rest.slice(m[0].length);
      } else if ((m = WORD.exec(rest))) {
        // A hyphenated run is one keyword only when it spells one (x-axis); otherwise the first word alone.
        const word = KEYWORDS.has(m[0].toLowerCase()) ? m[0] : /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest)![0];
        tokens.push({ kind: KEYWORDS.has(word.toLowerCase()) ? 'keyword' : 'text', text: word });
        rest = rest.slice(word.length);
      } else {
        tokens.push({ kind: 'punct', text: rest[0]! });
        rest = rest.slice(1);
      }
    }
    out.push(tokens);
  }
  return out;
}
