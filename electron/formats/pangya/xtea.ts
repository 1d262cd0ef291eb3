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

/** Decipher one pair of words; returns [v0, v1]. */
export function xteaDecipherWords(v0: number, v1: number, key: XteaKey): [number, number] {
  let sum = SUM_END;
  for (let i = 0; i < XTEA_CYCLES; i++) {
    v1 = (v1 - ((((v0 << 4) ^ (v0 >>> 5)) + v0) ^ (sum + key[(sum >>> 11) & 3]!))) >>> 0;
    sum = (sum - DELTA) >>> 0;
    v0 = (v0 - ((((v1 << 4) ^ (v1 >>> 5)) + v1) ^ (sum + key[sum & 3]!))) >>> 0;
  }
  return [v0, v1];
}

function checkBlocks(data: Uint8Array): void {
  if (data.length % 8 !== 0) throw new Error(`XTEA works on 8-byte blocks, got ${data.length} bytes`);
}

/** Encipher `data` (a multiple of 8 bytes) block by block, in place. */
export function xteaEncipher(data: Uint8Array, key: XteaKey): Uint8Array {
  checkBlocks(data);
  for (let at = 0; at < data.length; at += 8) {
    const [v0, v1] = xteaEncipherWords(readWord(data, at), readWord(data, at + 4), key);
    writeWord(data, at, v0);
    writeWord(data, at + 4, v1);
  }
  return data;
}

/** Decipher `data` (a multiple of 8 bytes) block by block, in place. */
export function xteaDecipher(data: Uint8Array, key: XteaKey): Uint8Array {
  checkBlocks(data);
  for (let at = 0; at < data.length; at += 8) {
    const [v0, v1] = xteaDecipherWords(readWord(data, at), readWord(data, at + 4), key);
    writeWord(data, at, v0);
    writeWord(data, at + 4, v1);
  }
  return data;
}
