/**
 * HPI's LZ77 (SQSH method 1), one chunk at a time, pure over Uint8Array.
 *
 * A 4096-byte ring, zero-filled, write position starting at 1. A flag byte announces 8 tokens, LSB first:
 * 0 = a literal byte; 1 = a u16 `v` whose top 12 bits are an ABSOLUTE ring index (not a distance) and low
 * 4 bits are length - 2. Index 0 ends the stream, so the encoder never references the byte stored there.
 *
 * Output position q lives at ring index (q + 1) & 0xFFF, so the decoder works straight on the output
 * array: index `off` read at output position q is the byte `((q + 1 - off) & 0xFFF) || 4096` back, and
 * anything before the chunk's start is one of the ring's initial zeros.
 */
import { fail } from '../../../shared/errors.js';
import { MatchFinder, type MatchFinderOptions } from '../common/match-finder.js';
import { copyLiteralRun, copyMatch, LZ_WORDS_INPUT_SLACK, LZ_WORDS_OVERSHOOT } from '../common/lz-words.js';
import { LZ77_MAX_MATCH, LZ77_MIN_MATCH, tokenSpace } from './lz77-encode.js';

export { encodeLz77, encodeLz77Literals, encodeLz77View, lz77CannotShrink, LZ77_MAX_MATCH, LZ77_MIN_MATCH } from './lz77-encode.js';

const RING_MASK = 0xfff;
/** Most output per input byte: a flag byte and 8 matches (17 bytes) yield 8 × 17 = 136 bytes. */
export const LZ77_MAX_RATIO = 8;

/**
 * Output position q sits at ring index (q + 1) & 0xFFF; index 0 is the terminator, so positions with
 * q % 4096 === 4095 can never be a match source. Distances stop at 4095 (4096 would reach the slot
 * about to be overwritten, which the format allows but HPIPack never writes).
 */
export const HPI_MATCH_OPTIONS: MatchFinderOptions = {
  maxDistance: 4095,
  minLength: LZ77_MIN_MATCH,
  maxLength: LZ77_MAX_MATCH,
  allowOverlap: true,
  skipSource: { mod: 4096, rem: 4095 },
};

/**
 * Decode one LZ77 chunk that must produce exactly `size` bytes, into `into` (its first `size` bytes) when
 * given, else a new array.
 *
 * While a whole flag group's input and output are in bounds, a group runs without per-token checks and in
 * words (common/lz-words.ts). The last group of a chunk takes the checked path, byte by byte.
 */
export function decodeLz77(src: Uint8Array, size: number, into?: Uint8Array): Uint8Array {
  const out = into && into.length >= size ? into.subarray(0, size) : new Uint8Array(size);
  const n = src.length;
  const input = new DataView(src.buffer, src.byteOffset, n);
  const output = new DataView(out.buffer, out.byteOffset, size);
  const fastInput = n - LZ_WORDS_INPUT_SLACK;
  const fastOutput = size - 8 * LZ77_MAX_MATCH - LZ_WORDS_OVERSHOOT;
  let ip = 0;
  let q = 0;
  outer: while (ip < n) {
    // A sentinel bit above the 8 flags: the group ends when it is shifted out.
    let flags = src[ip++]! | 0x100;
    if (ip <= fastInput && q <= fastOutput) {
      for (;;) {
        const literals = copyLiteralRun(input, ip, output, q, flags);
        q += literals;
        ip += literals;
        flags >>>= literals + 1;
        if (flags === 0) break;
        const v = input.getUint16(ip, true);
        ip += 2;
        if (v < 16) break outer;
        // An absolute ring index becomes a distance; 0 means the slot about to be overwritten (4096 back).
        const distance = (q + 1 - (v >>> 4)) & RING_MASK || 4096;
        const s = q - distance;
        const len = (v & 0xf) + 2;
        if (s < 0) {
          // Before the chunk's start the ring holds zeros.
          const end = q + len;
          const zeros = Math.min(-s, len);
          out.fill(0, q, q + zeros);
          q += zeros;
          for (let t = 0; q < end;) out[q++] = out[t++]!;
        } else {
          copyMatch(out, output, q, s, distance, len);
          q += len;
        }
      }
      continue;
    }
    for (; flags !== 1; flags >>>= 1) {
      if (ip >= n) break outer;
      if ((flags & 1) === 0) {
        if (q >= size) fail('bad-stream', `LZ77 output overruns its ${size} bytes at input ${ip}`, { offset: ip, expected: size });
        out[q++] = src[ip++]!;
        continue;
      }
      if (ip + 2 > n) fail('bad-stream', `LZ77 match cut off at input ${ip} of ${n}`, { offset: ip, expected: ip + 2, actual: n });
      const v = src[ip]! | (src[ip + 1]! << 8);
      ip += 2;
      if (v < 16) break outer;
      const len = (v & 0xf) + 2;
      if (q + len > size)
        fail('bad-stream', `LZ77 output overruns its ${size} bytes: ${q} + ${len}`, { offset: ip, expected: size, actual: q + len });
      let s = q - ((q + 1 - (v >>> 4)) & RING_MASK || 4096);
      const end = q + len;
      if (s < 0) {
        const zeros = Math.min(-s, len);
        out.fill(0, q, q + zeros);
        q += zeros;
        s += zeros;
      }
      while (q < end) out[q++] = out[s++]!;
    }
  }
  if (q !== size) fail('size-mismatch', `LZ77 stream produced ${q} bytes, expected ${size}`, { expected: size, actual: q });
  return out;
}

/** The greedy reference encoder's token writer: flag bytes reserved 8 tokens ahead, always a terminator. */
class TokenWriter {
  readonly out: Uint8Array;
  private o = 0;
  private flagAt = 0;
  private bit = 8;

  constructor(inputLength: number) {
    this.out = tokenSpace(inputLength);
  }

  private nextFlag(): void {
    if (this.bit === 8) {
      this.flagAt = this.o++;
      this.out[this.flagAt] = 0;
      this.bit = 0;
    }
  }

  literal(byte: number): void {
    this.nextFlag();
    this.bit++;
    this.out[this.o++] = byte;
  }

  match(ringIndex: number, length: number): void {
    this.nextFlag();
    // flagAt is the flag byte nextFlag() just reserved inside `out`.
    this.out[this.flagAt] = this.out[this.flagAt]! | (1 << this.bit++);
    const v = (ringIndex << 4) | (length - 2);
    this.out[this.o++] = v & 0xff;
    this.out[this.o++] = v >>> 8;
  }

  finish(): Uint8Array {
    return this.finishView().slice();
  }

  /** The stream as a view of the thread's scratch: valid until the next encode in this thread. */
  finishView(): Uint8Array {
    this.match(0, 2); // ring index 0 = the terminator; its length bits are ignored
    return this.out.subarray(0, this.o);
  }
}

/** Ring index of output position `pos - distance`: where the decoder will find those bytes. */
const sourceIndex = (pos: number, distance: number) => (pos - distance + 1) & RING_MASK;

/** The reference the lazy encoder is measured against: take the longest match at each step. */
export function encodeLz77Greedy(data: Uint8Array): Uint8Array {
  const n = data.length;
  const finder = new MatchFinder(data, HPI_MATCH_OPTIONS);
  const w = new TokenWriter(n);
  for (let pos = 0; pos < n;) {
    const length = finder.longest(pos);
    if (length >= LZ77_MIN_MATCH) {
      w.match(sourceIndex(pos, finder.distance), length);
      pos += length;
    } else {
      w.literal(data[pos]!);
      pos++;
    }
  }
  return w.finish();
}
