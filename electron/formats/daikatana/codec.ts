import { fail } from '../../../shared/errors.js';
import { decodeInWindow, type WindowCursor } from '../common/windowed-decode.js';
import * as opcodes from './opcodes.js';

// Local constants for the decode loop (see encode.ts).
const { DISTANCE_MAX, DISTANCE_MIN, END, NOOP, RUN_MAX } = opcodes;

/**
 * Daikatana's PAK decompression (the opcodes are in opcodes.ts, the encoder in encode.ts). Pure functions
 * over Uint8Array; every problem is a FormatError('bad-stream' or 'size-mismatch').
 */

function streamError(message: string, at: number): never {
  fail('bad-stream', `Daikatana stream: ${message}`, { offset: at });
}

/** Output must fit the declared length; when it is already full, the stream lacks its end marker. */
function overrun(op: number, n: number, length: number, x: number, at: number): never {
  if (op === length) streamError(`no 0xFF end marker after the declared ${length} bytes (opcode 0x${x.toString(16)} at ${at})`, at);
  streamError(`opcode 0x${x.toString(16)} at ${at} writes ${n} bytes at ${op}, past the declared length ${length}`, at);
}

/**
 * The most one stream byte can yield (a zero run, 0x40–0x7F): a declared length above 65 × the stream's
 * bytes cannot be honest, and is refused before anything is allocated for it.
 */
const MAX_RATIO = RUN_MAX;
/** The furthest a back-reference reaches: what a piecewise decode keeps of the output before its piece. */
const HISTORY = DISTANCE_MAX + 1;

/** Where a decode stands: in the stream, in its output buffer, and how much output came before that buffer's start. */
interface DkCursor extends WindowCursor {
  ended: boolean;
}

function checkRatio(src: Uint8Array, length: number): void {
  if (!Number.isSafeInteger(length) || length < 0) throw new Error(`invalid output size ${length}`);
  if (length > src.length * MAX_RATIO)
    fail('size-mismatch', `Daikatana stream: ${length} bytes cannot come from ${src.length} stored bytes (at most ${MAX_RATIO}×)`, {
      expected: src.length * MAX_RATIO,
      actual: length,
    });
}

/**
 * Decode whole opcodes of `src` into `out` from `c.op` until the output reaches `stop` or the stream ends.
 * `length` is the entry's whole declared length (output positions are checked as `c.before + op`), and
 * `out` has room for `stop` plus one opcode's output (RUN_MAX), or is exactly `length` long.
 */
function dkDecodeInto(src: Uint8Array, out: Uint8Array, c: DkCursor, stop: number, length: number): void {
  const end = src.length;
  const base = c.before;
  let ip = c.ip;
  let op = c.op;
  while (op < stop) {
    if (ip >= end) streamError(`the data ends without the 0xFF end marker after ${base + op} of ${length} bytes`, ip);
    const at = ip;
    const x = src[ip++]!;
    if (x < 0x40) {
      const n = x + 1;
      if (base + op + n > length) overrun(base + op, n, length, x, at);
      if (ip + n > end) streamError(`literal of ${n} bytes at ${at} is cut off: only ${end - ip} bytes follow`, at);
      for (let i = 0; i < n; i++) out[op + i] = src[ip + i]!;
      ip += n;
      op += n;
    } else if (x < 0x80) {
      const n = x - 62;
      if (base + op + n > length) overrun(base + op, n, length, x, at);
      out.fill(0, op, op + n);
      op += n;
    } else if (x < 0xc0) {
      const n = x - 126;
      if (base + op + n > length) overrun(base + op, n, length, x, at);
      if (ip >= end) streamError(`run at ${at} is cut off before its byte`, at);
      out.fill(src[ip++]!, op, op + n);
      op += n;
    } else if (x < NOOP) {
      const n = x - 190;
      if (base + op + n > length) overrun(base + op, n, length, x, at);
      if (ip >= end) streamError(`back-reference at ${at} is cut off before its distance`, at);
      const from = op - (src[ip++]! + DISTANCE_MIN);
      if (base + from < 0) streamError(`back-reference at ${at} reaches ${-(base + from)} bytes before the start of the output`, at);
      // Byte by byte, as the engine does: a source that overlaps the output repeats a pattern.
      for (let i = 0; i < n; i++) out[op + i] = out[from + i]!;
      op += n;
    } else if (x === END) {
      if (base + op !== length)
        fail('size-mismatch', `Daikatana stream: ends after ${base + op} bytes, the entry declares ${length}`, {
          expected: length,
          actual: base + op,
        });
      c.ended = true;
      break;
    }
    // NOOP (0xFE): nothing to do.
  }
  c.ip = ip;
  c.op = op;
}

/** Decode `src` (one entry's compressed bytes) into exactly `length` bytes. */
export function dkDecompress(src: Uint8Array, length: number): Uint8Array {
  checkRatio(src, length);
  const out = new Uint8Array(length);
  const c: DkCursor = { ip: 0, op: 0, before: 0, ended: false };
  // Stops at the end marker; past `length` only a missing marker is left, which the next opcode reports.
  while (!c.ended) dkDecodeInto(src, out, c, c.op < length ? length : length + 1, length);
  return out;
}

/** Output bytes per piece of `dkDecompressPieces`. */
export const DK_PIECE = 256 << 10;
/** The buffer `dkDecompressPieces` decodes in: kept history, one piece, one opcode's overshoot. */
export const DK_WINDOW = HISTORY + DK_PIECE + RUN_MAX;

/**
 * The same bytes as `dkDecompress`, a piece of up to DK_PIECE (plus one opcode) at a time, decoded in
 * `lent` (at least DK_WINDOW bytes): memory stays at the window whatever the entry declares. Each piece
 * is then a view of it, valid until the next is asked for (without `lent`, a copy). The same errors, raised when reached.
 */
export function* dkDecompressPieces(src: Uint8Array, length: number, lent?: Uint8Array): Generator<Uint8Array> {
  checkRatio(src, length);
  const c: DkCursor = { ip: 0, op: 0, before: 0, ended: false };
  yield* decodeInWindow({ size: DK_WINDOW, piece: DK_PIECE, history: HISTORY, lent }, c, (window, stop) => {
    dkDecodeInto(src, window, c, stop, length);
    return !c.ended;
  });
}
