import { lz77CannotShrink } from '../common/lz77-shrink-probe.js';
import { MatchFinder, type MatchFinderOptions } from '../common/match-finder.js';
import { LZ77X_FLAG_MASK, LZ77X_PAD, LZ_MAX_DISTANCE, LZ_MAX_MATCH, LZ_MIN_MATCH, type PangyaLzType } from './lz77.js';

/**
 * Pangya LZ77 encoder (types 1 and 3), greedy over the shared match finder. No match is longer than its
 * distance: public decoders copy a match in bulk (memcpy), which only agrees with the game's byte-by-byte
 * copy when source and destination do not overlap.
 */
const FINDER_OPTIONS: MatchFinderOptions = {
  maxDistance: LZ_MAX_DISTANCE,
  minLength: LZ_MIN_MATCH,
  maxLength: LZ_MAX_MATCH,
  allowOverlap: false,
  maxChain: 32,
};
/** This thread's finder, its tables reused from file to file; made by the first encode. */
let threadFinder: MatchFinder | null = null;

/** The most `lz77Encode` writes for `n` bytes: every byte a literal, plus one flag byte per eight tokens. */
export function lz77EncodeBound(n: number): number {
  return n + Math.ceil(n / 8) + 1;
}

/**
 * The stream a writer stores for `input`, or null when it would not be smaller than `input` (the writer
 * then stores the bytes as they are): noise and data already compressed are told by a quick probe and cost
 * no search. Written into `into` when it holds lz77EncodeBound(input.length) bytes (a view of it), else into
 * a new array.
 */
export function lz77EncodeIfSmaller(input: Uint8Array, type: PangyaLzType, into?: Uint8Array): Uint8Array | null {
  if (input.length === 0 || lz77CannotShrink(input)) return null;
  const packed = lz77EncodeInto(input, type, into && into.length >= lz77EncodeBound(input.length) ? into : undefined);
  return packed.length < input.length ? packed : null;
}

export function lz77Encode(input: Uint8Array, type: PangyaLzType): Uint8Array {
  return lz77EncodeInto(input, type).slice();
}

function lz77EncodeInto(input: Uint8Array, type: PangyaLzType, into?: Uint8Array): Uint8Array {
  const n = input.length;
  const out = into ?? new Uint8Array(lz77EncodeBound(n));
  const finder = (threadFinder ??= new MatchFinder(new Uint8Array(0), FINDER_OPTIONS));
  finder.reset(input);
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
    const length = finder.longest(ip);
    if (length >= LZ_MIN_MATCH) {
      const v = ((length - LZ_MIN_MATCH) << 12) | finder.distance;
      flags |= 1 << bit;
      if (obfuscated) matchWords[matchCount++] = op;
      out[op++] = v & 0xff;
      out[op++] = v >> 8;
      ip += length;
    } else {
      out[op++] = input[ip++]!;
    }
    bit++;
  }
  if (n > 0) closeGroup();
  // The bound is exact for all-literal input, so `out` never needs to grow.
  return out.subarray(0, op);
}
