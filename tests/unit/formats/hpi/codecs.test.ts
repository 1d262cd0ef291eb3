import { describe, expect, it } from 'vitest';
import { deriveKey, positionCipher, scrambleInPlace, unscramble } from '../../../../electron/formats/hpi/cipher.js';
import { byteSum, entryChecksum } from '../../../../electron/formats/hpi/checksums.js';
import { decodeLz77, encodeLz77, encodeLz77Greedy } from '../../../../electron/formats/hpi/lz77.js';
import { decodeChunk, decodeChunkAt, encodeChunk, readChunkHeader, wrapChunk } from '../../../../electron/formats/hpi/sqsh.js';
import { FormatError } from '../../../../shared/errors.js';
import { corpusFiles } from '../../../../bench/corpus.js';
import { sameBytes, sampleBytes } from './fixtures.js';
import { deflateSync } from 'node:zlib';

/** Walk an LZ77 stream's tokens: each match's ring index and how far back it reaches, in order (the terminator last). */
function matches(stream: Uint8Array): { index: number; distance: number }[] {
  const out: { index: number; distance: number }[] = [];
  let ip = 0;
  let q = 0;
  for (;;) {
    const flags = stream[ip++]!;
    for (let bit = 0; bit < 8; bit++) {
      if (flags & (1 << bit)) {
        const v = stream[ip]! | (stream[ip + 1]! << 8);
        ip += 2;
        const index = v >>> 4;
        out.push({ index, distance: (q + 1 - index) & 0xfff || 4096 });
        if (index === 0) return out;
        q += (v & 15) + 2;
      } else {
        ip++;
        q++;
      }
    }
  }
}
const matchIndices = (stream: Uint8Array) => matches(stream).map((m) => m.index);

describe('HPI cipher', () => {
  it('derives K by rotating the HeaderKey left by 2 (the seed: 0xA6 → 0x9A)', () => {
    expect(deriveKey(0xa6)).toBe(0x9a);
    expect(deriveKey(0x7d)).toBe(0xf5);
    expect(deriveKey(0)).toBe(0);
  });

  it('enciphers by absolute position, so the same bytes differ by where they sit', () => {
    const plain = new Uint8Array(300).fill(0x41);
    const at20 = positionCipher(plain, 20, 0x9a);
    expect(at20[0]).toBe(0x41 ^ 20 ^ 0x9a);
    expect(at20[255]).toBe(0x41 ^ ((20 + 255) & 0xff) ^ 0x9a);
    expect(positionCipher(plain, 21, 0x9a)[0]).not.toBe(at20[0]);
    expect(positionCipher(at20, 20, 0x9a)).toEqual(plain);
    expect(plain[0]).toBe(0x41); // never in place
  });

  it('scrambles chunk payloads reversibly: p = ((p ^ i) + i), undone by ((p - i) ^ i)', () => {
    const data = sampleBytes(9, 700, 'noise');
    const copy = data.slice();
    scrambleInPlace(copy);
    expect(copy[3]).toBe(((data[3]! ^ 3) + 3) & 0xff);
    expect(copy[300]).toBe(((data[300]! ^ 44) + 44) & 0xff);
    expect(unscramble(copy)).toEqual(data);
  });
});

describe('HPI checksums', () => {
  it('sums chunk bytes as u32 and computes the TA:K entry checksum byte-wise', () => {
    expect(byteSum(Uint8Array.of(255, 255, 2))).toBe(512);
    // c0 = 1+2+3 = 6, c1 = 1^2^3 = 0, c2 = (1^0)+(2^1)+(3^2) = 1+3+1 = 5, c3 = (1+0)^(2+1)^(3+2) = 1^3^5 = 7
    expect(entryChecksum(Uint8Array.of(1, 2, 3))).toBe(6 | (0 << 8) | (5 << 16) | (7 << 24));
    expect(entryChecksum(new Uint8Array(0))).toBe(0);
  });
});

describe('HPI LZ77', () => {
  it('copies byte by byte, so an overlapping match repeats a pattern', () => {
    // literal 'A' (at ring index 1), match from index 1 length 5, terminator
    const stream = Uint8Array.of(0b110, 0x41, (1 << 4) | 3, 0, 0, 0);
    expect(new TextDecoder().decode(decodeLz77(stream, 6))).toBe('AAAAAA');
  });

  it("reads the ring's initial zeros before anything is written there", () => {
    const stream = Uint8Array.of(0b11, (100 << 4) | 1, 100 >> 4, 0, 0);
    expect(decodeLz77(stream, 3)).toEqual(new Uint8Array(3));
  });

  it('addresses the ring absolutely after the write position wraps past 4095', () => {
    // 4096 literals fill every ring slot (the last lands in index 0), then index 1 is the slot about to be
    // overwritten (4096 back: output 0) and index 2 is 4095 back (output 1).
    const literals = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7 + 3) & 0xff);
    const parts: number[] = [];
    for (let i = 0; i < 4096; i += 8) parts.push(0, ...literals.subarray(i, i + 8));
    parts.push(0b111, (1 << 4) | 1, 0, (2 << 4) | 0, 0, 0, 0);
    const out = decodeLz77(Uint8Array.from(parts), 4096 + 5);
    expect(out.subarray(0, 4096)).toEqual(literals);
    expect(Array.from(out.subarray(4096))).toEqual([literals[0], literals[1], literals[2], literals[1], literals[2]]);
  });

  it('always emits the terminator, never references ring index 0 otherwise, and round-trips', () => {
    expect(Array.from(encodeLz77(new Uint8Array(0)))).toEqual([1, 0, 0]);
    // A unique marker at output 4095 (ring index 0) repeated later: the encoder must not use that source.
    const data = sampleBytes(11, 9000, 'noise');
    data.set([1, 2, 3, 4, 5, 6], 4093);
    data.set([1, 2, 3, 4, 5, 6], 8000);
    for (const input of [data, sampleBytes(12, 65536, 'text'), sampleBytes(13, 65536, 'runs'), new Uint8Array(65536)]) {
      const stream = encodeLz77(input);
      const indices = matchIndices(stream);
      expect(indices[indices.length - 1]).toBe(0);
      expect(indices.slice(0, -1)).not.toContain(0);
      expect(sameBytes(decodeLz77(stream, input.length), input)).toBe('same');
    }
  });

  it('never references a source more than 4095 back', () => {
    // A long repeat exactly 4096 back is out of reach: the encoder must not take it.
    const data = sampleBytes(14, 4200, 'noise');
    data.set(data.subarray(0, 60), 4096);
    const stream = encodeLz77(data);
    expect(sameBytes(decodeLz77(stream, data.length), data)).toBe('same');
    const found = matches(stream).slice(0, -1);
    expect(found.length).toBeGreaterThan(10);
    expect(Math.max(...found.map((m) => m.distance))).toBeLessThanOrEqual(4095);
    expect(found.filter((m) => m.distance === 4096)).toEqual([]);
  });

  it('is never larger than a greedy longest-match encoder over the full window', () => {
    let lazy = 0;
    let greedy = 0;
    for (const f of corpusFiles(150, 5)) {
      for (let o = 0; o < f.bytes.length; o += 65536) {
        const chunk = f.bytes.subarray(o, o + 65536);
        const a = encodeLz77(chunk).length;
        const b = encodeLz77Greedy(chunk).length;
        lazy += a;
        greedy += b;
      }
    }
    expect(lazy).toBeLessThan(greedy);
  });

  it('rejects corrupt streams with a FormatError', () => {
    const good = encodeLz77(sampleBytes(15, 3000, 'text'));
    expect(() => decodeLz77(good, 2999)).toThrow(FormatError);
    expect(() => decodeLz77(good, 3001)).toThrow(FormatError);
    expect(() => decodeLz77(good.subarray(0, good.length - 40), 3000)).toThrow(FormatError);
    expect(() => decodeLz77(Uint8Array.of(1, 0x10), 5)).toThrow(/cut off/);
  });
});

describe('SQSH chunks', () => {
  const data = sampleBytes(20, 65536, 'text');

  it('round-trips every method, scrambled or not, and stores the payload sum', () => {
    for (const method of [0, 1, 2] as const) {
      for (const scrambled of [false, true]) {
        const chunk = encodeChunk(data, method, scrambled);
        const header = readChunkHeader(chunk, 0, 0);
        expect(header).toMatchObject({ version: 2, method, scrambled, size: 65536, compressedSize: chunk.length - 19 });
        expect(header.checksum).toBe(byteSum(chunk.subarray(19)));
        const warnings: string[] = [];
        expect(sameBytes(decodeChunkAt(chunk, 0, 0, 65536, (m) => warnings.push(m)).data, data)).toBe('same');
        expect(warnings).toEqual([]);
      }
    }
  });

  it('warns on a checksum mismatch but still decodes', () => {
    const chunk = encodeChunk(data, 1, true);
    new DataView(chunk.buffer).setUint32(15, 12345, true);
    const warnings: string[] = [];
    expect(sameBytes(decodeChunkAt(chunk, 0, 100, 65536, (m) => warnings.push(m)).data, data)).toBe('same');
    expect(warnings[0]).toMatch(/chunk at 100: checksum/);
  });

  it('reads zlib chunks whose Adler-32 is missing or wrong, with a warning', () => {
    const full = new Uint8Array(deflateSync(data));
    for (const payload of [
      full.subarray(0, full.length - 4),
      (() => {
        const b = full.slice();
        b[b.length - 1]! ^= 0xff;
        return b;
      })(),
    ]) {
      const chunk = wrapChunk(payload, data.length, 2, true);
      const warnings: string[] = [];
      expect(sameBytes(decodeChunkAt(chunk, 0, 0, 65536, (m) => warnings.push(m)).data, data)).toBe('same');
      expect(warnings.join()).toMatch(/Adler-32/);
    }
  });

  it("decodes by the chunk's own method and refuses implausible sizes before allocating", () => {
    const stored = encodeChunk(data.subarray(0, 100), 0, false);
    expect(decodeChunk(readChunkHeader(stored, 0, 0), stored.subarray(19), 0)).toEqual(data.subarray(0, 100));
    const lying = encodeChunk(data.subarray(0, 100), 1, false);
    new DataView(lying.buffer).setUint32(11, 0x7fffffff, true);
    expect(() => decodeChunkAt(lying, 0, 0, 0x7fffffff)).toThrow(/cannot come from/);
    expect(() => decodeChunkAt(lying, 0, 0, 65536)).toThrow(/declares/);
    const badMagic = stored.slice();
    badMagic[0] = 0;
    expect(() => readChunkHeader(badMagic, 0, 7)).toThrow(/no SQSH chunk at 7/);
  });
});
