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
import { HPI_LITERAL_OVERRUN, HPI_MATCH_CUT_OFF, HPI_MATCH_OVERRUN, hpiLz77Into, type HpiLz77Decoded } from '../common/wasm/lz-window.js';
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
 * given, else a new array. The decoder is WebAssembly (common/wasm/lz-window.wat): twice the speed of the
 * same word-wise loop in JavaScript on the bench corpus's chunks.
 */
export function decodeLz77(src: Uint8Array, size: number, into?: Uint8Array): Uint8Array {
  return decodeLz77Written(src.length, size, (input) => input.set(src), into).out;
}

/**
 * `decodeLz77` of an `n`-byte stream that `writeInput` puts into the decoder's memory itself (a chunk is
 * deciphered straight into it); also returns what `writeInput` returned.
 */
export function decodeLz77Written<T>(
  n: number,
  size: number,
  writeInput: (input: Uint8Array) => T,
  into?: Uint8Array,
): { out: Uint8Array; input: T } {
  const out = into && into.length >= size ? into.subarray(0, size) : new Uint8Array(size);
  const decoded = hpiLz77Into(n, size, out, writeInput);
  checkLz77(decoded, n, size);
  return { out, input: decoded.input };
}

/** A decoded stream's outcome as the format's errors: a failure, or an end short of `size`. */
function checkLz77(decoded: HpiLz77Decoded<unknown>, n: number, size: number): void {
  const { failure: f, produced } = decoded;
  if (f?.code === HPI_LITERAL_OVERRUN)
    fail('bad-stream', `LZ77 output overruns its ${size} bytes at input ${f.at}`, { offset: f.at, expected: size });
  if (f?.code === HPI_MATCH_CUT_OFF)
    fail('bad-stream', `LZ77 match cut off at input ${f.at} of ${n}`, { offset: f.at, expected: f.at + 2, actual: n });
  if (f?.code === HPI_MATCH_OVERRUN)
    fail('bad-stream', `LZ77 output overruns its ${size} bytes: ${f.outAt} + ${f.value}`, {
      offset: f.at,
      expected: size,
      actual: f.outAt + f.value,
    });
  if (produced !== size)
    fail('size-mismatch', `LZ77 stream produced ${produced} bytes, expected ${size}`, { expected: size, actual: produced });
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

/** The greedy reference's finder, its tables reused from input to input; made by its first encode. */
let greedyFinder: MatchFinder | null = null;

/** The reference the lazy encoder is measured against: take the longest match at each step. */
export function encodeLz77Greedy(data: Uint8Array): Uint8Array {
  const n = data.length;
  const finder = (greedyFinder ??= new MatchFinder(new Uint8Array(0), HPI_MATCH_OPTIONS));
  finder.reset(data);
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
