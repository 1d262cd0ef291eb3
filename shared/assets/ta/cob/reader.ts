import { fail } from '../../../errors.js';
import { ByteReader } from '../../../bytes/reader.js';
import { opInfo, type OpInfo } from './opcodes.js';

/**
 * A COB unit script (TA version 4, TA:Kingdoms version 6): a header of 11 words (13 for version 6), the
 * code as 32-bit words, each script's entry word, and NUL-terminated script, piece and sound names.
 * Every offset and count is checked against the file before it is used.
 */

export interface CobScript {
  name: string;
  /** Entry point: a word index into `code`. */
  start: number;
  /** The word after its last: the next script's start in code order, or the end of the code. */
  end: number;
}

export interface CobFile {
  version: 4 | 6;
  scripts: CobScript[];
  pieces: string[];
  staticVars: number;
  /** Version 6 only; empty for version 4. */
  sounds: string[];
  code: Uint32Array;
}

export const HEADER_WORDS_V4 = 11;
export const HEADER_WORDS_V6 = 13;
/** No real script declares more; a larger count is a corrupt header, refused before anything is sized by it. */
export const MAX_STATIC_VARS = 65536;
const MAX_NAME = 1024;

export function readCob(bytes: Uint8Array, what = 'COB'): CobFile {
  const r = new ByteReader(bytes, what);
  const version = r.u32(0, 'version');
  if (version !== 4 && version !== 6) {
    fail('bad-magic', `${what}: version ${version} is not a COB version (4 for TA, 6 for TA:Kingdoms)`, {
      expected: '4 or 6',
      actual: version,
    });
  }
  const headerWords = version === 6 ? HEADER_WORDS_V6 : HEADER_WORDS_V4;
  r.check('header', 0, headerWords * 4);
  const word = (i: number, field: string) => r.u32(i * 4, field);
  const scriptCount = word(1, 'script count');
  const pieceCount = word(2, 'piece count');
  const codeLength = word(3, 'code length');
  const staticVars = word(4, 'static variable count');
  const entryOffset = word(6, 'script entry table offset');
  const scriptNameOffset = word(7, 'script name table offset');
  const pieceNameOffset = word(8, 'piece name table offset');
  const codeOffset = word(9, 'code offset');
  if (staticVars > MAX_STATIC_VARS)
    fail('bad-count', `${what}: ${staticVars} static variables is more than ${MAX_STATIC_VARS}`, { actual: staticVars });

  r.checkTable('code', codeOffset, codeLength, 4);
  r.checkTable('script entry table', entryOffset, scriptCount, 4);
  r.checkTable('script name table', scriptNameOffset, scriptCount, 4);
  r.checkTable('piece name table', pieceNameOffset, pieceCount, 4);
  const code = new Uint32Array(codeLength);
  for (let i = 0; i < codeLength; i++) code[i] = r.u32(codeOffset + i * 4, 'code');

  const names = (table: number, count: number, kind: string): string[] => {
    const out: string[] = [];
    for (let i = 0; i < count; i++) out.push(r.cString(r.u32(table + i * 4, `${kind} name offset`), MAX_NAME, `${kind} ${i} name`));
    return out;
  };
  const scriptNames = names(scriptNameOffset, scriptCount, 'script');
  const pieces = names(pieceNameOffset, pieceCount, 'piece');
  let sounds: string[] = [];
  if (version === 6) {
    const soundOffset = word(11, 'sound name table offset');
    const soundCount = word(12, 'sound count');
    r.checkTable('sound name table', soundOffset, soundCount, 4);
    sounds = names(soundOffset, soundCount, 'sound');
  }

  const starts: number[] = [];
  for (let i = 0; i < scriptCount; i++) {
    const start = r.u32(entryOffset + i * 4, 'script entry');
    if (start >= codeLength) {
      fail('out-of-bounds', `${what}: script ${i} (${scriptNames[i]}) starts at word ${start}, past the ${codeLength} words of code`, {
        actual: start,
        expected: codeLength,
      });
    }
    starts.push(start);
  }
  // A script runs to the next entry point in code order.
  const sorted = [...new Set(starts)].sort((a, b) => a - b);
  const endOf = new Map<number, number>();
  sorted.forEach((s, i) => endOf.set(s, sorted[i + 1] ?? codeLength));
  const scripts = starts.map((start, i) => ({ name: scriptNames[i]!, start, end: endOf.get(start)! }));
  return { version, scripts, pieces, staticVars, sounds, code };
}

export interface Instruction {
  /** Word index of the opcode. */
  at: number;
  op: number;
  info: OpInfo;
  args: number[];
}

/** The instructions of code words [start, end); fails on an unknown opcode or an operand past the end. */
export function decodeInstructions(code: Uint32Array, start: number, end: number, what = 'script'): Instruction[] {
  const out: Instruction[] = [];
  let pc = start;
  while (pc < end) {
    const op = code[pc]!;
    const info = opInfo(op);
    if (!info) fail('unsupported', `${what}: unknown opcode 0x${op.toString(16).padStart(8, '0')} at word ${pc}`, { offset: pc });
    if (pc + 1 + info.operands > end)
      fail('truncated', `${what}: ${info.name} at word ${pc} needs ${info.operands} operand words, past the script's end at word ${end}`, {
        offset: pc,
      });
    const args: number[] = [];
    for (let i = 1; i <= info.operands; i++) args.push(code[pc + i]! | 0);
    out.push({ at: pc, op, info, args });
    pc += 1 + info.operands;
  }
  return out;
}
