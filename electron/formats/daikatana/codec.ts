import { fail } from '../../../shared/errors.js';
import { decodeInWindow, type WindowCursor } from '../common/windowed-decode.js';
import { DISTANCE_MAX, RUN_MAX } from './opcodes.js';
import {
  DK_BEFORE_START,
  DK_COPY_CUT_OFF,
  DK_LITERAL_CUT_OFF,
  DK_NO_END,
  DK_OVERRUN,
  DK_RUN_CUT_OFF,
  daikatanaStep,
} from './wasm/stream.js';

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
 * `out` has room for `stop` plus one opcode's output (RUN_MAX), or is exactly `length` long. The decoder
 * is WebAssembly (wasm/stream.wat): 3-4× the speed of the same loop in JavaScript on textures and BSPs.
 */
function dkDecodeInto(src: Uint8Array, out: Uint8Array, c: DkCursor, stop: number, length: number): void {
  const base = c.before;
  const step = daikatanaStep(src, c.ip, out, c.op, stop, length - base, DISTANCE_MAX);
  if (step.failure === null) {
    c.ip = step.ip;
    c.op = step.op;
    if (!step.ended) return;
    if (base + c.op !== length)
      fail('size-mismatch', `Daikatana stream: ends after ${base + c.op} bytes, the entry declares ${length}`, {
        expected: length,
        actual: base + c.op,
      });
    c.ended = true;
    return;
  }
  const { code, at: from, outAt, value } = step.failure;
  const at = step.ipFrom + from;
  const op = base + step.opFrom + outAt;
  const x = src[at] ?? 0;
  if (code === DK_OVERRUN) overrun(op, value, length, x, at);
  if (code === DK_LITERAL_CUT_OFF)
    streamError(`literal of ${value} bytes at ${at} is cut off: only ${src.length - at - 1} bytes follow`, at);
  if (code === DK_RUN_CUT_OFF) streamError(`run at ${at} is cut off before its byte`, at);
  if (code === DK_COPY_CUT_OFF) streamError(`back-reference at ${at} is cut off before its distance`, at);
  if (code === DK_BEFORE_START) streamError(`back-reference at ${at} reaches ${value - op} bytes before the start of the output`, at);
  if (code === DK_NO_END) streamError(`the data ends without the 0xFF end marker after ${op} of ${length} bytes`, at);
  throw new Error(`the Daikatana decoder returned the unknown code ${code}`);
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
