import { fail } from '../../../errors.js';

/** A BOS token; `file` and `line` say where it was written, for messages. */
export interface Token {
  type: 'word' | 'number' | 'string' | 'punct' | 'directive' | 'eof';
  text: string;
  file: string;
  line: number;
}

/** Keywords spelled with hyphens; a word is joined with its hyphens only when it spells one of these. */
const HYPHENATED = [
  'set-signal-mask',
  'wait-for-turn',
  'wait-for-move',
  'start-script',
  'call-script',
  'attach-unit',
  'dont-shadow',
  'dont-cache',
  'dont-shade',
  'static-var',
  'play-sound',
  'drop-unit',
  'stop-spin',
  'emit-sfx',
  'x-axis',
  'y-axis',
  'z-axis',
];

const PUNCTUATION = [
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '^^',
  '<',
  '>',
  '=',
  '+',
  '-',
  '*',
  '/',
  '|',
  '&',
  '^',
  '!',
  '~',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  ',',
  ';',
];

/** A compile error: `FILE:LINE: message`, the one line the CLI prints. */
export function bosError(file: string, line: number, message: string): never {
  return fail('bad-stream', `${file}:${line}: ${message}`, { offset: line });
}

/**
 * The tokens of one BOS file. A `#` that starts a line makes the rest of the line (with `\` continuations)
 * one directive token for the preprocessor; comments are dropped.
 */
export function tokenize(text: string, file: string, firstLine = 1): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = firstLine;
  let lineStart = true;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      i++;
      lineStart = true;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) bosError(file, line, 'a /* comment is never closed');
      for (let k = i; k < close; k++) if (text[k] === '\n') line++;
      i = close + 2;
      continue;
    }
    const startLine = line;
    if (c === '#' && lineStart) {
      let body = '';
      i++;
      while (i < n && text[i] !== '\n') {
        if (text[i] === '\\' && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n'))) {
          i += text[i + 1] === '\r' ? 3 : 2;
          line++;
          body += ' ';
          continue;
        }
        if (text[i] === '/' && text[i + 1] === '/') {
          while (i < n && text[i] !== '\n') i++;
          break;
        }
        if (text[i] === '/' && text[i + 1] === '*') {
          const close = text.indexOf('*/', i + 2);
          if (close < 0) bosError(file, line, 'a /* comment is never closed');
          for (let k = i; k < close; k++) if (text[k] === '\n') line++;
          i = close + 2;
          body += ' ';
          continue;
        }
        body += text[i++];
      }
      out.push({ type: 'directive', text: body.trim(), file, line: startLine });
      continue;
    }
    lineStart = false;
    if (isWordStart(c)) {
      const hyphenated = HYPHENATED.find((k) => text.substr(i, k.length).toLowerCase() === k && !isWordPart(text[i + k.length] ?? ' '));
      let end = i + 1;
      if (hyphenated) end = i + hyphenated.length;
      else while (end < n && isWordPart(text[end]!)) end++;
      out.push({ type: 'word', text: text.slice(i, end), file, line });
      i = end;
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(text[i + 1] ?? ''))) {
      let end = i;
      if (c === '0' && (text[i + 1] === 'x' || text[i + 1] === 'X')) {
        end = i + 2;
        while (end < n && /[0-9a-fA-F]/.test(text[end]!)) end++;
      } else {
        while (end < n && (isDigit(text[end]!) || text[end] === '.')) end++;
      }
      if (end < n && isWordPart(text[end]!)) bosError(file, line, `bad number "${text.slice(i, end + 1)}"`);
      out.push({ type: 'number', text: text.slice(i, end), file, line });
      i = end;
      continue;
    }
    if (c === '"') {
      const close = text.indexOf('"', i + 1);
      const eol = text.indexOf('\n', i + 1);
      if (close < 0 || (eol >= 0 && eol < close)) bosError(file, line, 'a string is not closed on its line');
      out.push({ type: 'string', text: text.slice(i + 1, close), file, line });
      i = close + 1;
      continue;
    }
    const punct = PUNCTUATION.find((p) => text.startsWith(p, i));
    if (!punct) bosError(file, line, `unexpected character ${JSON.stringify(c)}`);
    out.push({ type: 'punct', text: punct, file, line });
    i += punct.length;
  }
  return out;
}

function isWordStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
}

function isWordPart(c: string): boolean {
  return isWordStart(c) || isDigit(c);
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}
