import { fail } from '../../../shared/errors.js';
import { decodeInWindow, type WindowCursor } from '../common/windowed-decode.js';
import {
  PANGYA_LITERAL_OVERRUN,
  PANGYA_MATCH_BEFORE_START,
  PANGYA_MATCH_CUT_OFF,
  pangyaLz77Step,
  type PangyaWindow,
} from '../common/wasm/lz-window.js';

/**
 * Pangya's LZ77, types 1 and 3. A stream is groups of one flag byte and up to eight tokens; flag bits are
 * read LSB first, 1 = match. A literal is one byte; a match is a little-endian u16 `v`: distance back
 * `v & 0x0FFF` (1..4095), length `(v >> 12) + 2` (2..17). There is no end marker: the stream ends with
 * its bytes.
 *
 * Type 3 obfuscates each group: the effective flags are `raw ^ 0xC8`, and every match word of the group
 * is XORed with LZ77X_PAD[(raw >> 3) & 7], indexed by the raw (stored) flag byte.
 *
 * Pure functions over Uint8Array; errors go through `streamError`.
 */

export type PangyaLzType = 1 | 3;

export const LZ_MIN_MATCH = 2;
export const LZ_MAX_MATCH = 17;
export const LZ_MAX_DISTANCE = 4095;
/** Type 3's flag mask and its match-word pads, indexed by (raw flag >> 3) & 7. */
export const LZ77X_FLAG_MASK = 0xc8;
export const LZ77X_PAD = Uint16Array.of(0xff21, 0x834f, 0x675f, 0x0034, 0xf237, 0x815f, 0x4765, 0x0233);
/**
 * The most a stream can expand: a group of 17 bytes (flag + eight 2-byte matches) yields 8 × 17 = 136
 * bytes, so a declared size above 8 × the packed size cannot be honest.
 */
export const LZ_MAX_RATIO = 8;

function streamError(message: string, at: number): never {
  fail('bad-stream', `LZ77 stream: ${message}`, { offset: at });
}

/** The most one flag group writes (eight longest matches). */
const GROUP_MAX = 8 * LZ_MAX_MATCH;
/** What a piecewise decode keeps of the output before its piece: the furthest a match reaches. */
const HISTORY = LZ_MAX_DISTANCE + 1;
/** What the shared 4 KB-window decoder is told of this format. */
const PANGYA_WINDOW: PangyaWindow = { groupMax: GROUP_MAX, reach: LZ_MAX_DISTANCE };

function checkSize(input: Uint8Array, size: number): void {
  if (!Number.isSafeInteger(size) || size < 0) throw new Error(`invalid output size ${size}`);
  if (size > input.length * LZ_MAX_RATIO) {
    fail('size-mismatch', `LZ77 stream: ${size} bytes cannot come from ${input.length} packed bytes (at most ${LZ_MAX_RATIO}×)`, {
      expected: input.length * LZ_MAX_RATIO,
      actual: size,
    });
  }
}

/**
 * Decode whole flag groups of `input` into `out` from `c.op` until the output reaches `stop` or the input
 * ends. `size` is the entry's whole declared size (positions are checked as `c.before + op`); `out` has
 * room for `stop` plus one group (GROUP_MAX), or is exactly `size` long. The decoder is WebAssembly
 * (common/wasm/lz-window.wat).
 */
function lzDecodeInto(input: Uint8Array, out: Uint8Array, c: WindowCursor, stop: number, size: number, type: PangyaLzType): void {
  const base = c.before;
  const step = pangyaLz77Step(input, c.ip, out, c.op, stop, size - base, type === 3, PANGYA_WINDOW);
  if (step.failure === null) {
    c.ip = step.ip;
    c.op = step.op;
    return;
  }
  const { code, at, outAt, value } = step.failure;
  const ip = step.ipFrom + at;
  const position = base + step.opFrom + outAt;
  if (code === PANGYA_LITERAL_OVERRUN) streamError(`more data than the declared ${size} bytes`, ip);
  if (code === PANGYA_MATCH_CUT_OFF) streamError(`match cut short at the end of the stream (${input.length} bytes)`, ip);
  if (code === PANGYA_MATCH_BEFORE_START) streamError(`match at output ${position} reaches back ${value} bytes, before the start`, ip);
  streamError(`match at output ${position} of ${value} bytes runs past the declared ${size} bytes`, ip);
}

function checkEnd(produced: number, size: number): void {
  if (produced !== size) {
    fail('size-mismatch', `LZ77 stream decodes to ${produced} bytes, the entry declares ${size}`, { expected: size, actual: produced });
  }
}

/**
 * Decode `input` (type 1 or 3) into exactly `size` bytes. Matches are copied byte by byte, as the game
 * does, so an overlapping match (length > distance) repeats its bytes. Throws FormatError('bad-stream')
 * on a reference before the start, a truncated match, or output that does not come to `size`.
 */
export function lz77Decode(input: Uint8Array, size: number, type: PangyaLzType): Uint8Array {
  checkSize(input, size);
  const out = new Uint8Array(size);
  const c: WindowCursor = { ip: 0, op: 0, before: 0 };
  lzDecodeInto(input, out, c, Infinity, size, type);
  checkEnd(c.op, size);
  return out;
}

/** Output bytes per piece of `lz77DecodePieces`. */
export const LZ_PIECE = 256 << 10;
/** The buffer `lz77DecodePieces` decodes in: kept history, one piece, one group's overshoot. */
export const LZ_WINDOW = HISTORY + LZ_PIECE + GROUP_MAX;

/**
 * The same bytes as `lz77Decode`, a piece of up to LZ_PIECE (plus one group) at a time, decoded in
 * `lent` (at least LZ_WINDOW bytes): memory stays at the window whatever the entry declares. Each piece
 * is then a view of it, valid until the next is asked for (without `lent`, a copy). The same errors, raised when reached.
 */
export function* lz77DecodePieces(input: Uint8Array, size: number, type: PangyaLzType, lent?: Uint8Array): Generator<Uint8Array> {
  checkSize(input, size);
  const c: WindowCursor = { ip: 0, op: 0, before: 0 };
  yield* decodeInWindow({ size: LZ_WINDOW, piece: LZ_PIECE, history: HISTORY, lent }, c, (window, stop) => {
    lzDecodeInto(input, window, c, stop, size, type);
    return c.ip < input.length;
  });
  checkEnd(c.before + c.op, size);
}
