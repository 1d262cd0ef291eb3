/**
 * The 4 KB-window LZ77 decoders in WebAssembly (lz-window.wat): HPI's SQSH method 1 and Pangya's types
 * 1 and 3. Each call copies its stream into the module's memory and the output out, and reports a failure
 * with where it happened; the formats word the messages.
 */
import { failureOf, landStep, stageStep, wasmInstances, type FailedStep, type WasmFailure, type WasmStepExports } from '../wasm.js';
import { WASM_BASE64 } from './lz-window.wasm.js';

interface LzExports extends WasmStepExports {
  hpi(n: number, size: number, outputAt: number): number;
  pangya(inEnd: number, outputAt: number, q0: number, stop: number, limit: number, room: number, obfuscated: number): number;
}

/** A v1 chunk (64 KB) with its packed bytes, or a Pangya piece (256 KB) with its history, several times over. */
const workspace = wasmInstances<LzExports>(WASM_BASE64, 2 << 20);

/** Bytes between the input and the output: the unchecked groups read up to 24 past a flag byte. */
const INPUT_SLACK = 32;
/** Bytes past the output: the unchecked groups write up to 8 past a group. */
const OUTPUT_SLACK = 32;

/** Where the output starts in the module's memory, after `n` bytes of input. */
const outputAfter = (n: number) => (n + INPUT_SLACK + 7) & ~7;
const SLACK = { input: INPUT_SLACK, output: OUTPUT_SLACK };

/** HPI's failure codes: a literal past the size, a match cut off, a match past the size (value: its length). */
export const HPI_LITERAL_OVERRUN = -1;
export const HPI_MATCH_CUT_OFF = -2;
export const HPI_MATCH_OVERRUN = -3;

export interface HpiLz77Decoded<T> {
  /** Bytes the stream produced before it ended (copied to `out` only when they are all `size` of them). */
  produced: number;
  failure: WasmFailure | null;
  /** What `writeInput` returned. */
  input: T;
}

/**
 * An HPI LZ77 stream of `n` bytes decoded into `out`'s first `size` bytes. `writeInput` puts the stream
 * into the view it is given (a copy, or a decipher straight into the module's memory).
 */
export function hpiLz77Into<T>(n: number, size: number, out: Uint8Array, writeInput: (into: Uint8Array) => T): HpiLz77Decoded<T> {
  const outputAt = outputAfter(n);
  const { exports, heap } = workspace(outputAt + size + OUTPUT_SLACK);
  const input = writeInput(heap.subarray(0, n));
  const produced = exports.hpi(n, size, outputAt);
  if (produced < 0) return { produced: 0, failure: failureOf(exports, produced), input };
  if (produced === size) out.set(heap.subarray(outputAt, outputAt + size));
  return { produced, failure: null, input };
}

/** Pangya's failure codes: a literal past the room, a match cut off, before the start (value: distance), past the room (value: length). */
export const PANGYA_LITERAL_OVERRUN = -1;
export const PANGYA_MATCH_CUT_OFF = -2;
export const PANGYA_MATCH_BEFORE_START = -3;
export const PANGYA_MATCH_OVERRUN = -4;

/** What a Pangya step needs of the format: the most one flag group writes, and the furthest a match reaches back. */
export interface PangyaWindow {
  groupMax: number;
  reach: number;
}

/** Where a Pangya decode stands: the new positions, or a failure with the window position and input offset its own are from. */
export type PangyaStep = { ip: number; op: number; failure: null } | FailedStep;

/**
 * Pangya's groups from input offset `ip` and output position `op` of `out` until the output reaches `stop`
 * or the input ends; nothing is written at or past `room`, and `out` holds room for `stop` plus one group.
 * The bytes before `op` that a match may reach go in with the stream. Only as much input as the groups up
 * to `stop` can take is copied (a byte and an eighth per output byte, and one group): a valid stream takes
 * one call of the module, and bytes past a stream's honest end are still read, in calls of their own.
 */
export function pangyaLz77Step(
  input: Uint8Array,
  ip: number,
  out: Uint8Array,
  op: number,
  stop: number,
  room: number,
  obfuscated: boolean,
  { groupMax, reach }: PangyaWindow,
): PangyaStep {
  do {
    const ahead = Math.min(stop, room, out.length) - op;
    const take = Math.min(input.length - ip, 2 * ahead + 64);
    // The output this call may write: up to a group past `stop`, never past `room` or the caller's array.
    const limit = Math.min(room, stop + groupMax, out.length) - op;
    const staged = stageStep(workspace, SLACK, input.subarray(ip, ip + take), out, op, reach, limit);
    const { exports, outputAt, history } = staged;
    const q = exports.pangya(
      take,
      outputAt,
      history,
      history + Math.min(stop - op, 2 ** 31 - 1 - history),
      history + limit,
      history + room - op,
      obfuscated ? 1 : 0,
    );
    const landed = landStep(staged, q, out, ip, op);
    if ('failure' in landed) return landed;
    ({ ip, op } = landed);
  } while (ip < input.length && op < stop);
  return { ip, op, failure: null };
}
