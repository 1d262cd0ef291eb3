/** The two checksums HPI stores: the SQSH chunk sum (v1 and v2) and TA: Kingdoms' entry checksum (v2). */

/** u32 sum of the bytes, as SQSH chunks store it (over the payload as stored: scrambled, not enciphered). */
export function byteSum(bytes: Uint8Array): number {
  let sum = 0;
  // Summing into a double is exact up to 2^53, far beyond any chunk; one >>> 0 at the end wraps to u32.
  for (let i = 0; i < bytes.length; i++) sum += bytes[i]!;
  return sum >>> 0;
}

/**
 * TA: Kingdoms' entry checksum over the uncompressed bytes, i = index in the file:
 * `c0 += b; c1 ^= b; c2 += b ^ (i & 0xFF); c3 ^= (b + (i & 0xFF)) & 0xFF`, each byte-wide, stored as
 * `c0 | c1 << 8 | c2 << 16 | c3 << 24`.
 */
export function entryChecksum(bytes: Uint8Array): number {
  let c0 = 0;
  let c1 = 0;
  let c2 = 0;
  let c3 = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const k = i & 0xff;
    c0 += b;
    c1 ^= b;
    c2 += b ^ k;
    c3 ^= (b + k) & 0xff;
  }
  return ((c0 & 0xff) | ((c1 & 0xff) << 8) | ((c2 & 0xff) << 16) | ((c3 & 0xff) << 24)) >>> 0;
}

/** entryChecksum over bytes that arrive in pieces (the same value as over their concatenation). */
export class EntryChecksum {
  private c0 = 0;
  private c1 = 0;
  private c2 = 0;
  private c3 = 0;
  private index = 0;

  update(bytes: Uint8Array): void {
    let { c0, c1, c2, c3, index } = this;
    for (let i = 0; i < bytes.length; i++, index++) {
      const b = bytes[i]!;
      const k = index & 0xff;
      c0 += b;
      c1 ^= b;
      c2 += b ^ k;
      c3 ^= (b + k) & 0xff;
    }
    // Sums are kept to their low byte, which is all the checksum keeps, so they never grow large.
    this.c0 = c0 & 0xff;
    this.c1 = c1;
    this.c2 = c2 & 0xff;
    this.c3 = c3;
    this.index = index;
  }

  digest(): number {
    return ((this.c0 & 0xff) | ((this.c1 & 0xff) << 8) | ((this.c2 & 0xff) << 16) | ((this.c3 & 0xff) << 24)) >>> 0;
  }
}
