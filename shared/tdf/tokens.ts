/**
 * Syntax colours for TA's TDF/FBI/OTA/GUI text: sections `[NAME]`, braces, `key=value;` pairs and `//` or
 * `/* *\/` comments, through the shared line scanner. The parser (parse.ts) says what the text means; this
 * only colours it, and never fails.
 */

import { matchRule, tokenizeLines, type LineLanguage, type LineToken } from '../text/line-tokens.js';

export type TdfTokenKind = 'section' | 'brace' | 'key' | 'value' | 'punct' | 'comment' | 'text';
export type TdfToken = LineToken<TdfTokenKind>;

const KEY_VALUE = /^([^=;{}[\]\r\n/]+?)(\s*=\s*)([^;\r\n]*)(;?)/;

const TDF: LineLanguage<TdfTokenKind> = {
  comment: 'comment',
  space: 'text',
  rules: [
    matchRule(/^\/\/[^\r\n]*/, 'comment'),
    matchRule(/^\[[^\]\r\n]*\]/, 'section'),
    matchRule(/^[{}]/, 'brace'),
    (rest) => {
      const m = KEY_VALUE.exec(rest);
      if (!m) return null;
      const tokens: TdfToken[] = [
        { kind: 'key', text: m[1] ?? '' },
        { kind: 'punct', text: m[2] ?? '' },
      ];
      if (m[3]) tokens.push({ kind: 'value', text: m[3] });
      if (m[4]) tokens.push({ kind: 'punct', text: m[4] });
      return tokens;
    },
  ],
  // Unrecognised: up to the next character that could start a token.
  fallback: (rest) => {
    const next = rest.slice(1).search(/[[{}/\s]/);
    return { kind: 'text', text: next < 0 ? rest : rest.slice(0, next + 1) };
  },
};

/** Tokens per line; a block comment that spans lines is split at each line end. */
export function tokenizeTdf(text: string): TdfToken[][] {
  return tokenizeLines(text, TDF);
}
