/**
 * The TA COB instruction set and the constants of its standard headers, as facts shared by the reader,
 * the decompiler and the compiler. Each instruction is one opcode word followed by `operands` inline words.
 */

export const Op = {
  MOVE: 0x10001000,
  TURN: 0x10002000,
  SPIN: 0x10003000,
  STOP_SPIN: 0x10004000,
  SHOW: 0x10005000,
  HIDE: 0x10006000,
  CACHE: 0x10007000,
  DONT_CACHE: 0x10008000,
  DONT_SHADOW: 0x1000a000,
  MOVE_NOW: 0x1000b000,
  TURN_NOW: 0x1000c000,
  SHADE: 0x1000d000,
  DONT_SHADE: 0x1000e000,
  EMIT_SFX: 0x1000f000,
  WAIT_FOR_TURN: 0x10011000,
  WAIT_FOR_MOVE: 0x10012000,
  SLEEP: 0x10013000,
  PUSH_CONSTANT: 0x10021001,
  PUSH_LOCAL: 0x10021002,
  PUSH_STATIC: 0x10021004,
  ALLOC_LOCAL: 0x10022000,
  POP_LOCAL: 0x10023002,
  POP_STATIC: 0x10023004,
  DISCARD: 0x10024000,
  ADD: 0x10031000,
  SUB: 0x10032000,
  MUL: 0x10033000,
  DIV: 0x10034000,
  BIT_AND: 0x10035000,
  BIT_OR: 0x10036000,
  BIT_XOR: 0x10037000,
  BIT_NOT: 0x10038000,
  RAND: 0x10041000,
  GET_UNIT_VALUE: 0x10042000,
  GET: 0x10043000,
  LESS: 0x10051000,
  LESS_EQUAL: 0x10052000,
  GREATER: 0x10053000,
  GREATER_EQUAL: 0x10054000,
  EQUAL: 0x10055000,
  NOT_EQUAL: 0x10056000,
  AND: 0x10057000,
  OR: 0x10058000,
  XOR: 0x10059000,
  NOT: 0x1005a000,
  START_SCRIPT: 0x10061000,
  CALL_SCRIPT: 0x10062000,
  JUMP: 0x10064000,
  RETURN: 0x10065000,
  JUMP_IF_FALSE: 0x10066000,
  SIGNAL: 0x10067000,
  SET_SIGNAL_MASK: 0x10068000,
  EXPLODE: 0x10071000,
  PLAY_SOUND: 0x10072000,
  SET_UNIT_VALUE: 0x10082000,
  ATTACH_UNIT: 0x10083000,
  DROP_UNIT: 0x10084000,
} as const;

export interface OpInfo {
  name: string;
  /** Inline operand words after the opcode. */
  operands: number;
}

const table = new Map<number, OpInfo>();
for (const [name, code] of Object.entries(Op)) table.set(code, { name: name.toLowerCase().replace(/_/g, '-'), operands: 0 });
const withOperands: [number, number][] = [
  [Op.MOVE, 2],
  [Op.TURN, 2],
  [Op.SPIN, 2],
  [Op.STOP_SPIN, 2],
  [Op.MOVE_NOW, 2],
  [Op.TURN_NOW, 2],
  [Op.WAIT_FOR_TURN, 2],
  [Op.WAIT_FOR_MOVE, 2],
  [Op.SHOW, 1],
  [Op.HIDE, 1],
  [Op.CACHE, 1],
  [Op.DONT_CACHE, 1],
  [Op.DONT_SHADOW, 1],
  [Op.SHADE, 1],
  [Op.DONT_SHADE, 1],
  [Op.EMIT_SFX, 1],
  [Op.EXPLODE, 1],
  [Op.PUSH_CONSTANT, 1],
  [Op.PUSH_LOCAL, 1],
  [Op.PUSH_STATIC, 1],
  [Op.POP_LOCAL, 1],
  [Op.POP_STATIC, 1],
  [Op.START_SCRIPT, 2],
  [Op.CALL_SCRIPT, 2],
  [Op.JUMP, 1],
  [Op.JUMP_IF_FALSE, 1],
  [Op.PLAY_SOUND, 1],
];
for (const [code, operands] of withOperands) table.get(code)!.operands = operands;

/** What an opcode word is, or undefined for a word that is no known instruction. */
export function opInfo(word: number): OpInfo | undefined {
  return table.get(word);
}

export const AXES = ['x-axis', 'y-axis', 'z-axis'] as const;

/** Linear values in BOS `[v]` and angles `<v>` scale by these factors, truncated toward zero (Scriptor's defaults). */
export const LINEAR_FACTOR = 163840;
export const ANGULAR_FACTOR = 182;

/** Unit values read by `get` and written by `set` (TA's exptype.h). */
export const UNIT_VALUES: Record<string, number> = {
  ACTIVATION: 1,
  STANDINGMOVEORDERS: 2,
  STANDINGFIREORDERS: 3,
  HEALTH: 4,
  INBUILDSTANCE: 5,
  BUSY: 6,
  PIECE_XZ: 7,
  PIECE_Y: 8,
  UNIT_XZ: 9,
  UNIT_Y: 10,
  UNIT_HEIGHT: 11,
  XZ_ATAN: 12,
  XZ_HYPOT: 13,
  ATAN: 14,
  HYPOT: 15,
  GROUND_HEIGHT: 16,
  BUILD_PERCENT_LEFT: 17,
  YARD_OPEN: 18,
  BUGGER_OFF: 19,
  ARMORED: 20,
};

/** Explosion flags of `explode PIECE type FLAGS` (TA's exptype.h). */
export const EXPLOSION_FLAGS: Record<string, number> = {
  SHATTER: 1,
  EXPLODE_ON_HIT: 2,
  FALL: 4,
  SMOKE: 8,
  FIRE: 16,
  BITMAPONLY: 32,
  BITMAP1: 256,
  BITMAP2: 512,
  BITMAP3: 1024,
  BITMAP4: 2048,
  BITMAP5: 4096,
  BITMAPNUKE: 8192,
};

/** Effect types of `emit-sfx TYPE from PIECE` (TA's sfxtype.h). */
export const SFX_TYPES: Record<string, number> = {
  SFXTYPE_VTOL: 0,
  SFXTYPE_THRUST: 1,
  SFXTYPE_WAKE1: 2,
  SFXTYPE_WAKE2: 3,
  SFXTYPE_REVERSEWAKE1: 4,
  SFXTYPE_REVERSEWAKE2: 5,
  SFXTYPE_POINTBASED: 256,
  SFXTYPE_WHITESMOKE: 257,
  SFXTYPE_BLACKSMOKE: 258,
  SFXTYPE_SUBBUBBLES: 259,
};

/**
 * Built-in copies of the two constant-only standard headers, used when neither the BOS's folder nor an
 * include folder has them (they are facts of the engine; StateChg.h, smokeunit.h and the like hold code
 * that mods change, so those must come from the modder's folders).
 */
export const BUILTIN_HEADERS: Record<string, string> = {
  'exptype.h': defines({ ...EXPLOSION_FLAGS, BITMAPMASK: 16128, ...UNIT_VALUES }),
  'sfxtype.h': defines(SFX_TYPES),
};

function defines(values: Record<string, number>): string {
  return Object.entries(values)
    .map(([name, value]) => `#define ${name} ${value}\n`)
    .join('');
}

/** The integer a `[v]` or `<v>` literal compiles to: scaled, then truncated toward zero as Scriptor does. */
export function scaleLiteral(v: number, form: 'linear' | 'angle'): number {
  return Math.trunc(v * (form === 'linear' ? LINEAR_FACTOR : ANGULAR_FACTOR)) | 0;
}

/** The shortest decimal that `scaleLiteral` turns back into `value`, or null if none within 6 decimals. */
export function literalText(value: number, form: 'linear' | 'angle'): string | null {
  const q = value / (form === 'linear' ? LINEAR_FACTOR : ANGULAR_FACTOR);
  for (let digits = 0; digits <= 6; digits++) {
    const text = q.toFixed(digits);
    if (scaleLiteral(Number(text), form) === value) return text;
  }
  return null;
}
