import { MatchFinder } from '../common/match-finder.js';
import { LZ77X_FLAG_MASK, LZ77X_PAD, LZ_MAX_DISTANCE, LZ_MAX_MATCH, LZ_MIN_MATCH, type PangyaLzType } from './lz77.js';

/**
 * Pangya LZ77 encoder (types 1 and 3), greedy over the shared match finder. No match is longer than its
 * distance: public decoders copy a match in bulk (memcpy), which only agrees with the game's byte-by-byte
 * copy when source and destination do not overlap.
 */
export function lz77Encode(input: Uint8Array, type: PangyaLzType): Uint8Array {
  const n = input.length;
  // Worst case: every byte a literal, plus one flag byte per eight tokens.
  let out = new Uint8Array(n + Math.ceil(n / 8) + 1);
  const finder = new MatchFinder(input, {
    maxDistance: LZ_MAX_DISTANCE,
    minLength: LZ_MIN_MATCH,
    maxLength: LZ_MAX_MATCH,
    allowOverlap: false,
    maxChain: 32,
  });
  const obfuscated = type === 3;
  // Where the match words of the current group sit: type 3 pads them once the group's flag byte is known.
  const matchWords = new Int32Array(8);
  let matchCount = 0;
  let op = 0;
  let flagAt = 0;
  let flags = 0;
  let bit = 8;
  let ip = 0;

  const closeGroup = () => {
    if (!obfuscated) {
      out[flagAt] = flags;
      return;
    }
    const raw = flags ^ LZ77X_FLAG_MASK;
    out[flagAt] = raw;
    const pad = LZ77X_PAD[(raw >> 3) & 7]!;
    for (let m = 0; m < matchCount; m++) {
      const at = matchWords[m]!;
      out[at] = out[at]! ^ (pad & 0xff);
      out[at + 1] = out[at + 1]! ^ (pad >> 8);
    }
    matchCount = 0;
  };

  while (ip < n) {
    if (bit === 8) {
      if (ip > 0) closeGroup();
      flagAt = op++;
      flags = 0;
      bit = 0;
    }
    const match = finder.find(ip);
    if (match.length >= LZ_MIN_MATCH) {
      const v = ((match.length - LZ_MIN_MATCH) << 12) | match.distance;
      flags |= 1 << bit;
      if (obfuscated) matchWords[matchCount++] = op;
      out[op++] = v & 0xff;
      out[op++] = v >> 8;
      ip += match.length;
    } else {
      out[op++] = input[ip++]!;
    }
    bit++;
  }
  if (n > 0) closeGroup();
  // The bound above is exact for all-literal input, so `out` never needs to grow; trim to what was written.
  if (op < out.length) out = out.slice(0, op);
  return out;
}
