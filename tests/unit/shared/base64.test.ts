import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from '../../../shared/bytes/base64.js';

/** RFC 4648 section 10's test vectors, and Node's own encoder as the known answer for everything else. */
describe('shared base64', () => {
  it('encodes the RFC 4648 vectors', () => {
    const cases: [string, string][] = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg=='],
      ['fooba', 'Zm9vYmE='],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [text, encoded] of cases) {
      expect(bytesToBase64(new TextEncoder().encode(text))).toBe(encoded);
      expect(new TextDecoder().decode(base64ToBytes(encoded))).toBe(text);
    }
  });

  it('agrees with Node for every length around the padding and the 8 KB string chunks, and round-trips', () => {
    const lengths = [...Array.from({ length: 40 }, (_, i) => i), 6141, 6142, 6143, 6144, 6145, 12_288, 100_003];
    for (const n of lengths) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (Math.imul(i + n, 2654435761) >>> 24) & 255);
      const encoded = bytesToBase64(bytes);
      expect(encoded).toBe(Buffer.from(bytes).toString('base64'));
      expect(Buffer.compare(Buffer.from(base64ToBytes(encoded)), Buffer.from(bytes))).toBe(0);
    }
  });

  it('encodes a view at its offset, not its whole buffer', () => {
    const whole = Uint8Array.from({ length: 64 }, (_, i) => i);
    const view = whole.subarray(5, 17);
    expect(bytesToBase64(view)).toBe(Buffer.from(view).toString('base64'));
  });
});
