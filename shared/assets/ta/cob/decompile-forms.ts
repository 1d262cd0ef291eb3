import { Op } from './opcodes.js';
import { BINARY_OPCODES } from './codegen.js';
import type { BinaryOp, Expr, NumberForm, PieceFlagOp, Stmt } from './ast.js';

/**
 * The decompiler's vocabulary: which opcodes are which BOS operators, and the touch-ups that make the
 * rebuilt tree print as its source did (constants in a motion's unit, piece names in a query's answer,
 * the return Scriptor appends).
 */

export const BINARY_BY_OPCODE = new Map<number, BinaryOp>(Object.entries(BINARY_OPCODES).map(([op, code]) => [code, op as BinaryOp]));

export const PIECE_FLAGS = new Map<number, PieceFlagOp>([
  [Op.SHOW, 'show'],
  [Op.HIDE, 'hide'],
  [Op.CACHE, 'cache'],
  [Op.DONT_CACHE, 'dont-cache'],
  [Op.SHADE, 'shade'],
  [Op.DONT_SHADE, 'dont-shade'],
  [Op.DONT_SHADOW, 'dont-shadow'],
]);

/** Scripts that answer a piece number in their first argument: constants assigned there print as piece names. */
export const PIECE_QUERY = /^(query|aimfrom|sweetspot)/i;

export function num(value: number): Expr {
  return { kind: 'number', value, form: 'plain' };
}

/** Whether the last instruction these statements compile to is a return (the code generator's rule). */
export function endsWithReturn(stmts: Stmt[]): boolean {
  const last = stmts[stmts.length - 1];
  if (!last) return false;
  if (last.kind === 'return') return true;
  if (last.kind !== 'if') return false;
  return last.else === null ? endsWithReturn(last.then) : endsWithReturn(last.else);
}

export function isZero(e: Expr): boolean {
  return e.kind === 'number' && e.value === 0;
}

/** Constants of a motion's target or speed (through + and -) written in the motion's unit. */
export function withForm(e: Expr, form: NumberForm): Expr {
  if (e.kind === 'number') return { ...e, form };
  if (e.kind === 'binary' && (e.op === 'add' || e.op === 'sub'))
    return { ...e, left: withForm(e.left, form), right: withForm(e.right, form) };
  return e;
}

export function markPieceAnswers(body: Stmt[], pieceCount: number): void {
  for (const s of body) {
    if (
      s.kind === 'assign' &&
      s.target.kind === 'local' &&
      s.target.index === 0 &&
      s.value.kind === 'number' &&
      s.value.value >= 0 &&
      s.value.value < pieceCount
    ) {
      s.value = { ...s.value, form: 'piece' };
    } else if (s.kind === 'if') {
      markPieceAnswers(s.then, pieceCount);
      if (s.else) markPieceAnswers(s.else, pieceCount);
    } else if (s.kind === 'while') {
      markPieceAnswers(s.body, pieceCount);
    }
  }
}
