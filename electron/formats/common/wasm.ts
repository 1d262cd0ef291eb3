/**
 * Codecs written in WebAssembly (see bin/wasm-build.mjs): each module's bytes travel as base64 in a
 * TypeScript module, are compiled once per thread when first used, and work over an instance's own
 * memory, into which a caller copies its input and from which it copies the result.
 */

import { fail } from '../../../shared/errors.js';

/** WebAssembly's page: memory comes in whole pages. */
const PAGE = 65536;
/**
 * The most memory a codec works in: the modules compare offsets as signed 32-bit numbers. A stream of
 * that size is no game's; the format's own checks let one through only from a file that lies about it.
 */
export const WASM_MAX_BYTES = 2 ** 31 - PAGE;

/** The globals a decoder sets when a stream fails: where in its input and output, and a value its message names. */
export interface WasmFailureExports {
  at: WebAssembly.Global;
  outAt: WebAssembly.Global;
  value: WebAssembly.Global;
}

/** A stream that did not decode: the decoder's code, the input offset, and the output position and value it names. */
export interface WasmFailure {
  code: number;
  at: number;
  outAt: number;
  value: number;
}

export function failureOf(exports: WasmFailureExports, code: number): WasmFailure {
  return { code, at: exports.at.value, outAt: exports.outAt.value, value: exports.value.value };
}

/** An instance to work in and all of its memory, at least as much as asked for. */
export interface WasmWorkspace<E extends object> {
  exports: E;
  heap: Uint8Array;
}

/**
 * The instances of the module `base64` holds, for this thread. Work needing up to `keptBytes` of memory
 * runs in the thread's own instance, kept between calls; more gets an instance of its own, which goes with
 * it. A call must be done with its workspace before the next (there is one per thread). Nothing is
 * compiled until the first call: a command that decodes nothing never pays.
 *
 * Each instance is given its memory (the modules import it) at the size it will ever need, and no memory
 * ever grows: growing detaches the old buffer, and V8's first detached buffer in a thread throws away all of
 * that thread's optimised code that reads typed arrays (it is compiled again, with a check on every access).
 */
export function wasmInstances<E extends object>(base64: string, keptBytes: number): (bytes: number) => WasmWorkspace<E> {
  let module: WebAssembly.Module | undefined;
  let kept: WasmWorkspace<E> | undefined;
  const instantiate = (bytes: number): WasmWorkspace<E> => {
    module ??= new WebAssembly.Module(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) });
    const exports = new WebAssembly.Instance(module, { codec: { memory } }).exports as unknown as E;
    return { exports, heap: new Uint8Array(memory.buffer) };
  };
  return (bytes) => {
    if (bytes > WASM_MAX_BYTES)
      fail('unsupported', `${bytes} bytes to decode at once, more than the ${WASM_MAX_BYTES} a codec takes`, {
        expected: WASM_MAX_BYTES,
        actual: bytes,
      });
    return bytes <= keptBytes ? (kept ??= instantiate(keptBytes)) : instantiate(bytes);
  };
}

/** What a decoder module reads past its input and writes past its output, in bytes. */
export interface Slack {
  input: number;
  output: number;
}

/** One call of a decoder that works a window at a time, laid out in its module's memory. */
export interface StagedStep<E extends object> extends WasmWorkspace<E> {
  /** Where the output starts: the history, then the new bytes. */
  outputAt: number;
  /** How many bytes of the output so far came in before the new ones. */
  history: number;
}

/**
 * Lay out one call of a windowed decoder: `piece` (the stream from where the decode stands) at address 0,
 * then, 8-aligned past the input's slack, the `reach` bytes of `out` before `op` (all of them, when fewer),
 * and room for `limit` new bytes and the output's slack.
 */
export function stageStep<E extends object>(
  workspace: (bytes: number) => WasmWorkspace<E>,
  slack: Slack,
  piece: Uint8Array,
  out: Uint8Array,
  op: number,
  reach: number,
  limit: number,
): StagedStep<E> {
  const history = Math.min(op, reach);
  const outputAt = (piece.length + slack.input + 7) & ~7;
  const { exports, heap } = workspace(outputAt + history + Math.max(limit, 0) + slack.output);
  heap.set(piece);
  heap.set(out.subarray(op - history, op), outputAt);
  return { exports, heap, outputAt, history };
}

/** A windowed decoder's exports: the failure globals, and how much of its input a call consumed. */
export interface WasmStepExports extends WasmFailureExports {
  ipEnd: WebAssembly.Global;
}

/** A windowed decode's failed step: the decoder's failure, with the output position and input offset its own are from. */
export interface FailedStep {
  failure: WasmFailure;
  opFrom: number;
  ipFrom: number;
}

/**
 * What a staged call made of the decode at input offset `ip` and output position `op`, from its result
 * `q` (the position it reached, history included, or a negative failure code): the new bytes copied into
 * `out` at `op` and both positions advanced, or the failure.
 */
export function landStep<E extends WasmStepExports>(
  staged: StagedStep<E>,
  q: number,
  out: Uint8Array,
  ip: number,
  op: number,
): { ip: number; op: number } | FailedStep {
  const { exports, heap, outputAt, history } = staged;
  if (q < 0) return { failure: failureOf(exports, q), opFrom: op - history, ipFrom: ip };
  out.set(heap.subarray(outputAt + history, outputAt + q), op);
  return { ip: ip + exports.ipEnd.value, op: op + q - history };
}
