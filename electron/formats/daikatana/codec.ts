import { fail } from '../../../shared/errors.js';
import { MatchFinder, type MatchFinderOptions } from '../common/match-finder.js';
import { decodeInWindow, type WindowCursor } from '../common/windowed-decode.js';

/**
 * Daikatana's PAK compression, as the engine reads it. One opcode byte x at a time:
 *   0x00–0x3F  copy x+1 literal bytes          0x40–0x7F  write x−62 zeros (2..65)
 *   0x80–0xBF  read b, write it x−126 times    0xC0–0xFD  read d, copy x−190 bytes (2..63) starting
 *   0xFE       one-byte no-op                             d+2 bytes back, byte by byte
 *   0xFF       end
 * Pure functions over Uint8Array; every problem is a FormatError('bad-stream' or 'size-mismatch').
 */

const LITERAL_MAX = 64;
const ZERO_RUN_MIN = 2;
const RUN_MAX = 65;
const COPY_MIN = 2;
const COPY_MAX = 63;
const DISTANCE_MIN = 2;
const DISTANCE_MAX = 257;
const NOOP = 0xfe;
const END = 0xff;

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

// 64 chain links find nearly every match the 257-byte window holds (within 0.1% of an exhaustive search on
// the bench corpus) at a fraction of the time on repetitive data.
const MATCHES: MatchFinderOptions = {
  maxDistance: DISTANCE_MAX,
  minLength: COPY_MIN,
  maxLength: COPY_MAX,
  allowOverlap: false,
  maxChain: 64,
};

/**
 * Encode `data` greedily: at each position the cheapest cover among a zero run (1 byte), a byte run
 * (2 bytes) and a back-reference (2 bytes, never longer than its distance, so memmove readers agree),
 * else a literal byte. The worst case is data.length + ceil(data.length / 64) + 1 bytes.
 */
export function dkCompress(data: Uint8Array): Uint8Array {
  return dkCompressInto(data).slice();
}

/** The most `dkCompress` writes for `n` bytes. */
export function dkCompressBound(n: number): number {
  return n + Math.ceil(n / LITERAL_MAX) + 1;
}

/** One finder per thread, its tables reused from file to file. */
const finder = new MatchFinder(new Uint8Array(0), MATCHES);

/** dkCompress's stream, written into `into` when it holds dkCompressBound(data.length) bytes (a view of it), else into a new array. */
export function dkCompressInto(data: Uint8Array, into?: Uint8Array): Uint8Array {
  const n = data.length;
  const bound = dkCompressBound(n);
  const out = into && into.length >= bound ? into : new Uint8Array(bound);
  finder.reset(data);
  let op = 0;
  let litStart = 0;
  let i = 0;
  const flushLiterals = (upto: number) => {
    while (litStart < upto) {
      const len = Math.min(LITERAL_MAX, upto - litStart);
      out[op++] = len - 1;
      for (let k = 0; k < len; k++) out[op++] = data[litStart + k]!;
      litStart += len;
    }
  };
  while (i < n) {
    const b = data[i]!;
    const maxRun = Math.min(RUN_MAX, n - i);
    let run = 1;
    while (run < maxRun && data[i + run] === b) run++;
    const pending = i > litStart;
    // Saving of each choice over literals: covered bytes minus its cost. A 2-byte cover only pays when
    // no literal is pending (it would cost the literal a new opcode later).
    const zeroGain = b === 0 && run >= ZERO_RUN_MIN ? run - 1 : 0;
    const runGain = run >= 3 || (run === 2 && !pending) ? run - 2 : -1;
    // A run reaching its limit already beats any match (a match also costs 2 and is at most 63 long).
    const matchLength = run === maxRun ? 0 : finder.longest(i);
    const matchGain = matchLength >= 3 || (matchLength === 2 && !pending) ? matchLength - 2 : -1;
    if (zeroGain > 0 && zeroGain >= runGain && zeroGain >= matchGain) {
      flushLiterals(i);
      out[op++] = 0x40 + run - ZERO_RUN_MIN;
      i += run;
    } else if (runGain >= 0 && runGain >= matchGain) {
      flushLiterals(i);
      out[op++] = 0x80 + run - 2;
      out[op++] = b;
      i += run;
    } else if (matchGain >= 0) {
      flushLiterals(i);
      out[op++] = 0xc0 + matchLength - COPY_MIN;
      out[op++] = finder.distance - DISTANCE_MIN;
      i += matchLength;
    } else {
      i++;
      continue;
    }
    litStart = i;
  }
  flushLiterals(n);
  out[op++] = END;
  return out.subarray(0, op);
}
