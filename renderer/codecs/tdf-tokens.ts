/**
 * A tokenizer for TA's TDF/FBI/OTA/GUI text, for syntax colours in previews: sections `[NAME]`, braces,
 * `key=value;` pairs and `//` or `/* *\/` comments. It never fails: anything it does not recognise is
 * plain text, so a damaged file still shows.
 */

export type TdfTokenKind = 'section' | 'brace' | 'key' | 'value' | 'punct' | 'comment' | 'text';

export interface TdfToken {
  kind: TdfTokenKind;
  text: string;
}

const SECTION = /^\[[^\]\r\n]*\]/;
const LINE_COMMENT = /^\/\/[^\r\n]*/;
const KEY_VALUE = /^([^=;{}[\]\r\n/]+?)(\s*=\s*)([^;\r\n]*)(;?)/;

/** Tokens per line; a block comment that spans lines is split at each line end. */
export function tokenizeTdf(text: string): TdfToken[][] {
  const lines = text.split(/\r?\n/);
  const out: TdfToken[][] = [];
  let inBlockComment = false;
  for (const line of lines) {
    const tokens: TdfToken[] = [];
    let rest = line;
    while (rest.length > 0) {
      if (inBlockComment) {
        const end = rest.indexOf('*/');
        const len = end < 0 ? rest.length : end + 2;
        tokens.push({ kind: 'comment', text: rest.slice(0, len) });
        rest = rest.slice(len);
        inBlockComment = end < 0;
        continue;
      }
      const ws = /^\s+/.exec(rest);
      if (ws) {
        tokens.push({ kind: 'text', text: ws[0] });
        rest = rest.slice(ws[0].length);
        continue;
      }
      if (rest.startsWith('/*')) {
        inBlockComment = true;
        tokens.push({ kind: 'comment', text: '/*' });
        rest = rest.slice(2);
        continue;
      }
      let m = LINE_COMMENT.exec(rest);
      if (m) {
        tokens.push({ kind: 'comment', text: m[0] });
        rest = rest.slice(m[0].length);
        continue;
      }
      m = SECTION.exec(rest);
      if (m) {
        tokens.push({ kind: 'section', text: m[0] });
        rest = rest.slice(m[0].length);
        continue;
      }
      if (rest[0] === '{' || rest[0] === '}') {
        tokens.push({ kind: 'brace', text: rest[0] });
        rest = rest.slice(1);
        continue;
      }
      m = KEY_VALUE.exec(rest);
      if (m) {
        tokens.push({ kind: 'key', text: m[1] ?? '' }, { kind: 'punct', text: m[2] ?? '' });
        if (m[3]) tokens.push({ kind: 'value', text: m[3] });
        if (m[4]) tokens.push({ kind: 'punct', text: m[4] });
        rest = rest.slice(m[0].length);
        continue;
      }
      // Unrecognised: take up to the next character that could start a token.
      const next = rest.slice(1).search(/[[{}/\s]/);
      const len = next < 0 ? rest.length : next + 1;
      tokens.push({ kind: 'text', text: rest.slice(0, len) });
      rest = rest.slice(len);
    }
    out.push(tokens);
  }
  return out;
}
