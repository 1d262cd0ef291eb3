/**
 * HPI v1's two byte-level transforms.
 *
 * The position cipher: every byte from `Start` to the trailer is XORed with its absolute file position
 * (low 8 bits) and a key derived from the header's HeaderKey. Because the position is part of the key
 * stream, a buffer can only be (de)ciphered knowing where in the file it sits.
 *
 * The chunk scramble: a second, position-in-chunk transform applied to SQSH payloads whose `scrambled`
 * byte is set (HPIPack always sets it).
 */
import { decipherInto, type PayloadCipher } from './wasm/cipher.js';

/** `K = rotl8(HeaderKey, 2)`; HeaderKey 0 means the archive is not enciphered. */
export function deriveKey(headerKey: number): number {
  return ((headerKey << 2) | (headerKey >>> 6)) & 0xff;
}

/**
 * `bytes` as they sit at `filePos` in the file, (de)ciphered with key K into a new array (the XOR is its
 * own inverse, and the input may be a view of someone else's buffer, so it is never changed).
 */
export function positionCipher(bytes: Uint8Array, filePos: number, key: number): Uint8Array {
  return positionCipherInto(bytes, filePos, key, new Uint8Array(bytes.length));
}

/** The same into `out` (at least as long as `bytes`), returned as a view of `bytes.length`. */
export function positionCipherInto(bytes: Uint8Array, filePos: number, key: number, out: Uint8Array): Uint8Array {
  const result = out.length === bytes.length ? out : out.subarray(0, bytes.length);
  if (bytes.length >= WASM_FROM) {
    decipherInto(bytes, { filePos, key, mask: 0xff, scrambled: false }, result);
    return result;
  }
  // The key stream is (pos & 0xFF) ^ K: keep the low byte of the position in a local and wrap it.
  let low = filePos & 0xff;
  for (let i = 0; i < bytes.length; i++) {
    out[i] = bytes[i]! ^ low ^ key;
    low = (low + 1) & 0xff;
  }
  return result;
}

/** In-place variant for buffers the caller owns (the writer's freshly encoded chunks). */
export function positionCipherInPlace(bytes: Uint8Array, filePos: number, key: number): void {
  positionCipherInto(bytes, filePos, key, bytes);
}

/** Undo the SQSH scramble, `p[i] = ((p[i] - i) ^ i) & 0xFF` with i taken mod 256, into a new array. */
export function unscramble(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(payload.length);
  decipherPayload(payload, 0, 0, true, out);
  return out;
}

/** Apply the SQSH scramble in place: `p[i] = ((p[i] ^ i) + i) & 0xFF`. */
export function scrambleInPlace(payload: Uint8Array): void {
  for (let i = 0; i < payload.length; i++) {
    const k = i & 0xff;
    payload[i] = ((payload[i]! ^ k) + k) & 0xff;
  }
}

/**
 * A SQSH payload as it sits at `filePos` in the file, in one pass: the position cipher removed (key K, 0 =
 * none), the checksum taken over the bytes as stored (deciphered, still scrambled), and the scramble
 * undone when `scrambled`. Writes `out` (at least as long as `raw`) and returns the u32 sum. One pass over
 * the bytes instead of three, and no array of its own.
 */
export function decipherPayload(raw: Uint8Array, filePos: number, key: number, scrambled: boolean, out: Uint8Array): number {
  const cipher = payloadCipher(filePos, key, scrambled);
  return raw.length >= WASM_FROM ? decipherInto(raw, cipher, out) : decipherBytes(raw, cipher, out);
}

/** How a SQSH payload at `filePos` is enciphered: with key 0 not at all, not even by its position. */
export const payloadCipher = (filePos: number, key: number, scrambled: boolean): PayloadCipher => ({
  filePos,
  key,
  mask: key === 0 ? 0 : 0xff,
  scrambled,
});

/**
 * From this many bytes on, the WebAssembly module (wasm/cipher.wat) takes the bytes, 16 at a time; below
 * it (a chunk's header, a short name) the byte loop costs less than the copies in and out.
 */
const WASM_FROM = 256;

/** The byte loop; returns the sum. */
function decipherBytes(raw: Uint8Array, { filePos, key, mask, scrambled }: PayloadCipher, out: Uint8Array): number {
  const n = raw.length;
  let sum = 0;
  // The key stream's low byte starts at the position's and wraps every 256 bytes, as does the scramble's.
  const start = filePos & 0xff;
  if (scrambled) {
    for (let i = 0; i < n; i++) {
      const b = raw[i]! ^ ((start + i) & mask) ^ key;
      sum += b;
      const k = i & 0xff;
      out[i] = ((b - k) ^ k) & 0xff;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const b = raw[i]! ^ ((start + i) & mask) ^ key;
      sum += b;
      out[i] = b;
    }
  }
  // Summing into a double is exact far beyond any payload; >>> 0 wraps to u32 as the format stores it.
  return sum >>> 0;
}
