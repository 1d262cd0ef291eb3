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
  if (LITTLE_ENDIAN && bytes.length >= WORDS_FROM && (out.byteOffset & 3) === 0) return cipherWords(bytes, filePos, key, out);
  // The key stream is (pos & 0xFF) ^ K: keep the low byte of the position in a local and wrap it.
  let low = filePos & 0xff;
  for (let i = 0; i < bytes.length; i++) {
    out[i] = bytes[i]! ^ low ^ key;
    low = (low + 1) & 0xff;
  }
  return out.length === bytes.length ? out : out.subarray(0, bytes.length);
}

/**
 * positionCipherInto four bytes at a time: copied natively, then each little-endian word XORed with its
 * key-stream word (the stream repeats every 256 bytes, so 64 words). The same bytes; a third of the byte
 * loop's time while a fresh process runs it cold (a mount deciphers each directory once).
 */
function cipherWords(bytes: Uint8Array, filePos: number, key: number, out: Uint8Array): Uint8Array {
  const start = filePos & 0xff;
  for (let j = 0; j < 64; j++) {
    let w = 0;
    for (let t = 3; t >= 0; t--) w = (w << 8) | (((start + 4 * j + t) & 0xff) ^ key);
    streamWords[j] = w;
  }
  if (out !== bytes) out.set(bytes);
  const count = bytes.length >>> 2;
  const tailFrom = count * 4;
  const result = out.length === bytes.length ? out : out.subarray(0, bytes.length);
  const words = new Uint32Array(out.buffer, out.byteOffset, count);
  for (let j = 0; j < count; j++) words[j] = words[j]! ^ streamWords[j & 63]!;
  cipherTail(bytes, start, key, out, tailFrom);
  return result;
}

/** The last bytes past the words (a function of its own, so the word loop's optimised code never meets it unprepared). */
function cipherTail(bytes: Uint8Array, start: number, key: number, out: Uint8Array, from: number): void {
  for (let i = from; i < bytes.length; i++) out[i] = bytes[i]! ^ ((start + i) & 0xff) ^ key;
}

const streamWords = new Uint32Array(64);

/** In-place variant for buffers the caller owns (the writer's freshly encoded chunks). */
export function positionCipherInPlace(bytes: Uint8Array, filePos: number, key: number): void {
  // Up to three bytes to a word boundary, then the words (a stored pack enciphers every byte it writes).
  const head = Math.min(bytes.length, (4 - (bytes.byteOffset & 3)) & 3);
  for (let i = 0; i < head; i++) bytes[i] = bytes[i]! ^ ((filePos + i) & 0xff) ^ key;
  const rest = head === 0 ? bytes : bytes.subarray(head);
  positionCipherInto(rest, filePos + head, key, rest);
}

/**
 * Undo the SQSH scramble: `p[i] = ((p[i] - i) ^ i) & 0xFF`, i taken mod 256. Into a new array, or into
 * `into` when the caller only needs the result until its next call (decoders reading it at once).
 */
export function unscramble(payload: Uint8Array, into?: Uint8Array): Uint8Array {
  const out = into && into.length >= payload.length ? into.subarray(0, payload.length) : new Uint8Array(payload.length);
  for (let i = 0; i < payload.length; i++) {
    const k = i & 0xff;
    out[i] = ((payload[i]! - k) ^ k) & 0xff;
  }
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
 * undone when `scrambled`. Writes `out` (at least as long as `raw`; never `raw` itself) and returns the
 * u32 sum. One pass over the bytes instead of three, and no array of its own.
 */
export function decipherPayload(raw: Uint8Array, filePos: number, key: number, scrambled: boolean, out: Uint8Array): number {
  if (LITTLE_ENDIAN && raw.length >= WORDS_FROM && (out.byteOffset & 3) === 0) return decipherWords(raw, filePos, key, scrambled, out);
  return decipherBytes(raw, filePos, key, scrambled, out, 0);
}

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
/** Shorter payloads (chunk headers) are not worth the key-stream table. */
const WORDS_FROM = 256;
const HIGH = 0x80808080 | 0;
/** Word j's four scramble bytes, (4j + t) & 0xFF: the scramble repeats every 64 words. */
const SCRAMBLE_WORDS = Uint32Array.from({ length: 64 }, (_, j) => (4 * j) | ((4 * j + 1) << 8) | ((4 * j + 2) << 16) | ((4 * j + 3) << 24));
const keyWords = new Uint32Array(64);

/**
 * decipherPayload four bytes at a time (little-endian words over `out`): the payload is copied into `out`
 * natively, then each word is XORed with its 4 key-stream bytes (a 64-word table, as the position repeats
 * every 256 bytes), summed in two 16-bit lanes, and unscrambled with a byte-wise subtraction without
 * borrows between bytes. A third of the byte loop's time; the bytes it gives are the same.
 */
function decipherWords(raw: Uint8Array, filePos: number, key: number, scrambled: boolean, out: Uint8Array): number {
  const n = raw.length;
  const start = filePos & 0xff;
  const mask = key === 0 ? 0 : 0xff;
  for (let j = 0; j < 64; j++) {
    let w = 0;
    for (let t = 3; t >= 0; t--) w = (w << 8) | (((start + 4 * j + t) & mask) ^ key);
    keyWords[j] = w;
  }
  out.set(raw);
  const count = n >>> 2;
  const words = new Uint32Array(out.buffer, out.byteOffset, count);
  let sum = 0;
  // Each lane takes at most 255 per word: flushed every 256 words, it never carries into its neighbour.
  let even = 0;
  let odd = 0;
  for (let j = 0; j < count; j++) {
    const b = words[j]! ^ keyWords[j & 63]!;
    even = (even + (b & 0x00ff00ff)) | 0;
    odd = (odd + ((b >>> 8) & 0x00ff00ff)) | 0;
    if ((j & 255) === 255) {
      sum += (even & 0xffff) + (even >>> 16) + (odd & 0xffff) + (odd >>> 16);
      even = 0;
      odd = 0;
    }
    if (scrambled) {
      const k = SCRAMBLE_WORDS[j & 63]!;
      // Byte-wise b - k: the high bits are taken out so no byte borrows from the next, then put back.
      words[j] = ((b | HIGH) - (k & ~HIGH)) ^ ((b ^ ~k) & HIGH) ^ k;
    } else words[j] = b;
  }
  sum += (even & 0xffff) + (even >>> 16) + (odd & 0xffff) + (odd >>> 16);
  return (sum + decipherBytes(raw, filePos, key, scrambled, out, count * 4)) >>> 0;
}

/** The byte loop, from payload byte `from` on; returns the sum of those bytes. */
function decipherBytes(raw: Uint8Array, filePos: number, key: number, scrambled: boolean, out: Uint8Array, from: number): number {
  const n = raw.length;
  let sum = 0;
  // The key stream's low byte starts at the position's and wraps every 256 bytes, as does the scramble's.
  // Key 0 means no cipher at all (not even the position), so the mask drops the position too.
  const start = filePos & 0xff;
  const mask = key === 0 ? 0 : 0xff;
  if (scrambled) {
    for (let i = from; i < n; i++) {
      const b = raw[i]! ^ ((start + i) & mask) ^ key;
      sum += b;
      const k = i & 0xff;
      out[i] = ((b - k) ^ k) & 0xff;
    }
  } else {
    for (let i = from; i < n; i++) {
      const b = raw[i]! ^ ((start + i) & mask) ^ key;
      sum += b;
      out[i] = b;
    }
  }
  // Summing into a double is exact far beyond any payload; >>> 0 wraps to u32 as the format stores it.
  return sum >>> 0;
}
