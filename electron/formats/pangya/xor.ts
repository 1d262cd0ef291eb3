/**
 * The pre-XTEA metadata cipher: every name byte and the realSize field XORed with 0x71. Its own inverse.
 */
export const XOR_KEY = 0x71;

/** A copy of `bytes` with every byte XORed with the key. */
export function xorBytes(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes[i]! ^ XOR_KEY;
  return out;
}

/** realSize as stored in an XOR entry (the whole u32 XORed with 0x71, so only its low byte changes). */
export const xorSize = (value: number) => (value ^ XOR_KEY) >>> 0;
