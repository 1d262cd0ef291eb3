/**
 * Daikatana's PAK compression (opcodes.ts), pure over Uint8Array: a greedy parse that takes, at each
 * position, the cheapest cover among a zero run (1 byte), a byte run (2 bytes) and a back-reference
 * (2 bytes, never longer than its distance, so memmove readers agree), else a literal byte.
 *
 * The parse and its search run in WebAssembly (wasm/encode.wat, which describes the search): 78-89 MB/s
 * on the real samples, where the TypeScript encoder it replaced made 37-50 MB/s.
 */
import { wasmInstances, type WasmWorkspace } from '../common/wasm.js';
import { LITERAL_MAX } from './opcodes.js';
import { WASM_BASE64 } from './wasm/encode.wasm.js';

export interface DkEncodeExports {
  /** Where the input goes: past the search's tables. */
  input: WebAssembly.Global;
  encode(n: number, outputAt: number): number;
}

/** Inputs up to a few MiB (every texture and most maps) reuse the thread's instance and its tables. */
export const DK_ENCODER_KEPT_BYTES = 8 << 20;

/** The worst case: every byte a literal, an opcode per 64, and the end marker. */
export function dkCompressBound(n: number): number {
  return n + Math.ceil(n / LITERAL_MAX) + 1;
}

export function dkCompress(data: Uint8Array): Uint8Array {
  return dkCompressInto(data);
}

/** dkCompress's stream, written into `into` when it holds dkCompressBound(data.length) bytes (a view of it), else into a new array. */
export function dkCompressInto(data: Uint8Array, into?: Uint8Array): Uint8Array {
  return threadEncoder(data, into);
}

/**
 * The encoder working in `workspace`'s instances: the thread's own (dkCompressInto), or instances a caller
 * keeps to itself (a test that moves the search's positions).
 */
export function dkEncoderIn(workspace: (bytes: number) => WasmWorkspace<DkEncodeExports>) {
  return (data: Uint8Array, into?: Uint8Array): Uint8Array => {
    const n = data.length;
    const bound = dkCompressBound(n);
    const inputAt = workspace(0).exports.input.value as number;
    // The search reads 4-byte words, up to 3 bytes past the input (bytes it masks off).
    const outputAt = (inputAt + n + 3 + 7) & ~7;
    // A large input gets an instance of its own, with its own tables.
    const { exports, heap } = workspace(outputAt + bound);
    heap.set(data, inputAt);
    const size = exports.encode(n, outputAt);
    const out = into && into.length >= bound ? into.subarray(0, size) : new Uint8Array(size);
    out.set(heap.subarray(outputAt, outputAt + size));
    return out;
  };
}

const threadEncoder = dkEncoderIn(wasmInstances<DkEncodeExports>(WASM_BASE64, DK_ENCODER_KEPT_BYTES));
