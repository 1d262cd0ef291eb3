import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeLz77, encodeLz77 } from '../../../../electron/formats/hpi/lz77.js';
import { hpiLz77Into } from '../../../../electron/formats/common/wasm/lz-window.js';
import { WASM_MAX_BYTES } from '../../../../electron/formats/common/wasm.js';
import { deriveKey, positionCipher, unscramble } from '../../../../electron/formats/hpi/cipher.js';
import { CHUNK_SIZE, readChunkHeader, SQSH_HEADER_SIZE } from '../../../../electron/formats/hpi/sqsh.js';
import type { V1Entry } from '../../../../electron/formats/hpi/v1-directory.js';
import { FormatError } from '../../../../shared/errors.js';
import { corpusFiles } from '../../../../bench/corpus.js';
import { prng } from '../../../helpers/prng.js';
import { samplesDir } from '../../../helpers/run-cli.js';
import { openBytes, sameBytes, sampleBytes } from './fixtures.js';

/**
 * The decoder as formats.md describes it, one byte at a time over a real ring: 4096 bytes, zero-filled,
 * write position starting at 1; a flag byte, LSB first, announces 8 tokens: 0 = a literal (output it and
 * store it in the ring), 1 = a u16 whose top 12 bits are an absolute ring index (0 ends the stream) and low
 * 4 bits the length - 2, copied byte by byte from the ring. Returns the output, or why the stream is bad
 * (output past `size`, a match cut off, or an end short of `size`).
 */
function reference(src: Uint8Array, size: number): Uint8Array | 'bad' {
  const ring = new Uint8Array(4096);
  const out = new Uint8Array(size);
  let w = 1;
  let q = 0;
  let ip = 0;
  const put = (b: number) => {
    out[q++] = b;
    ring[w] = b;
    w = (w + 1) & 0xfff;
  };
  outer: while (ip < src.length) {
    const flags = src[ip++]!;
    for (let bit = 0; bit < 8; bit++) {
      if (ip >= src.length) break outer;
      if ((flags & (1 << bit)) === 0) {
        if (q >= size) return 'bad';
        put(src[ip++]!);
        continue;
      }
      if (ip + 2 > src.length) return 'bad';
      const v = src[ip]! | (src[ip + 1]! << 8);
      ip += 2;
      let from = v >>> 4;
      if (from === 0) break outer;
      const len = (v & 0xf) + 2;
      if (q + len > size) return 'bad';
      for (let k = 0; k < len; k++) {
        put(ring[from]!);
        from = (from + 1) & 0xfff;
      }
    }
  }
  return q === size ? out : 'bad';
}

/** decodeLz77's answer in the reference's terms; anything but a FormatError fails the test. */
function decoded(src: Uint8Array, size: number, into?: Uint8Array): Uint8Array | 'bad' {
  try {
    return decodeLz77(src, size, into);
  } catch (err) {
    if (err instanceof FormatError) return 'bad';
    throw err;
  }
}

function expectSame(src: Uint8Array, size: number, label: string): void {
  const want = reference(src, size);
  const got = decoded(src, size);
  if (want === 'bad') expect(got, label).toBe('bad');
  else {
    expect(got, label).not.toBe('bad');
    expect(sameBytes(got as Uint8Array, want), label).toBe('same');
  }
}

/**
 * A random valid stream of `size` bytes of output: literals and matches of every length, with ring indices
 * anywhere in the window (a byte or two back, 4095 and 4096 back, into the ring's initial zeros), in runs
 * of literals, runs of matches and mixes, so every group shape meets the word copies and the checked tail.
 */
function randomStream(seed: number, size: number): Uint8Array {
  const rand = prng(seed);
  const pick = (n: number) => Math.floor(rand() * n);
  const bytes: number[] = [];
  let flagAt = -1;
  let bit = 8;
  const token = (isMatch: boolean, ...payload: number[]) => {
    if (bit === 8) {
      flagAt = bytes.length;
      bytes.push(0);
      bit = 0;
    }
    if (isMatch) bytes[flagAt] = bytes[flagAt]! | (1 << bit);
    bit++;
    bytes.push(...payload);
  };
  const style = pick(4); // 0 mixed, 1 mostly literals, 2 mostly matches, 3 mostly near matches
  let q = 0;
  while (q < size) {
    const literal = style === 1 ? rand() < 0.9 : style === 2 || style === 3 ? rand() < 0.1 : rand() < 0.5;
    const room = size - q;
    if (literal || room < 2) {
      token(false, pick(256));
      q++;
      continue;
    }
    const len = 2 + pick(Math.min(15, room - 2) + 1);
    const r = rand();
    const distance =
      style === 3 || r < 0.2
        ? 1 + pick(3)
        : r < 0.3
          ? 4 + pick(5)
          : r < 0.35
            ? 4096
            : r < 0.4
              ? 4095
              : r < 0.5 && q < 4096
                ? q + 1 + pick(4096 - q) // before the chunk's start: the ring's zeros
                : 1 + pick(4096);
    // The ring index of output position q - distance is (q - distance + 1) & 0xFFF; index 0 would end the stream.
    const index = (q - distance + 1) & 0xfff;
    if (index === 0) {
      token(false, pick(256));
      q++;
      continue;
    }
    const v = (index << 4) | (len - 2);
    token(true, v & 0xff, v >>> 8);
    q += len;
  }
  token(true, 0, 0);
  return Uint8Array.from(bytes);
}

/** Every LZ77 chunk payload of an HPI v1 archive, unscrambled, with its declared size. */
async function lz77Payloads(bytes: Uint8Array): Promise<{ payload: Uint8Array; size: number }[]> {
  const archive = await openBytes(bytes);
  const info = archive.info();
  const key = deriveKey('key' in info ? info.key : 0);
  const out: { payload: Uint8Array; size: number }[] = [];
  const plain = (at: number, length: number) => {
    const raw = bytes.subarray(at, at + length);
    return key === 0 ? raw.slice() : positionCipher(raw, at, key);
  };
  for (const e of archive.entries as V1Entry[]) {
    if (e.dir || e.size === 0 || e.flag === 0) continue;
    const count = Math.ceil(e.size / CHUNK_SIZE);
    const table = new DataView(plain(e.dataOffset, count * 4).buffer);
    let at = e.dataOffset + count * 4;
    for (let i = 0; i < count; i++) {
      const length = table.getUint32(i * 4, true);
      const chunk = plain(at, length);
      const header = readChunkHeader(chunk, 0, at);
      const payload = chunk.subarray(SQSH_HEADER_SIZE);
      if (header.method === 1) out.push({ payload: header.scrambled ? unscramble(payload) : payload, size: header.size });
      at += length;
    }
  }
  await archive.close();
  return out;
}

describe('decodeLz77 against a byte-by-byte ring decoder', () => {
  it("gives HPIPack's chunks (ArmImp.ufo) the reference's bytes", async () => {
    const chunks = await lz77Payloads(new Uint8Array(await readFile(join(samplesDir, 'hpi', 'ArmImp.ufo'))));
    // One file of 46,276 bytes: a 64 KiB chunk's worth of HPIPack's own tokens.
    expect(chunks.map((c) => c.size)).toEqual([46_276]);
    for (const [i, { payload, size }] of chunks.entries()) expectSame(payload, size, `ArmImp.ufo chunk ${i}`);
  });

  it('gives our encoder output the reference bytes, and the input back', () => {
    let chunks = 0;
    for (const f of corpusFiles(40, 9)) {
      for (let o = 0; o < f.bytes.length; o += CHUNK_SIZE) {
        const input = f.bytes.subarray(o, o + CHUNK_SIZE);
        const stream = encodeLz77(input);
        expect(sameBytes(reference(stream, input.length) as Uint8Array, input), f.path).toBe('same');
        expect(sameBytes(decodeLz77(stream, input.length), input), f.path).toBe('same');
        chunks++;
      }
    }
    for (const kind of ['runs', 'noise', 'text'] as const) {
      const input = sampleBytes(31, CHUNK_SIZE, kind);
      expect(sameBytes(decodeLz77(encodeLz77(input), input.length), input), kind).toBe('same');
    }
    expect(chunks).toBeGreaterThan(40);
  });

  it('agrees on random streams of every size, near matches, far matches and the ring’s zeros', () => {
    const sizes = [0, 1, 2, 7, 17, 100, 143, 144, 145, 160, 300, 4095, 4096, 4097, 9000, 65536];
    for (let seed = 1; seed <= 160; seed++) {
      const size = sizes[seed % sizes.length]!;
      expectSame(randomStream(seed, size), size, `seed ${seed}, size ${size}`);
    }
  });

  it('keeps the word copies inside the output when groups of longest matches end at every offset near its end', () => {
    // `lead` literals, then `count` 17-byte matches (1 and 5 back: the fill and the word copy), then `tail`
    // literals: the last full groups' copies overrun their tokens by the most just before the checked tail.
    for (const back of [1, 5])
      for (let lead = back; lead < back + 9; lead++)
        for (let count = 1; count <= 10; count++)
          for (let tail = 0; tail <= 17; tail++) {
            const bytes: number[] = [];
            const tokens: (number | null)[] = [];
            for (let i = 0; i < lead; i++) tokens.push(i + 1);
            for (let i = 0; i < count; i++) tokens.push(null);
            for (let i = 0; i < tail; i++) tokens.push(200 + i);
            let q = 0;
            for (let t = 0; t <= tokens.length; t += 8) {
              let flags = 0;
              const body: number[] = [];
              for (let k = 0; k < 8 && t + k <= tokens.length; k++) {
                const token = t + k < tokens.length ? tokens[t + k]! : undefined;
                if (token === null || token === undefined) {
                  flags |= 1 << k;
                  const v = token === null ? (((q - back + 1) & 0xfff) << 4) | 15 : 0;
                  body.push(v & 0xff, v >>> 8);
                  q += token === null ? 17 : 0;
                } else {
                  body.push(token);
                  q++;
                }
              }
              bytes.push(flags, ...body);
            }
            expectSame(Uint8Array.from(bytes), q, `${back} back, ${lead} + ${count} × 17 + ${tail}`);
          }
  });

  it('writes only the first `size` bytes of a borrowed buffer and decodes the same into it', () => {
    for (let seed = 200; seed < 230; seed++) {
      const size = [150, 1000, 4097, 65536][seed % 4]!;
      const stream = randomStream(seed, size);
      const into = new Uint8Array(size + 64).fill(0xa5);
      const got = decodeLz77(stream, size, into);
      expect(got.buffer).toBe(into.buffer);
      expect(sameBytes(got, reference(stream, size) as Uint8Array), `seed ${seed}`).toBe('same');
      expect(
        into.subarray(size).every((b) => b === 0xa5),
        `seed ${seed}: bytes past size`,
      ).toBe(true);
    }
  });

  it('rejects the same damaged streams as the reference, only ever with a FormatError', () => {
    const rand = prng(77);
    const pick = (n: number) => Math.floor(rand() * n);
    let rejected = 0;
    for (let i = 0; i < 400; i++) {
      const size = [64, 500, 4100, 20000][i % 4]!;
      const stream = randomStream(1000 + i, size);
      const bad = stream.slice();
      const kind = i % 4;
      if (kind === 0) for (let f = 0; f < 1 + pick(6); f++) bad[pick(bad.length)] = pick(256);
      const cut = kind === 1 ? bad.subarray(0, pick(bad.length)) : bad;
      // A declared size off by a little or a lot, or the stream's own.
      const declared = kind === 2 ? Math.max(0, size + pick(41) - 20) : kind === 3 ? pick(2 * size + 200) : size;
      const want = reference(cut, declared);
      expectSame(cut, declared, `case ${i} (kind ${kind}, size ${declared})`);
      if (want === 'bad') rejected++;
    }
    expect(rejected).toBeGreaterThan(100);
  });

  it('says where a stream goes wrong: the input offset, the output position, the bytes produced', () => {
    const a = 0x61;
    const message = (src: number[], size: number) => {
      try {
        decodeLz77(Uint8Array.from(src), size);
      } catch (err) {
        expect(err).toBeInstanceOf(FormatError);
        return (err as FormatError).message;
      }
      return 'decoded';
    };
    expect(message([0x00, a, a, a], 2)).toBe('LZ77 output overruns its 2 bytes at input 3');
    expect(message([0x02, a, 0x10], 5)).toBe('LZ77 match cut off at input 2 of 3');
    // A literal, then 17 bytes from ring index 1 (the literal itself), into a 5-byte output.
    expect(message([0x02, a, 0x1f, 0x00], 5)).toBe('LZ77 output overruns its 5 bytes: 1 + 17');
    expect(message([0x00, a], 5)).toBe('LZ77 stream produced 1 bytes, expected 5');
    expect(message([0x02, a, 0x1f, 0x00], 18)).toBe('decoded');
  });

  it('decodes a stream larger than the memory a thread keeps, and small ones after it', () => {
    const big = sampleBytes(41, 3 << 20, 'text');
    expect(sameBytes(decodeLz77(encodeLz77(big), big.length), big)).toBe('same');
    const small = sampleBytes(42, 5000, 'text');
    expect(sameBytes(decodeLz77(encodeLz77(small), small.length), small)).toBe('same');
  });

  it('refuses, before growing any memory, a stream that would need more than a codec works in', () => {
    const input = Uint8Array.of(0, 1, 2);
    expect(() => hpiLz77Into(input.length, WASM_MAX_BYTES, new Uint8Array(0), (into) => into.set(input))).toThrow(/more than the/);
    // The thread's own instance is unharmed.
    const small = sampleBytes(43, 3000, 'runs');
    expect(sameBytes(decodeLz77(encodeLz77(small), small.length), small)).toBe('same');
  });
});
