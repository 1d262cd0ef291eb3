/**
 * A tokenizer for BOS, TA's unit script language (the source COB files are compiled from), for syntax
 * colours: keywords, preprocessor lines, comments, numbers, strings. It never fails: anything else is
 * plain text, so damaged or decompiled source still shows.
 */
export type BosTokenKind = 'keyword' | 'directive' | 'comment' | 'number' | 'string' | 'text';

export interface BosToken {
  kind: BosTokenKind;
  text: string;
}

const KEYWORDS = new Set(
  (
    'piece static-var local-var var if else while for return call-script start-script signal set-signal-mask sleep ' +
    'wait-for-turn wait-for-move turn move spin stop-spin to along around x-axis y-axis z-axis speed accelerate ' +
    'decelerate now show hide explode type emit-sfx from cache dont-cache dont-shadow dont-shade shade shadow ' +
    'attach-unit drop-unit get set rand play-sound game-frame true false'
  ).split(' '),
);

const WORD = /^[A-Za-z_][\w-]*/;
const NUMBER = /^(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?)/;

/** Tokens per line; a block comment that spans lines is split at each line end. */
export function tokenizeBos(text: string): BosToken[][] {
  const out: BosToken[][] = [];
  let inComment = false;
  for (const line of text.split(/\r?\n/)) {
    const tokens: BosToken[] = [];
    const push = (kind: BosTokenKind, t: string) => {
      const last = tokens[tokens.length - 1];
      if (last && last.kind === kind && (kind === 'text' || kind === 'comment')) last.text += t;
      else tokens.push({ kind, text: t });
    };
    let rest = line;
    if (!inComment && /^\s*#/.test(rest)) {
      out.push([{ kind: 'directive', text: rest }]);
      continue;
    }
    while (rest.length > 0) {
      if (inComment) {
        const end = rest.indexOf('*/');
        const len = end < 0 ? rest.length : end + 2;
        push('comment', rest.slice(0, len));
        rest = rest.slice(len);
        if (end >= 0) inComment = false;
        continue;
      }
      if (rest.startsWith('//')) {
        push('comment', rest);
        break;
      }
      if (rest.startsWith('/*')) {
        inComment = true;
        push('comment', '/*');
        rest = rest.slice(2);
        continue;
      }
      const quote = /^"[^"]*"?/.exec(rest);
      if (quote) {
        push('string', quote[0]);
        rest = rest.slice(quote[0].length);
        continue;
      }
      const number = NUMBER.exec(rest);
      if (number) {
        push('number', number[0]);
        rest = rest.slice(number[0].length);
        continue;
      }
      const word = WORD.exec(rest);
      if (word) {
        push(KEYWORDS.has(word[0].toLowerCase()) ? 'keyword' : 'text', word[0]);
        rest = rest.slice(word[0].length);
        continue;
      }
      push('text', rest[0]!);
      rest = rest.slice(1);
    }
    out.push(tokens);
  }
  return out;
}
