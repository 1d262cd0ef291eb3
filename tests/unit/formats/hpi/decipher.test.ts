import { describe, expect, it } from 'vitest';
import { decipherPayload } from '../../../../electron/formats/hpi/cipher.js';
import { sampleBytes, sameBytes } from './fixtures.js';

/**
 * From formats.md, byte by byte: stored byte i of a payload at file position P is XORed with
 * ((P + i) & 0xFF) ^ K (K = 0: no cipher); the u32 checksum sums those bytes; the scramble is then undone
 * with p = ((p - (i & 0xFF)) ^ (i & 0xFF)) & 0xFF.
 */
function reference(raw: Uint8Array, filePos: number, key: number, scrambled: boolean): { bytes: Uint8Array; sum: number } {
  const bytes = new Uint8Array(raw.length);
  let sum = 0;
  for (let i = 0; i < raw.length; i++) {
    const b = key === 0 ? raw[i]! : raw[i]! ^ ((filePos + i) & 0xff) ^ key;
    sum = (sum + b) % 2 ** 32;
    const k = i & 0xff;
    bytes[i] = scrambled ? ((b - k) ^ k) & 0xff : b;
  }
  return { bytes, sum };
}

describe('decipherPayload (in WebAssembly for long payloads)', () => {
  const source = sampleBytes(7, 400_000, 'noise');
  it('gives the bytes and checksum of the byte-by-byte definition, at every length, offset, key and alignment', () => {
    const lengths = [0, 1, 3, 4, 5, 255, 256, 257, 259, 1023, 1024, 1027, 65_536, 65_555, 300_001];
    let cases = 0;
    for (const length of lengths)
      for (const from of [0, 1, 2, 3, 17])
        for (const key of [0, 1, 0x5a, 0xff])
          for (const scrambled of [false, true])
            for (const outOffset of [0, 1]) {
              const raw = source.subarray(from, from + length);
              const filePos = 1000 + from * 77 + length;
              const out = new Uint8Array(length + 8).subarray(outOffset);
              const sum = decipherPayload(raw, filePos, key, scrambled, out);
              const want = reference(raw, filePos, key, scrambled);
              const label = `length ${length}, from ${from}, key ${key}, scrambled ${scrambled}, out at ${outOffset}`;
              expect(sum, label).toBe(want.sum);
              expect(sameBytes(out.subarray(0, length), want.bytes), label).toBe('same');
              cases++;
            }
    expect(cases).toBe(lengths.length * 5 * 4 * 2 * 2);
  });

  it('sums past 2^32 wrap as the format stores them (u32)', () => {
    const raw = new Uint8Array(17_000_000).fill(0xff);
    const out = new Uint8Array(raw.length);
    expect(decipherPayload(raw, 0, 0, false, out)).toBe((17_000_000 * 255) % 2 ** 32);
  });
});
