/**
 * The word copies of the 4 KB-window LZ77 decoders (HPI's SQSH method 1, Pangya's types 1 and 3), for
 * a flag group known to be in bounds. Both formats cap a match at 17 bytes and announce tokens 8 to a
 * flag byte, LSB first; they differ only in how a match word names its source.
 *
 * The copies write past the token's end (a literal run up to 8 bytes, a match up to 20): the tokens after
 * it overwrite those bytes, so a caller keeps LZ_WORDS_OVERSHOOT bytes of room past a group, and reads
 * up to LZ_WORDS_INPUT_SLACK bytes past a group's flag byte.
 */

/** Bytes past a whole group's end (8 tokens × 17) the copies may write. */
export const LZ_WORDS_OVERSHOOT = 8;
/** Bytes past a group's flag byte the copies may read: 16 token bytes, 8 past the last literal. */
export const LZ_WORDS_INPUT_SLACK = 24;

/**
 * The literals from the flags' lowest bits up to the next match (or the sentinel bit above the 8 flags),
 * copied as 8 bytes from `ip` to `op`: returns how many were literals.
 */
export function copyLiteralRun(input: DataView, ip: number, output: DataView, op: number, flags: number): number {
  output.setUint32(op, input.getUint32(ip, true), true);
  output.setUint32(op + 4, input.getUint32(ip + 4, true), true);
  return 31 - Math.clz32(flags & -flags);
}

/**
 * A match of `length` (2..17) bytes from `distance` (≥ 1) back, `from = op - distance` within `out`.
 * Four or more back, five 4-byte copies: each word's source lies wholly before it, so an overlap repeats
 * as a byte loop does. One back, a byte repeated: one word filled five times. Two or three back, byte by
 * byte, in order.
 */
export function copyMatch(out: Uint8Array, output: DataView, op: number, from: number, distance: number, length: number): void {
  if (distance >= 4) {
    output.setUint32(op, output.getUint32(from, true), true);
    output.setUint32(op + 4, output.getUint32(from + 4, true), true);
    output.setUint32(op + 8, output.getUint32(from + 8, true), true);
    output.setUint32(op + 12, output.getUint32(from + 12, true), true);
    output.setUint32(op + 16, output.getUint32(from + 16, true), true);
  } else if (distance === 1) {
    const w = Math.imul(out[from]!, 0x01010101);
    output.setUint32(op, w, true);
    output.setUint32(op + 4, w, true);
    output.setUint32(op + 8, w, true);
    output.setUint32(op + 12, w, true);
    output.setUint32(op + 16, w, true);
  } else {
    for (let t = from, q = op, end = op + length; q < end;) out[q++] = out[t++]!;
  }
}
