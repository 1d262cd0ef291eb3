/**
 * HPI's position cipher with the SQSH checksum and scramble in WebAssembly (cipher.wat), 16 bytes at a
 * time: each call copies the bytes into the module's memory and the result out.
 */
import { wasmInstances } from '../../common/wasm.js';
import { WASM_BASE64 } from './cipher.wasm.js';

interface CipherExports {
  decipher(n: number, start: number, key: number, mask: number, scrambled: number): number;
}

/** How the bytes of a payload are enciphered where they sit in the file. */
export interface PayloadCipher {
  filePos: number;
  key: number;
  /** The position's bits in the key stream: 0xFF, or 0 for a SQSH payload of an archive without a key. */
  mask: number;
  scrambled: boolean;
}

/** A v1 chunk's payload, many times over: a thread keeps this much memory for the cipher. */
const workspace = wasmInstances<CipherExports>(WASM_BASE64, 1 << 20);

/** `raw` deciphered (and unscrambled when asked) into `out`'s first `raw.length` bytes; returns the u32 byte sum. */
export function decipherInto(raw: Uint8Array, cipher: PayloadCipher, out: Uint8Array): number {
  const n = raw.length;
  const { exports, heap } = workspace(n);
  heap.set(raw);
  const sum = exports.decipher(n, cipher.filePos & 0xff, cipher.key, cipher.mask, cipher.scrambled ? 1 : 0);
  out.set(heap.subarray(0, n));
  return sum >>> 0;
}
