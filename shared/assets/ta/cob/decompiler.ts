import { fail } from '../../../errors.js';
import { Op } from './opcodes.js';
import { BINARY_BY_OPCODE, PIECE_FLAGS, PIECE_QUERY, endsWithReturn, isZero, markPieceAnswers, num, withForm } from './decompile-forms.js';
import { decodeInstructions, type CobFile, type Instruction } from './reader.js';
import {
  MAX_NESTING,
  composite,
  depthOf,
  type Axis,
  type BosProgram,
  type Expr,
  type NumberForm,
  type ScriptNode,
  type Stmt,
} from './ast.js';

/**
 * Code words back to a BOS tree. It recognises the shapes the common compilers (Scriptor) emit: an
 * expression pushed left to right then consumed by one statement instruction; `if` as a jump-if-false
 * over its body, `else` as a jump over the else part, `while` as a test whose body ends with a jump back
 * to the test. Whatever does not fit those shapes fails with a FormatError naming the script and word,
 * rather than printing source that would compile to other bytes.
 */

export function decompileProgram(cob: CobFile): BosProgram {
  const statics = Array.from({ length: cob.staticVars }, (_, i) => `Static_Var_${i + 1}`);
  const scripts = cob.scripts.map((s) => new ScriptDecompiler(cob, s.name, s.start, s.end).run());
  return { pieces: cob.pieces, statics, sounds: cob.sounds, scripts };
}

class ScriptDecompiler {
  private readonly instructions: Instruction[];
  /** Instruction index by the word it starts at. */
  private readonly byWord = new Map<number, number>();
  /** Every alloc of the script makes a local slot, wherever it stands. */
  private readonly locals: number;
  /** Blocks decoded so far: the if/else retry must not go exponential on hostile code. */
  private blocks = 0;
  private nesting = 0;
  private readonly what: string;

  constructor(
    private readonly cob: CobFile,
    private readonly name: string,
    private readonly start: number,
    private readonly end: number,
  ) {
    this.what = `script ${name}`;
    this.instructions = decodeInstructions(cob.code, start, end, this.what);
    this.instructions.forEach((ins, i) => this.byWord.set(ins.at, i));
    this.locals = this.instructions.filter((ins) => ins.op === Op.ALLOC_LOCAL).length;
  }

  private bad(at: number, message: string): never {
    return fail('unsupported', `${this.what}: ${message} at word ${at}`, { offset: at });
  }

  run(): ScriptNode {
    const ins = this.instructions;
    let first = 0;
    while (ins[first]?.op === Op.ALLOC_LOCAL) first++;
    const params = first;
    const last = ins[ins.length - 1];
    if (!last || last.op !== Op.RETURN) this.bad(last?.at ?? this.start, 'the code does not end with a return');
    const bodyStart = ins[first]?.at ?? this.end;
    const body = this.body(bodyStart, ins[ins.length - 2], first);
    const locals = Array.from({ length: this.locals }, (_, i) => `Func_Var_${i + 1}`);
    if (PIECE_QUERY.test(this.name)) markPieceAnswers(body, this.cob.pieces.length);
    return { name: this.name, params: locals.slice(0, params), locals, body };
  }

  /**
   * The statements of the body. Scriptor appends `return (0)` unless its last instruction is a return, so
   * a final `push 0; return` is taken off when the rest does not end in a return (else it stays, as an
   * explicit `return (0)`); when the rest cannot stand alone (a jump reaches past it), the body keeps it.
   */
  private body(bodyStart: number, beforeLast: Instruction | undefined, first: number): Stmt[] {
    const implicit =
      beforeLast !== undefined &&
      this.byWord.get(beforeLast.at)! >= first &&
      beforeLast.op === Op.PUSH_CONSTANT &&
      beforeLast.args[0] === 0;
    if (implicit) {
      try {
        const body = bodyStart < beforeLast.at ? this.block(bodyStart, beforeLast.at) : [];
        if (endsWithReturn(body)) body.push({ kind: 'return', value: num(0) });
        return body;
      } catch (err) {
        // A jump reaches the final return: it belongs to the body.
        void err;
      }
    }
    const body = this.block(bodyStart, this.end);
    if (!endsWithReturn(body)) this.bad(this.end, 'the code ends without the return Scriptor would have written');
    return body;
  }

  private at(word: number): Instruction | undefined {
    const i = this.byWord.get(word);
    return i === undefined ? undefined : this.instructions[i];
  }

  /** The statements of words [from, to), which must be whole statements. */
  private block(from: number, to: number): Stmt[] {
    if (++this.blocks > 100_000) this.bad(from, 'control flow too tangled to decompile');
    if (++this.nesting > MAX_NESTING) this.bad(from, `blocks nested more than ${MAX_NESTING} deep`);
    try {
      return this.statements(from, to);
    } finally {
      this.nesting--;
    }
  }

  private statements(from: number, to: number): Stmt[] {
    const out: Stmt[] = [];
    const stack: Expr[] = [];
    let stmtStart = from;
    let word = from;
    const pop = (ins: Instruction): Expr => stack.pop() ?? this.bad(ins.at, `${ins.info.name} finds the stack empty`);
    const popN = (ins: Instruction, n: number): Expr[] => {
      if (n < 0 || n > stack.length) this.bad(ins.at, `${ins.info.name} needs ${n} values, the stack has ${stack.length}`);
      return stack.splice(stack.length - n, n);
    };
    const statement = (ins: Instruction, s: Stmt) => {
      if (stack.length) this.bad(ins.at, `${stack.length} value(s) left on the stack before ${ins.info.name}`);
      out.push(s);
    };
    while (word < to) {
      const ins = this.at(word);
      if (!ins) return this.bad(word, 'no instruction starts');
      if (stack.length === 0) stmtStart = word;
      let next = word + 1 + ins.args.length;
      const a0 = ins.args[0]!;
      const a1 = ins.args[1]!;
      const binary = BINARY_BY_OPCODE.get(ins.op);
      const flag = PIECE_FLAGS.get(ins.op);
      if (binary) {
        const right = pop(ins);
        const left = pop(ins);
        stack.push(this.node(ins, { kind: 'binary', op: binary, left, right }, left, right));
      } else if (flag) {
        statement(ins, { kind: 'pieceFlag', op: flag, piece: this.piece(ins, a0) });
      } else {
        switch (ins.op) {
          case Op.PUSH_CONSTANT:
            stack.push(num(a0));
            break;
          case Op.PUSH_LOCAL:
            stack.push({ kind: 'local', index: this.local(ins, a0) });
            break;
          case Op.PUSH_STATIC:
            stack.push({ kind: 'static', index: this.static(ins, a0) });
            break;
          case Op.POP_LOCAL:
          case Op.POP_STATIC: {
            const value = pop(ins);
            const target =
              ins.op === Op.POP_LOCAL
                ? { kind: 'local' as const, index: this.local(ins, a0) }
                : { kind: 'static' as const, index: this.static(ins, a0) };
            statement(ins, { kind: 'assign', target, value });
            break;
          }
          case Op.ALLOC_LOCAL: {
            statement(ins, { kind: 'var', count: 1 });
            const prev = out[out.length - 2];
            if (prev?.kind === 'var') {
              prev.count++;
              out.pop();
            }
            break;
          }
          case Op.NOT:
          case Op.BIT_NOT: {
            const operand = pop(ins);
            stack.push(this.node(ins, { kind: ins.op === Op.NOT ? 'not' : 'bitNot', operand }, operand));
            break;
          }
          case Op.RAND: {
            const high = pop(ins);
            const low = pop(ins);
            stack.push(this.node(ins, { kind: 'rand', low, high }, low, high));
            break;
          }
          case Op.GET_UNIT_VALUE: {
            const value = pop(ins);
            stack.push(this.node(ins, { kind: 'get', value, args: null }, value));
            break;
          }
          case Op.GET: {
            const [value, ...args] = popN(ins, 5);
            while (args.length && isZero(args[args.length - 1]!)) args.pop();
            stack.push(this.node(ins, { kind: 'get', value: value!, args }, value!, ...args));
            break;
          }
          case Op.MOVE:
          case Op.TURN: {
            const form: NumberForm = ins.op === Op.MOVE ? 'linear' : 'angle';
            const target = withForm(pop(ins), form);
            const speed = withForm(pop(ins), form);
            statement(ins, {
              kind: 'motion',
              op: ins.op === Op.MOVE ? 'move' : 'turn',
              piece: this.piece(ins, a0),
              axis: this.axis(ins, a1),
              target,
              speed,
            });
            break;
          }
          case Op.MOVE_NOW:
          case Op.TURN_NOW: {
            const target = withForm(pop(ins), ins.op === Op.MOVE_NOW ? 'linear' : 'angle');
            statement(ins, {
              kind: 'motion',
              op: ins.op === Op.MOVE_NOW ? 'move' : 'turn',
              piece: this.piece(ins, a0),
              axis: this.axis(ins, a1),
              target,
              speed: null,
            });
            break;
          }
          case Op.SPIN: {
            const speed = withForm(pop(ins), 'angle');
            const accelerate = withForm(pop(ins), 'angle');
            statement(ins, { kind: 'spin', piece: this.piece(ins, a0), axis: this.axis(ins, a1), speed, accelerate });
            break;
          }
          case Op.STOP_SPIN:
            statement(ins, {
              kind: 'stopSpin',
              piece: this.piece(ins, a0),
              axis: this.axis(ins, a1),
              decelerate: withForm(pop(ins), 'angle'),
            });
            break;
          case Op.WAIT_FOR_TURN:
          case Op.WAIT_FOR_MOVE:
            statement(ins, {
              kind: 'wait',
              op: ins.op === Op.WAIT_FOR_TURN ? 'turn' : 'move',
              piece: this.piece(ins, a0),
              axis: this.axis(ins, a1),
            });
            break;
          case Op.EMIT_SFX:
            statement(ins, { kind: 'emitSfx', type: pop(ins), piece: this.piece(ins, a0) });
            break;
          case Op.EXPLODE:
            statement(ins, { kind: 'explode', type: pop(ins), piece: this.piece(ins, a0) });
            break;
          case Op.SLEEP:
          case Op.SIGNAL:
          case Op.SET_SIGNAL_MASK: {
            const kind = ins.op === Op.SLEEP ? 'sleep' : ins.op === Op.SIGNAL ? 'signal' : 'setSignalMask';
            statement(ins, { kind, value: pop(ins) });
            break;
          }
          case Op.SET_UNIT_VALUE: {
            const value = pop(ins);
            statement(ins, { kind: 'set', name: pop(ins), value });
            break;
          }
          case Op.CALL_SCRIPT:
          case Op.START_SCRIPT: {
            if (a0 < 0 || a0 >= this.cob.scripts.length)
              this.bad(ins.at, `${ins.info.name} names script ${a0} of ${this.cob.scripts.length}`);
            const args = popN(ins, a1);
            statement(ins, { kind: ins.op === Op.CALL_SCRIPT ? 'call' : 'start', script: a0, args });
            break;
          }
          case Op.ATTACH_UNIT: {
            const [unit, piece, extra] = popN(ins, 3);
            if (!isZero(extra!)) this.bad(ins.at, 'attach-unit with a third value other than 0');
            statement(ins, { kind: 'attachUnit', unit: unit!, piece: piece! });
            break;
          }
          case Op.DROP_UNIT:
            statement(ins, { kind: 'dropUnit', unit: pop(ins) });
            break;
          case Op.RETURN:
            statement(ins, { kind: 'return', value: pop(ins) });
            break;
          case Op.JUMP_IF_FALSE:
            next = this.conditional(ins, pop(ins), stack.length, stmtStart, to, out);
            break;
          default:
            this.bad(ins.at, `${ins.info.name} out of place`);
        }
      }
      word = next;
    }
    if (stack.length) this.bad(to, `${stack.length} value(s) left on the stack at the end of a block`);
    return out;
  }

  /** An `if`, `if … else` or `while` whose test ends in the jump-if-false `ins`; returns the word after it. */
  private conditional(ins: Instruction, cond: Expr, left: number, stmtStart: number, to: number, out: Stmt[]): number {
    if (left) this.bad(ins.at, `${left} value(s) left on the stack under a condition`);
    const target = ins.args[0]!;
    const bodyStart = ins.at + 2;
    if (target < bodyStart || target > to) this.bad(ins.at, `a jump to word ${target} outside its block (${bodyStart}..${to})`);
    const jumpBack = target - 2 >= bodyStart ? this.at(target - 2) : undefined;
    if (jumpBack?.op === Op.JUMP) {
      const dest = jumpBack.args[0]!;
      if (dest === stmtStart) {
        out.push({ kind: 'while', cond, body: this.block(bodyStart, target - 2) });
        return target;
      }
      if (dest >= target && dest <= to) {
        // An if-else, unless the jump belongs to a statement inside the then part; try both.
        try {
          const then = this.block(bodyStart, target - 2);
          const otherwise = this.block(target, dest);
          out.push({ kind: 'if', cond, then, else: otherwise });
          return dest;
        } catch {
          // fall through: a plain if
        }
      }
    }
    out.push({ kind: 'if', cond, then: this.block(bodyStart, target), else: null });
    return target;
  }

  /** A composite expression, refused past MAX_NESTING levels (the printer recurses over it). */
  private node<T extends Expr>(ins: Instruction, e: T, ...children: Expr[]): T {
    const n = composite(e, ...children);
    if (depthOf(n) > MAX_NESTING) this.bad(ins.at, `an expression nested more than ${MAX_NESTING} deep`);
    return n;
  }

  private piece(ins: Instruction, index: number): number {
    if (index < 0 || index >= this.cob.pieces.length)
      this.bad(ins.at, `${ins.info.name} names piece ${index} of ${this.cob.pieces.length}`);
    return index;
  }

  private axis(ins: Instruction, axis: number): Axis {
    if (axis !== 0 && axis !== 1 && axis !== 2) this.bad(ins.at, `${ins.info.name} names axis ${axis}`);
    return axis;
  }

  private local(ins: Instruction, index: number): number {
    if (index < 0 || index >= this.locals) this.bad(ins.at, `${ins.info.name} names local ${index} of ${this.locals}`);
    return index;
  }

  private static(ins: Instruction, index: number): number {
    if (index < 0 || index >= this.cob.staticVars) this.bad(ins.at, `${ins.info.name} names static ${index} of ${this.cob.staticVars}`);
    return index;
  }
}
