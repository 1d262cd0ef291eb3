import { Cursor, describe } from './cursor.js';
import { ExpressionParser, num } from './expressions.js';
import type { Token } from './lexer.js';
import type { Axis, BosProgram, Expr, PieceFlagOp, ScriptNode, Stmt } from './ast.js';

/**
 * Preprocessed BOS tokens to a program tree. Names resolve case-insensitively: a function's locals,
 * then static variables, then pieces (a piece name is its index). Scripts may be called before they are
 * defined, so function names are gathered before any body is read.
 */

const AXIS_WORDS: Record<string, Axis> = { 'x-axis': 0, 'y-axis': 1, 'z-axis': 2 };
const PIECE_FLAGS = new Set<PieceFlagOp>(['show', 'hide', 'cache', 'dont-cache', 'shade', 'dont-shade', 'dont-shadow']);

interface FunctionHead {
  name: string;
  params: string[];
  body: Token[];
  close: Token;
  line: number;
}

export function parseProgram(tokens: Token[], file: string): BosProgram {
  const pieces: string[] = [];
  const statics: string[] = [];
  const sounds: string[] = [];
  const heads: FunctionHead[] = [];
  const defined = new Set<string>();
  const p = new Cursor(tokens, file);
  while (!p.done()) {
    const t = p.next();
    const word = t.type === 'word' ? t.text.toLowerCase() : '';
    if (t.text === ';') continue;
    if (word === 'piece' || word === 'static-var' || word === 'sound') {
      const list = word === 'piece' ? pieces : word === 'static-var' ? statics : sounds;
      for (const name of p.nameList(`${word} declaration`)) list.push(name);
      continue;
    }
    if (t.type !== 'word') p.fail(t, `expected a declaration or a function, found ${describe(t)}`);
    p.expect('(', `after function name ${t.text}`);
    const params = p.peek().text === ')' ? [] : p.nameList('parameter list', ')');
    if (params.length === 0) p.expect(')', `to close ${t.text}(`);
    const open = p.expect('{', `to open the body of ${t.text}`);
    const body: Token[] = [];
    let depth = 1;
    const closing = (b: Token) => b.text === '}' && b.type === 'punct' && --depth === 0;
    for (let b = p.next(); !closing(b); b = p.next()) {
      if (b.type === 'eof') p.fail(open, `the body of ${t.text} is never closed`);
      if (b.text === '{' && b.type === 'punct') depth++;
      body.push(b);
    }
    // The cursor just passed the closing brace: reading past the body's tokens gives it, for messages.
    const close = p.peek(-1);
    if (defined.has(t.text.toLowerCase())) p.fail(t, `function ${t.text} is defined twice`);
    defined.add(t.text.toLowerCase());
    heads.push({ name: t.text, params, body, close, line: t.line });
  }
  const program: BosProgram = { pieces, statics, sounds, scripts: [] };
  const scripts = new Map(heads.map((h, i) => [h.name.toLowerCase(), i]));
  for (const head of heads) program.scripts.push(new BodyParser(head, file, program, scripts).run());
  return program;
}

class BodyParser extends ExpressionParser {
  constructor(
    private readonly head: FunctionHead,
    file: string,
    program: BosProgram,
    private readonly scripts: Map<string, number>,
  ) {
    super(new Cursor(head.body, file, head.close), [...head.params], program);
  }

  run(): ScriptNode {
    const body: Stmt[] = [];
    while (!this.p.done()) body.push(...this.stmt());
    return { name: this.head.name, params: this.head.params, locals: this.locals, body, line: this.head.line };
  }

  private block(): Stmt[] {
    if (this.p.peek().text !== '{') return this.stmt();
    const open = this.p.next();
    const out: Stmt[] = [];
    while (this.p.peek().text !== '}') {
      if (this.p.atEnd()) this.p.fail(open, 'this { is never closed');
      out.push(...this.stmt());
    }
    this.p.next();
    return out;
  }

  private end(what: string): void {
    this.p.expect(';', `after ${what}`);
  }

  private piece(): number {
    const t = this.p.name('piece name');
    const i = this.find(this.program.pieces, t.text);
    if (i < 0) this.p.fail(t, `${t.text} is not a declared piece`);
    return i;
  }

  private axis(): Axis {
    const t = this.p.next();
    const axis = t.type === 'word' ? AXIS_WORDS[t.text.toLowerCase()] : undefined;
    if (axis === undefined) this.p.fail(t, `expected x-axis, y-axis or z-axis, found ${describe(t)}`);
    return axis;
  }

  /** One statement (a `{}` block gives its statements, `;` none). */
  private stmt(): Stmt[] {
    this.enter(this.p.peek(), 'a statement');
    try {
      return this.statement();
    } finally {
      this.nesting--;
    }
  }

  private statement(): Stmt[] {
    const p = this.p;
    const t = p.next();
    if (t.text === ';' && t.type === 'punct') return [];
    if (t.text === '{' && t.type === 'punct') {
      const out: Stmt[] = [];
      while (p.peek().text !== '}') {
        if (p.atEnd()) p.fail(t, 'this { is never closed');
        out.push(...this.stmt());
      }
      p.next();
      return out;
    }
    if ((t.text === '+' || t.text === '-') && t.type === 'punct' && p.peek().text === t.text) {
      p.next();
      return this.step(p.name(`${t.text}${t.text} statement`), t.text === '+' ? 'add' : 'sub');
    }
    if (t.type !== 'word') p.fail(t, `expected a statement, found ${describe(t)}`);
    const word = t.text.toLowerCase();
    const one = (s: Stmt, what = word): Stmt[] => {
      this.end(what);
      return [s];
    };
    switch (word) {
      case 'if': {
        p.expect('(', 'after if');
        const cond = this.expr();
        p.expect(')', 'to close the if condition');
        const then = this.block();
        let otherwise: Stmt[] | null = null;
        if (p.isWord('else')) {
          p.next();
          otherwise = this.block();
        }
        return [{ kind: 'if', cond, then, else: otherwise }];
      }
      case 'while': {
        p.expect('(', 'after while');
        const cond = this.expr();
        p.expect(')', 'to close the while condition');
        return [{ kind: 'while', cond, body: this.block() }];
      }
      case 'return':
        return one({ kind: 'return', value: p.peek().text === ';' ? num(0) : this.expr() });
      case 'var': {
        const names = p.nameList('var declaration');
        for (const n of names) {
          if (this.find(this.locals, n) >= 0) p.fail(t, `${n} is already a local of ${this.head.name}`);
          this.locals.push(n);
        }
        return [{ kind: 'var', count: names.length }];
      }
      case 'move':
      case 'turn': {
        const piece = this.piece();
        p.expectWord('to', `after ${word} PIECE`);
        const axis = this.axis();
        const target = this.expr();
        let speed: Expr | null = null;
        if (p.isWord('now')) p.next();
        else {
          p.expectWord('speed', `or 'now' after the ${word} target`);
          speed = this.expr();
        }
        return one({ kind: 'motion', op: word, piece, axis, target, speed });
      }
      case 'spin': {
        const piece = this.piece();
        p.expectWord('around', 'after spin PIECE');
        const axis = this.axis();
        p.expectWord('speed', 'after spin PIECE around AXIS');
        const speed = this.expr();
        let accelerate = num(0);
        if (p.isWord('accelerate')) {
          p.next();
          accelerate = this.expr();
        }
        return one({ kind: 'spin', piece, axis, speed, accelerate });
      }
      case 'stop-spin': {
        const piece = this.piece();
        p.expectWord('around', 'after stop-spin PIECE');
        const axis = this.axis();
        let decelerate = num(0);
        if (p.isWord('decelerate')) {
          p.next();
          decelerate = this.expr();
        }
        return one({ kind: 'stopSpin', piece, axis, decelerate });
      }
      case 'wait-for-turn':
      case 'wait-for-move': {
        const piece = this.piece();
        if (p.isWord('around') || p.isWord('along')) p.next();
        else p.fail(p.peek(), `expected 'around' or 'along' after ${word} PIECE, found ${describe(p.peek())}`);
        return one({ kind: 'wait', op: word === 'wait-for-turn' ? 'turn' : 'move', piece, axis: this.axis() });
      }
      case 'emit-sfx': {
        const type = this.expr();
        p.expectWord('from', 'after emit-sfx TYPE');
        return one({ kind: 'emitSfx', type, piece: this.piece() });
      }
      case 'explode': {
        const piece = this.piece();
        p.expectWord('type', 'after explode PIECE');
        return one({ kind: 'explode', piece, type: this.expr() });
      }
      case 'sleep':
      case 'signal':
        return one({ kind: word, value: this.expr() });
      case 'set-signal-mask':
        return one({ kind: 'setSignalMask', value: this.expr() });
      case 'set': {
        const name = this.unary();
        p.expectWord('to', 'after set NAME');
        return one({ kind: 'set', name, value: this.expr() });
      }
      case 'call-script':
      case 'start-script': {
        const name = p.name(`${word} statement`);
        const script = this.scripts.get(name.text.toLowerCase()) ?? p.fail(name, `${name.text} is not a function of this script`);
        p.expect('(', `after ${word} ${name.text}`);
        const args = this.args();
        return one({ kind: word === 'call-script' ? 'call' : 'start', script, args });
      }
      case 'attach-unit': {
        const unit = this.expr();
        p.expectWord('to', 'after attach-unit UNIT');
        return one({ kind: 'attachUnit', unit, piece: this.expr() });
      }
      case 'drop-unit':
        return one({ kind: 'dropUnit', unit: this.expr() });
      case 'play-sound':
        return p.fail(t, 'play-sound (TA:Kingdoms) is not supported');
    }
    if (PIECE_FLAGS.has(word as PieceFlagOp)) return one({ kind: 'pieceFlag', op: word as PieceFlagOp, piece: this.piece() });
    const next = p.peek();
    if ((next.text === '+' || next.text === '-') && next.type === 'punct' && p.peek(1).text === next.text) {
      p.next();
      p.next();
      return this.step(t, next.text === '+' ? 'add' : 'sub');
    }
    // An assignment.
    const target = this.variable(t, next.text === '=' ? `${t.text} is not a variable` : `unknown statement '${t.text}'`);
    p.expect('=', `after ${t.text}`);
    return one({ kind: 'assign', target, value: this.expr() }, 'the assignment');
  }

  private variable(t: Token, unknown: string): { kind: 'local' | 'static'; index: number } {
    const local = this.find(this.locals, t.text);
    if (local >= 0) return { kind: 'local', index: local };
    const stat = this.find(this.program.statics, t.text);
    if (stat < 0) this.p.fail(t, unknown);
    return { kind: 'static', index: stat };
  }

  /** `++x;` or `x--;`: x = x + 1 or x - 1, as Scriptor compiles it. */
  private step(name: Token, op: 'add' | 'sub'): Stmt[] {
    const target = this.variable(name, `${name.text} is not a variable`);
    this.end(`${op === 'add' ? '++' : '--'}${name.text}`);
    return [{ kind: 'assign', target, value: { kind: 'binary', op, left: { ...target }, right: num(1) } }];
  }

  /** `a, b)` after an opening parenthesis. */
}
