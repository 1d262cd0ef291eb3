/**
 * Codecs written in WebAssembly (see bin/wasm-build.mjs): each module's bytes travel as base64 in a
 * TypeScript module, are compiled once per thread when first used, and work over an instance's own
 * memory, into which a caller copies its input and from which it copies the result.
 */

import { fail } from '../../../shared/errors.js';

/** WebAssembly's page: memory grows by whole pages. */
const PAGE = 65536;
/**
 * The most memory a codec works in: the modules compare offsets as signed 32-bit numbers. A stream of
 * that size is no game's; the format's own checks let one through only from a file that lies about it.
 */
export const WASM_MAX_BYTES = 2 ** 31 - PAGE;

/** An instance's exports with the memory every codec module exports. */
export interface WasmExports {
  memory: WebAssembly.Memory;
}

/** An instance to work in and all of its memory, at least as much as asked for. */
export interface WasmWorkspace<E extends WasmExports> {
  exports: E;
  heap: Uint8Array;
}

/**
 * The instances of the module `base64` holds, for this thread. Work needing up to `keptBytes` of memory
 * runs in the thread's own instance, kept between calls; more gets an instance of its own, which goes with
 * it, as a module's memory never shrinks. A call must be done with its workspace before the next (there is
 * one per thread). Nothing is compiled until the first call: a command that decodes nothing never pays.
 */
export function wasmInstances<E extends WasmExports>(base64: string, keptBytes: number): (bytes: number) => WasmWorkspace<E> {
  let module: WebAssembly.Module | undefined;
  let kept: E | undefined;
  const instantiate = () => {
    module ??= new WebAssembly.Module(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    return new WebAssembly.Instance(module, {}).exports as unknown as E;
  };
  return (bytes) => {
    if (bytes > WASM_MAX_BYTES)
      fail('unsupported', `${bytes} bytes to decode at once, more than the ${WASM_MAX_BYTES} a codec takes`, {
        expected: WASM_MAX_BYTES,
        actual: bytes,
      });
    const exports = bytes <= keptBytes ? (kept ??= instantiate()) : instantiate();
    return { exports, heap: heapOf(exports.memory, bytes) };
  };
}

/** All of `memory` as bytes, grown first to hold at least `bytes` (growing detaches the views made before). */
function heapOf(memory: WebAssembly.Memory, bytes: number): Uint8Array {
  const have = memory.buffer.byteLength;
  if (have < bytes) memory.grow(Math.ceil((bytes - have) / PAGE));
  return new Uint8Array(memory.buffer);
}
