/**
 * Codecs written in WebAssembly (see bin/wasm-build.mjs): each module's bytes travel as base64 in a
 * TypeScript module, are compiled once per thread when first used, and work over the instance's own
 * memory, into which a caller copies its input and from which it copies the result.
 */

/** WebAssembly's page: memory grows by whole pages. */
const PAGE = 65536;

/** The module `base64` holds, compiled on the first call (an archive command that decodes nothing never pays for it). */
export function compiledOnFirstUse(base64: string): () => WebAssembly.Module {
  let module: WebAssembly.Module | undefined;
  return () => (module ??= new WebAssembly.Module(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))));
}

/** All of `memory` as bytes, grown first to hold at least `bytes` (growing detaches the views made before). */
export function heapOf(memory: WebAssembly.Memory, bytes: number): Uint8Array {
  const have = memory.buffer.byteLength;
  if (have < bytes) memory.grow(Math.ceil((bytes - have) / PAGE));
  return new Uint8Array(memory.buffer);
}
