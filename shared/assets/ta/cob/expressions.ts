import { scaleLiteral } from './opcodes.js';
import { BINARY_BY_SPELLING } from './syntax.js';
import { describe, type Cursor } from './cursor.js';
import type { Token } from './lexer.js';
import { MAX_NESTING, composite, depthOf, type BosProgram, type Expr } from './ast.js';

/**
 * BOS expressions by precedence climbing over the operators of syntax.ts. Names resolve
 * case-insensitively: the function's locals, then static variables, then pieces (a piece is its index).
 */
/**
 * Per name list (pieces, statics, a function's locals): case-folded name -> first index, and how many of
 * the list's names it covers, as locals grow with each var. Shared by every function of a program.
 */
const nameIndexes = new WeakMap<string[], { names: Map<string, number>; covered: number }>();

export class ExpressionParser {
  constructor(
    protected readonly p: Cursor,
    protected readonly locals: string[],
    protected readonly program: BosProgram,
  ) {}

  /** Nesting of the expression (and, in the statement parser, block) being read. */
  protected nesting = 0;

  /** Fails past MAX_NESTING levels, before the recursion can exhaust the stack. */
  protected enter(t: Token, what: string): void {
    if (++this.nesting > MAX_NESTING) this.p.fail(t, `${what} nested more than ${MAX_NESTING} deep`);
  }

  /** A composite node, refused when it makes the expression deeper than MAX_NESTING. */
  protected node<T extends Expr>(t: Token, e: T, ...children: Expr[]): T {
    const n = composite(e, ...children);
    if (depthOf(n) > MAX_NESTING) this.p.fail(t, `an expression nested more than ${MAX_NESTING} deep`);
    return n;
  }

  protected find(list: string[], name: string): number {
    let index = nameIndexes.get(list);
    if (!index) nameIndexes.set(list, (index = { names: new Map(), covered: 0 }));
    for (; index.covered < list.length; index.covered++) {
      const key = list[index.covered]!.toLowerCase();
      if (!index.names.has(key)) index.names.set(key, index.covered);
    }
    return index.names.get(name.toLowerCase()) ?? -1;
  }

  protected args(): Expr[] {
    const args: Expr[] = [];
    if (this.p.peek().text === ')') {
      this.p.next();
      return args;
    }
    for (;;) {
      args.push(this.expr());
      const t = this.p.next();
      if (t.text === ')') return args;
      if (t.text !== ',') this.p.fail(t, `expected ',' or ')' in the argument list, found ${describe(t)}`);
    }
  }

  private binaryAt(t: Token) {
    if (t.type !== 'punct' && t.type !== 'word') return undefined;
    return BINARY_BY_SPELLING.get(t.text.toUpperCase());
  }

  expr(min = 0): Expr {
    this.enter(this.p.peek(), 'an expression');
    try {
      let left = this.unary();
      for (;;) {
        const t = this.p.peek();
        const op = this.binaryAt(t);
        if (!op || op.precedence < min) return left;
        this.p.next();
        const right = this.expr(op.precedence + 1);
        left = this.node(t, { kind: 'binary', op: op.op, left, right }, left, right);
      }
    } finally {
      this.nesting--;
    }
  }

  protected unary(): Expr {
    this.enter(this.p.peek(), 'an expression');
    try {
      return this.unaryOperand();
    } finally {
      this.nesting--;
    }
  }

  private unaryOperand(): Expr {
    const p = this.p;
    const t = p.peek();
    if ((t.text === '!' && t.type === 'punct') || p.isWord('not')) {
      p.next();
      const operand = this.unary();
      return this.node(t, { kind: 'not', operand }, operand);
    }
    if (t.text === '~' && t.type === 'punct') {
      p.next();
      const operand = this.unary();
      return this.node(t, { kind: 'bitNot', operand }, operand);
    }
    if (t.text === '-' && t.type === 'punct') {
      p.next();
      if (p.peek().type === 'number') return num(-this.integer(p.next()));
      const right = this.unary();
      return this.node(t, { kind: 'binary', op: 'sub', left: num(0), right }, right);
    }
    return this.primary();
  }

  private integer(t: Token): number {
    const value = Number(t.text);
    if (!Number.isFinite(value)) this.p.fail(t, `bad number ${t.text}`);
    if (!Number.isInteger(value))
      this.p.fail(t, `${t.text} is not an integer (write [${t.text}] or <${t.text}> for a distance or an angle)`);
    if (Math.abs(value) > 0xffffffff) this.p.fail(t, `${t.text} does not fit in 32 bits`);
    return value | 0;
  }

  /** `[v]` or `<v>`: a decimal, optionally negative, scaled. */
  private literal(open: Token, form: 'linear' | 'angle'): Expr {
    const p = this.p;
    const negative = p.peek().text === '-' && p.peek().type === 'punct';
    if (negative) p.next();
    const t = p.next();
    if (t.type !== 'number') p.fail(t, `expected a number after '${open.text}', found ${describe(t)}`);
    const value = Number(t.text);
    if (!Number.isFinite(value)) p.fail(t, `bad number ${t.text}`);
    p.expect(form === 'linear' ? ']' : '>', `to close ${open.text}${t.text}`);
    return { kind: 'number', value: scaleLiteral(negative ? -value : value, form), form };
  }

  private primary(): Expr {
    const p = this.p;
    const t = p.next();
    if (t.type === 'number') return num(this.integer(t));
    if (t.type === 'punct') {
      if (t.text === '[') return this.literal(t, 'linear');
      if (t.text === '<') return this.literal(t, 'angle');
      if (t.text === '(') {
        const e = this.expr();
        p.expect(')', 'to close (');
        return e;
      }
    }
    if (t.type !== 'word') return p.fail(t, `expected a value, found ${describe(t)}`);
    const word = t.text.toLowerCase();
    if (word === 'get') {
      const value = this.unary();
      if (p.peek().text !== '(' || p.peek().type !== 'punct') return this.node(t, { kind: 'get', value, args: null }, value);
      p.next();
      const args = this.args();
      if (args.length > 4) p.fail(t, `get takes at most 4 arguments, not ${args.length}`);
      return this.node(t, { kind: 'get', value, args }, value, ...args);
    }
    if (word === 'rand') {
      p.expect('(', 'after rand');
      const args = this.args();
      if (args.length !== 2) p.fail(t, `rand takes 2 arguments (low, high), not ${args.length}`);
      return this.node(t, { kind: 'rand', low: args[0]!, high: args[1]! }, args[0]!, args[1]!);
    }
    const local = this.find(this.locals, t.text);
    if (local >= 0) return { kind: 'local', index: local };
    const stat = this.find(this.program.statics, t.text);
    if (stat >= 0) return { kind: 'static', index: stat };
    const piece = this.find(this.program.pieces, t.text);
    if (piece >= 0) return { kind: 'number', value: piece, form: 'piece' };
    if (word === 'true') return num(1);
    if (word === 'false') return num(0);
    return p.fail(t, `unknown name ${t.text}`);
  }
}

export function num(value: number): Expr {
  return { kind: 'number', value, form: 'plain' };
}
