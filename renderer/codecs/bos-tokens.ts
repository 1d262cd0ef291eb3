/**
 * Syntax colours for BOS unit-script source (and its .h headers): keywords, preprocessor lines, numbers
 * with `[linear]` and `<angle>` literals, strings, comments, through the same line scanner as TDF text
 * (shared/text/line-tokens.ts). It never fails: what it does not recognise is plain text.
 */

import { matchRule, tokenizeLines, type LineLanguage, type LineToken } from '../../shared/text/line-tokens';

export type BosTokenKind = 'keyword' | 'directive' | 'number' | 'string' | 'comment' | 'punct' | 'text';
export type BosToken = LineToken<BosTokenKind>;

const KEYWORDS = new Set([
  'piece',
  'static-var',
  'sound',
  'var',
  'if',
  'else',
  'while',
  'return',
  'move',
  'turn',
  'spin',
  'stop-spin',
  'to',
  'around',
  'along',
  'speed',
  'now',
  'accelerate',
  'decelerate',
  'x-axis',
  'y-axis',
  'z-axis',
  'wait-for-turn',
  'wait-for-move',
  'show',
  'hide',
  'cache',
  'dont-cache',
  'shade',
  'dont-shade',
  'dont-shadow',
  'emit-sfx',
  'from',
  'explode',
  'type',
  'sleep',
  'signal',
  'set-signal-mask',
  'set',
  'get',
  'call-script',
  'start-script',
  'attach-unit',
  'drop-unit',
  'play-sound',
  'rand',
  'and',
  'or',
  'xor',
  'not',
  'true',
  'false',
]);

const WORD = /^[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z_][A-Za-z0-9_]*)*/;
const NUMBER = /^(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d*)?|\.\d+)/;
const LITERAL = /^(?:\[\s*-?(?:\d+(?:\.\d*)?|\.\d+)\s*\]|<\s*-?(?:\d+(?:\.\d*)?|\.\d+)\s*>)/;

const BOS: LineLanguage<BosTokenKind> = {
  comment: 'comment',
  space: 'text',
  wholeLine: (line) => {
    if (!/^\s*#/.test(line)) return null;
    const comment = line.indexOf('//');
    if (comment < 0) return [{ kind: 'directive', text: line }];
    return [
      { kind: 'directive', text: line.slice(0, comment) },
      { kind: 'comment', text: line.slice(comment) },
    ];
  },
  rules: [
    matchRule(/^\/\/.*/, 'comment'),
    matchRule(LITERAL, 'number'),
    matchRule(NUMBER, 'number'),
    matchRule(/^"[^"]*"?/, 'string'),
    (rest) => {
      const m = WORD.exec(rest);
      if (!m) return null;
      // A hyphenated run is one keyword only when it spells one (x-axis); otherwise the first word alone.
      const word = KEYWORDS.has(m[0].toLowerCase()) ? m[0] : /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest)![0];
      return [{ kind: KEYWORDS.has(word.toLowerCase()) ? 'keyword' : 'text', text: word }];
    },
  ],
  fallback: (rest) => ({ kind: 'punct', text: rest[0]! }),
};

/** Tokens per line; a block comment that spans lines is split at each line end. */
export function tokenizeBos(text: string): BosToken[][] {
  return tokenizeLines(text, BOS);
}
