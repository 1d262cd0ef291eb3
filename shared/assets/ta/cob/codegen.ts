import { Op } from './opcodes.js';
import type { BinaryOp, BosProgram, Expr, Stmt } from './ast.js';
import type { CobProgram } from './writer.js';

/** The opcode of each binary operator. */
export const BINARY_OPCODES: Record<BinaryOp, number> = {
  add: Op.ADD,
  sub: Op.SUB,
  mul: Op.MUL,
  div: Op.DIV,
  bitAnd: Op.BIT_AND,
  bitOr: Op.BIT_OR,
  bitXor: Op.BIT_XOR,
  less: Op.LESS,
  lessEqual: Op.LESS_EQUAL,
  greater: Op.GREATER,
  greaterEqual: Op.GREATER_EQUAL,
  equal: Op.EQUAL,
  notEqual: Op.NOT_EQUAL,
  and: Op.AND,
  or: Op.OR,
  xor: Op.XOR,
};

const PIECE_FLAG_OPCODES = {
  show: Op.SHOW,
  hide: Op.HIDE,
  cache: Op.CACHE,
  'dont-cache': Op.DONT_CACHE,
  shade: Op.SHADE,
  'dont-shade': Op.DONT_SHADE,
  'dont-shadow': Op.DONT_SHADOW,
} as const;

/**
 * Code words for a program, the way Scriptor emits them: operands pushed left to right, no constant
 * folding, one alloc per parameter and `var`, jumps to absolute word indexes, and `return (0)` appended
 * to a script whose last statement is not a return.
 */
export function generateCode(program: BosProgram, version: 4 | 6): CobProgram {
  const scripts: CobProgram['scripts'] = [];
  let base = 0;
  for (const script of program.scripts) {
    const code: number[] = [];
    const emitter = new Emitter(code, base);
    for (let i = 0; i < script.params.length; i++) code.push(Op.ALLOC_LOCAL);
    emitter.block(script.body);
    // Scriptor appends `return (0)` unless the last instruction it wrote is a return, even one inside an if.
    if (!emitter.endsWithReturn) code.push(Op.PUSH_CONSTANT, 0, Op.RETURN);
    scripts.push({ name: script.name, code });
    base += code.length;
  }
  return { version, scripts, pieces: program.pieces, staticVars: program.statics.length, sounds: program.sounds };
}

class Emitter {
  /** Whether the last instruction written is a return. */
  endsWithReturn = false;

  constructor(
    private readonly code: number[],
    private readonly base: number,
  ) {}

  private get here(): number {
    return this.base + this.code.length;
  }

  /** Emits a jump with a placeholder target; returns where to patch it. */
  private jump(op: number): number {
    this.code.push(op, 0);
    return this.code.length - 1;
  }

  private patch(slot: number, target: number): void {
    this.code[slot] = target;
  }

  block(stmts: Stmt[]): void {
    for (const s of stmts) this.stmt(s);
  }

  stmt(s: Stmt): void {
    this.statement(s);
    this.endsWithReturn =
      s.kind === 'return' || (s.kind === 'if' && this.endsWithReturn && (s.else === null ? s.then.length > 0 : s.else.length > 0));
  }

  private statement(s: Stmt): void {
    const c = this.code;
    switch (s.kind) {
      case 'var':
        for (let i = 0; i < s.count; i++) c.push(Op.ALLOC_LOCAL);
        return;
      case 'assign':
        this.expr(s.value);
        c.push(s.target.kind === 'local' ? Op.POP_LOCAL : Op.POP_STATIC, s.target.index);
        return;
      case 'if': {
        this.expr(s.cond);
        const toElse = this.jump(Op.JUMP_IF_FALSE);
        this.block(s.then);
        if (s.else) {
          const toEnd = this.jump(Op.JUMP);
          this.patch(toElse, this.here);
          this.block(s.else);
          this.patch(toEnd, this.here);
        } else {
          this.patch(toElse, this.here);
        }
        return;
      }
      case 'while': {
        const top = this.here;
        this.expr(s.cond);
        const toEnd = this.jump(Op.JUMP_IF_FALSE);
        this.block(s.body);
        c.push(Op.JUMP, top);
        this.patch(toEnd, this.here);
        return;
      }
      case 'return':
        this.expr(s.value);
        c.push(Op.RETURN);
        return;
      case 'motion':
        if (s.speed) this.expr(s.speed);
        this.expr(s.target);
        c.push(s.speed ? (s.op === 'move' ? Op.MOVE : Op.TURN) : s.op === 'move' ? Op.MOVE_NOW : Op.TURN_NOW, s.piece, s.axis);
        return;
      case 'spin':
        this.expr(s.accelerate);
        this.expr(s.speed);
        c.push(Op.SPIN, s.piece, s.axis);
        return;
      case 'stopSpin':
        this.expr(s.decelerate);
        c.push(Op.STOP_SPIN, s.piece, s.axis);
        return;
      case 'wait':
        c.push(s.op === 'turn' ? Op.WAIT_FOR_TURN : Op.WAIT_FOR_MOVE, s.piece, s.axis);
        return;
      case 'pieceFlag':
        c.push(PIECE_FLAG_OPCODES[s.op], s.piece);
        return;
      case 'emitSfx':
        this.expr(s.type);
        c.push(Op.EMIT_SFX, s.piece);
        return;
      case 'explode':
        this.expr(s.type);
        c.push(Op.EXPLODE, s.piece);
        return;
      case 'sleep':
      case 'signal':
      case 'setSignalMask':
        this.expr(s.value);
        c.push(s.kind === 'sleep' ? Op.SLEEP : s.kind === 'signal' ? Op.SIGNAL : Op.SET_SIGNAL_MASK);
        return;
      case 'set':
        this.expr(s.name);
        this.expr(s.value);
        c.push(Op.SET_UNIT_VALUE);
        return;
      case 'call':
      case 'start':
        for (const a of s.args) this.expr(a);
        c.push(s.kind === 'call' ? Op.CALL_SCRIPT : Op.START_SCRIPT, s.script, s.args.length);
        return;
      case 'attachUnit':
        this.expr(s.unit);
        this.expr(s.piece);
        c.push(Op.PUSH_CONSTANT, 0, Op.ATTACH_UNIT);
        return;
      case 'dropUnit':
        this.expr(s.unit);
        c.push(Op.DROP_UNIT);
        return;
    }
  }

  expr(e: Expr): void {
    const c = this.code;
    switch (e.kind) {
      case 'number':
        c.push(Op.PUSH_CONSTANT, e.value | 0);
        return;
      case 'local':
        c.push(Op.PUSH_LOCAL, e.index);
        return;
      case 'static':
        c.push(Op.PUSH_STATIC, e.index);
        return;
      case 'binary':
        this.expr(e.left);
        this.expr(e.right);
        c.push(BINARY_OPCODES[e.op]);
        return;
      case 'not':
      case 'bitNot':
        this.expr(e.operand);
        c.push(e.kind === 'not' ? Op.NOT : Op.BIT_NOT);
        return;
      case 'rand':
        this.expr(e.low);
        this.expr(e.high);
        c.push(Op.RAND);
        return;
      case 'get':
        this.expr(e.value);
        if (!e.args) {
          c.push(Op.GET_UNIT_VALUE);
          return;
        }
        for (let i = 0; i < 4; i++) {
          const a = e.args[i];
          if (a) this.expr(a);
          else c.push(Op.PUSH_CONSTANT, 0);
        }
        c.push(Op.GET);
        return;
    }
  }
}
