import type { BinaryOp } from './ast.js';

/**
 * BOS binary operators: how each is spelled (the printer uses the first spelling) and how tightly it
 * binds (higher binds tighter; all are left-associative).
 */
export const BINARY_SYNTAX: { op: BinaryOp; spellings: string[]; precedence: number }[] = [
  { op: 'or', spellings: ['OR', '||'], precedence: 1 },
  { op: 'xor', spellings: ['XOR', '^^'], precedence: 1 },
  { op: 'and', spellings: ['AND', '&&'], precedence: 2 },
  { op: 'equal', spellings: ['=='], precedence: 3 },
  { op: 'notEqual', spellings: ['!='], precedence: 3 },
  { op: 'less', spellings: ['<'], precedence: 3 },
  { op: 'lessEqual', spellings: ['<='], precedence: 3 },
  { op: 'greater', spellings: ['>'], precedence: 3 },
  { op: 'greaterEqual', spellings: ['>='], precedence: 3 },
  { op: 'bitOr', spellings: ['|'], precedence: 4 },
  { op: 'bitXor', spellings: ['^'], precedence: 5 },
  { op: 'bitAnd', spellings: ['&'], precedence: 6 },
  { op: 'add', spellings: ['+'], precedence: 7 },
  { op: 'sub', spellings: ['-'], precedence: 7 },
  { op: 'mul', spellings: ['*'], precedence: 8 },
  { op: 'div', spellings: ['/'], precedence: 8 },
];

/** Binding of the unary operators `!` and `~`: tighter than every binary operator. */
export const UNARY_PRECEDENCE = 9;

export const BINARY_BY_OP = new Map(BINARY_SYNTAX.map((s) => [s.op, s]));
export const BINARY_BY_SPELLING = new Map(BINARY_SYNTAX.flatMap((s) => s.spellings.map((sp) => [sp.toUpperCase(), s] as const)));
