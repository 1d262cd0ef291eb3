import { fail } from '../../../shared/errors.js';
import { decodeInWindow, type WindowCursor } from '../common/windowed-decode.js';
import { copyLiteralRun, copyMatch, LZ_WORDS_INPUT_SLACK, LZ_WORDS_OVERSHOOT } from '../common/lz-words.js';

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
 * room for `stop` plus one group (GROUP_MAX), or is exactly `size` long.
 *
 * While a whole group's input and output are in bounds, the group runs in words (common/lz-words.ts),
 * checking only each match's distance; near either end, groups take the checked byte loop.
 */
function lzDecodeInto(input: Uint8Array, out: Uint8Array, c: WindowCursor, stop: number, size: number, type: PangyaLzType): void {
  const inEnd = input.length;
  const obfuscated = type === 3;
  const base = c.before;
  // Output positions in `out` this entry may still fill, and those a whole group may go to unchecked.
  const room = size - base;
  const fastEnd = Math.min(room, out.length) - GROUP_MAX - LZ_WORDS_OVERSHOOT;
  const fastInput = inEnd - LZ_WORDS_INPUT_SLACK;
  const inView = new DataView(input.buffer, input.byteOffset, inEnd);
  const outView = new DataView(out.buffer, out.byteOffset, out.length);
  let ip = c.ip;
  let op = c.op;
  while (ip < inEnd && op < stop) {
    const raw = input[ip++]!;
    // Type 3: flip the flag bits and pick the pad once per group; type 1 uses the byte and a zero pad.
    const flags = obfuscated ? raw ^ LZ77X_FLAG_MASK : raw;
    const pad = obfuscated ? LZ77X_PAD[(raw >> 3) & 7]! : 0;
    if (ip <= fastInput && op <= fastEnd) {
      // A sentinel bit above the 8 flags: the group ends when it is shifted out.
      let f = flags | 0x100;
      for (;;) {
        const literals = copyLiteralRun(inView, ip, outView, op, f);
        op += literals;
        ip += literals;
        f >>>= literals + 1;
        if (f === 0) break;
        const v = inView.getUint16(ip, true) ^ pad;
        ip += 2;
        const distance = v & 0x0fff;
        if (distance === 0 || distance > base + op)
          streamError(`match at output ${base + op} reaches back ${distance} bytes, before the start`, ip - 2);
        const length = (v >>> 12) + LZ_MIN_MATCH;
        copyMatch(out, outView, op, op - distance, distance, length);
        op += length;
      }
      continue;
    }
    for (let bit = 0; bit < 8 && ip < inEnd; bit++) {
      if ((flags & (1 << bit)) === 0) {
        if (op >= room) streamError(`more data than the declared ${size} bytes`, ip);
        out[op++] = input[ip++]!;
        continue;
      }
      if (ip + 2 > inEnd) streamError(`match cut short at the end of the stream (${inEnd} bytes)`, ip);
      const v = (input[ip]! | (input[ip + 1]! << 8)) ^ pad;
      ip += 2;
      const distance = v & 0x0fff;
      const length = (v >> 12) + LZ_MIN_MATCH;
      if (distance === 0 || distance > base + op)
        streamError(`match at output ${base + op} reaches back ${distance} bytes, before the start`, ip - 2);
      if (op + length > room) streamError(`match at output ${base + op} of ${length} bytes runs past the declared ${size} bytes`, ip - 2);
      // Byte by byte on purpose: an overlapping match must see the bytes it has just written.
      for (let from = op - distance, end = op + length; op < end;) out[op++] = out[from++]!;
    }
  }
  c.ip = ip;
  c.op = op;
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
