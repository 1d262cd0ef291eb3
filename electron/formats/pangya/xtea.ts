/**
 * XTEA as Pangya uses it for table metadata: 16 cycles (not the usual 32), delta 0x9E3779B9, each 8-byte
 * block read as two little-endian u32 words. Pure functions over Uint8Array, in place.
 */

const DELTA = 0x9e3779b9;
export const XTEA_CYCLES = 16;
/** The running sum after all cycles, where deciphering starts. */
const SUM_END = Math.imul(DELTA, XTEA_CYCLES) >>> 0;

/** A 128-bit key as four u32 words (k0..k3). */
export type XteaKey = Readonly<Uint32Array>;

export function xteaKey(k0: number, k1: number, k2: number, k3: number): XteaKey {
  return Uint32Array.of(k0, k1, k2, k3);
}

const readWord = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

function writeWord(b: Uint8Array, at: number, v: number): void {
  b[at] = v & 0xff;
  b[at + 1] = (v >>> 8) & 0xff;
  b[at + 2] = (v >>> 16) & 0xff;
  b[at + 3] = v >>> 24;
}

/** Encipher one pair of words; returns [v0, v1]. */
export function xteaEncipherWords(v0: number, v1: number, key: XteaKey): [number, number] {
  let sum = 0;
  for (let i = 0; i < XTEA_CYCLES; i++) {
    // `>>> 0` after each step keeps the words unsigned 32-bit; `+` may exceed 2^32, `>>> 0` wraps it.
    v0 = (v0 + ((((v1 << 4) ^ (v1 >>> 5)) + v1) ^ (sum + key[sum & 3]!))) >>> 0;
    sum = (sum + DELTA) >>> 0;
    v1 = (v1 + ((((v0 << 4) ^ (v0 >>> 5)) + v0) ^ (sum + key[(sum >>> 11) & 3]!))) >>> 0;
  }
  return [v0, v1];
}

/**
 * What deciphering adds in each half-cycle, `sum + key[...]`, worked out once per key: the running sum
 * takes the same values for every block, so a block costs its shifts and adds only. Stored as int32,
 * which is what the XOR it feeds reads it as.
 */
export type XteaSchedule = Readonly<Int32Array>;

const schedules = new WeakMap<XteaKey, XteaSchedule>();

export function xteaDecipherSchedule(key: XteaKey): XteaSchedule {
  let schedule = schedules.get(key);
  if (!schedule) {
    const halves = new Int32Array(2 * XTEA_CYCLES);
    let sum = SUM_END;
    for (let i = 0; i < XTEA_CYCLES; i++) {
      halves[2 * i] = sum + key[(sum >>> 11) & 3]!;
      sum = (sum - DELTA) >>> 0;
      halves[2 * i + 1] = sum + key[sum & 3]!;
    }
    schedule = halves;
    schedules.set(key, schedule);
  }
  return schedule;
}

/** Decipher one pair of words; returns [v0, v1]. */
export function xteaDecipherWords(v0: number, v1: number, key: XteaKey): [number, number] {
  const out = new Uint32Array(2);
  xteaDecipherPair(v0, v1, xteaDecipherSchedule(key), out);
  return [out[0]!, out[1]!];
}

/** Decipher one pair of words into out[0] and out[1]: no array per block, for tables of thousands. */
export function xteaDecipherPair(v0: number, v1: number, schedule: XteaSchedule, out: Uint32Array): void {
  // In int32 throughout (`| 0` wraps like `>>> 0`, and keeps the words small integers for the JIT).
  v0 |= 0;
  v1 |= 0;
  for (let h = 0; h < 2 * XTEA_CYCLES; h += 2) {
    v1 = (v1 - ((((v0 << 4) ^ (v0 >>> 5)) + v0) ^ schedule[h]!)) | 0;
    v0 = (v0 - ((((v1 << 4) ^ (v1 >>> 5)) + v1) ^ schedule[h + 1]!)) | 0;
  }
  out[0] = v0;
  out[1] = v1;
}

function checkBlocks(length: number): void {
  if (length % 8 !== 0) throw new Error(`XTEA works on 8-byte blocks, got ${length} bytes`);
}

/** Encipher `data` (a multiple of 8 bytes) block by block, in place. */
export function xteaEncipher(data: Uint8Array, key: XteaKey): Uint8Array {
  checkBlocks(data.length);
  for (let at = 0; at < data.length; at += 8) {
    const [v0, v1] = xteaEncipherWords(readWord(data, at), readWord(data, at + 4), key);
    writeWord(data, at, v0);
    writeWord(data, at + 4, v1);
  }
  return data;
}

/** Decipher `data` (a multiple of 8 bytes) block by block, in place. */
export function xteaDecipher(data: Uint8Array, key: XteaKey): Uint8Array {
  xteaDecipherTo(data, 0, data.length, data, 0, xteaDecipherSchedule(key));
  return data;
}

/** Decipher bytes[from, from + length) (whole blocks) into `out` from `at` (`out` may be `bytes`, with `at` = `from`). */
export function xteaDecipherTo(bytes: Uint8Array, from: number, length: number, out: Uint8Array, at: number, schedule: XteaSchedule): void {
  checkBlocks(length);
  // readWord, xteaDecipherPair and writeWord inline: a table's names are most of what is deciphered, and
  // opening an archive runs this before the JIT has optimised it, where every call costs.
  for (let i = 0; i < length; i += 8) {
    const src = from + i;
    let v0 = bytes[src]! | (bytes[src + 1]! << 8) | (bytes[src + 2]! << 16) | (bytes[src + 3]! << 24);
    let v1 = bytes[src + 4]! | (bytes[src + 5]! << 8) | (bytes[src + 6]! << 16) | (bytes[src + 7]! << 24);
    for (let h = 0; h < 2 * XTEA_CYCLES; h += 2) {
      v1 = (v1 - ((((v0 << 4) ^ (v0 >>> 5)) + v0) ^ schedule[h]!)) | 0;
      v0 = (v0 - ((((v1 << 4) ^ (v1 >>> 5)) + v1) ^ schedule[h + 1]!)) | 0;
    }
    const o = at + i;
    out[o] = v0;
    out[o + 1] = v0 >>> 8;
    out[o + 2] = v0 >>> 16;
    out[o + 3] = v0 >>> 24;
    out[o + 4] = v1;
    out[o + 5] = v1 >>> 8;
    out[o + 6] = v1 >>> 16;
    out[o + 7] = v1 >>> 24;
  }
}
