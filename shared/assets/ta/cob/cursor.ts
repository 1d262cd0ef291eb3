import { bosError, type Token } from './lexer.js';

/** How a token is named in a message. */
export function describe(t: Token): string {
  if (t.type === 'eof') return 'the end of the file';
  if (t.type === 'string') return `"${t.text}"`;
  return `'${t.text}'`;
}

export class Cursor {
  private i = 0;
  private readonly end: Token;

  constructor(
    private readonly tokens: Token[],
    private readonly file: string,
    /** What reading past the tokens gives: a function body's closing brace, else the end of the file. */
    end?: Token,
  ) {
    const tail = tokens[tokens.length - 1];
    this.end = end ?? { type: 'eof', text: '', file: tail?.file ?? file, line: tail?.line ?? 1 };
  }

  done(): boolean {
    return this.i >= this.tokens.length;
  }

  /** Whether the next token is the end (the function's closing brace or the end of the file). */
  atEnd(): boolean {
    return this.peek() === this.end;
  }

  peek(ahead = 0): Token {
    return this.tokens[this.i + ahead] ?? this.end;
  }

  next(): Token {
    return this.tokens[this.i++] ?? this.end;
  }

  fail(t: Token, message: string): never {
    return bosError(t.file || this.file, t.line, message);
  }

  isWord(word: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.type === 'word' && t.text.toLowerCase() === word;
  }

  expect(text: string, context: string): Token {
    const t = this.next();
    if (t.text !== text || t.type === 'string') this.fail(t, `expected '${text}' ${context}, found ${describe(t)}`);
    return t;
  }

  expectWord(word: string, context: string): Token {
    const t = this.next();
    if (t.type !== 'word' || t.text.toLowerCase() !== word) this.fail(t, `expected '${word}' ${context}, found ${describe(t)}`);
    return t;
  }

  name(context: string): Token {
    const t = this.next();
    if (t.type !== 'word') this.fail(t, `expected a name in the ${context}, found ${describe(t)}`);
    return t;
  }

  /** `a, b, c` then `close` (consumed). */
  nameList(context: string, close = ';'): string[] {
    const names: string[] = [];
    for (;;) {
      names.push(this.name(context).text);
      const t = this.next();
      if (t.text === close) return names;
      if (t.text !== ',') this.fail(t, `expected ',' or '${close}' in the ${context}, found ${describe(t)}`);
    }
  }
}
