/**
 * The BOS program as a tree: what the parser builds from source, the decompiler builds from code words,
 * the printer turns into source and the code generator turns into words. Names are resolved: locals,
 * statics, pieces and scripts are indexes, constants are numbers.
 */

/** How a constant was (or should be) written: a plain integer, `[linear]`, `<angle>` or a piece's name. */
export type NumberForm = 'plain' | 'linear' | 'angle' | 'piece';

export type BinaryOp =
  | 'add'
  | 'sub'
  | 'mul'
  | 'div'
  | 'bitAnd'
  | 'bitOr'
  | 'bitXor'
  | 'less'
  | 'lessEqual'
  | 'greater'
  | 'greaterEqual'
  | 'equal'
  | 'notEqual'
  | 'and'
  | 'or'
  | 'xor';

export type Expr =
  | { kind: 'number'; value: number; form: NumberForm }
  | { kind: 'local'; index: number }
  | { kind: 'static'; index: number }
  | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr }
  | { kind: 'not'; operand: Expr }
  | { kind: 'bitNot'; operand: Expr }
  | { kind: 'rand'; low: Expr; high: Expr }
  /** `get VALUE` (no arguments) or `get VALUE(a, b, c, d)`. */
  | { kind: 'get'; value: Expr; args: Expr[] | null };

export type Axis = 0 | 1 | 2;

export type PieceFlagOp = 'show' | 'hide' | 'cache' | 'dont-cache' | 'shade' | 'dont-shade' | 'dont-shadow';

export type Stmt =
  | { kind: 'var'; count: number }
  | { kind: 'assign'; target: { kind: 'local' | 'static'; index: number }; value: Expr }
  | { kind: 'if'; cond: Expr; then: Stmt[]; else: Stmt[] | null }
  | { kind: 'while'; cond: Expr; body: Stmt[] }
  | { kind: 'return'; value: Expr }
  /** `move`/`turn` to a target at a speed, or `now` when speed is null. */
  | { kind: 'motion'; op: 'move' | 'turn'; piece: number; axis: Axis; target: Expr; speed: Expr | null }
  | { kind: 'spin'; piece: number; axis: Axis; speed: Expr; accelerate: Expr }
  | { kind: 'stopSpin'; piece: number; axis: Axis; decelerate: Expr }
  | { kind: 'wait'; op: 'turn' | 'move'; piece: number; axis: Axis }
  | { kind: 'pieceFlag'; op: PieceFlagOp; piece: number }
  | { kind: 'emitSfx'; type: Expr; piece: number }
  | { kind: 'explode'; piece: number; type: Expr }
  | { kind: 'sleep' | 'signal' | 'setSignalMask'; value: Expr }
  | { kind: 'set'; name: Expr; value: Expr }
  | { kind: 'call' | 'start'; script: number; args: Expr[] }
  | { kind: 'attachUnit'; unit: Expr; piece: Expr }
  | { kind: 'dropUnit'; unit: Expr };

export interface ScriptNode {
  name: string;
  /** Parameters, in order (each one local slot). */
  params: string[];
  /** Names of every local slot: the parameters, then each `var` in order. */
  locals: string[];
  body: Stmt[];
  /** The source line of the name, for messages. */
  line?: number;
}

export interface BosProgram {
  pieces: string[];
  statics: string[];
  sounds: string[];
  scripts: ScriptNode[];
}

/** How deep expressions and blocks may nest: the printer and code generator recurse over the tree. */
export const MAX_NESTING = 200;

const depths = new WeakMap<Expr, number>();

/** An expression's depth; trees are built bottom-up, so each child's depth is already known. */
export function depthOf(e: Expr): number {
  return depths.get(e) ?? 1;
}

/** Records a composite node's depth from its children's, and returns the node. */
export function composite<T extends Expr>(e: T, ...children: Expr[]): T {
  let deepest = 0;
  for (const c of children) deepest = Math.max(deepest, depthOf(c));
  depths.set(e, deepest + 1);
  return e;
}
