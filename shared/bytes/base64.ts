/**
 * Base64 for bytes, with neither Node's Buffer nor the DOM's atob/btoa, so shared/ code (the built-in
 * palette, the asset wire form) runs the same in the CLI, the host and the renderer.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
/** Characters turned into a string per native call (well under any engine's argument limit). */
const STRING_CHUNK = 8192;

export function bytesToBase64(bytes: Uint8Array): string {
  // The characters go into bytes first and become strings 8 KB at a time: building the text by string
  // concatenation made four short-lived strings per 3 bytes, and a 1.3 MB picture spent most of its
  // preview's time collecting them.
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o] = CODES[n >> 18]!;
    out[o + 1] = CODES[(n >> 12) & 63]!;
    out[o + 2] = CODES[(n >> 6) & 63]!;
    out[o + 3] = CODES[n & 63]!;
    o += 4;
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = (bytes[i]! << 16) | (rest === 2 ? bytes[i + 1]! << 8 : 0);
    out[o] = CODES[n >> 18]!;
    out[o + 1] = CODES[(n >> 12) & 63]!;
    out[o + 2] = rest === 2 ? CODES[(n >> 6) & 63]! : 61; /* = */
    out[o + 3] = 61;
  }
  const parts: string[] = [];
  for (let at = 0; at < out.length; at += STRING_CHUNK) {
    parts.push(String.fromCharCode.apply(null, out.subarray(at, at + STRING_CHUNK) as unknown as number[]));
  }
  return parts.join('');
}

/** Decodes standard base64 (padding optional); throws a plain Error on a character outside the alphabet. */
export function base64ToBytes(text: string): Uint8Array {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61 /* = */) end--;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? VALUES[c]! : -1;
    if (v < 0) throw new Error(`base64: character ${JSON.stringify(text[i])} at ${i} is not base64`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return o === out.length ? out : out.subarray(0, o);
}
