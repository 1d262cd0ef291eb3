import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeLz77, encodeLz77, encodeLz77Greedy, encodeLz77Literals, lz77CannotShrink } from '../../../../electron/formats/hpi/lz77.js';
import { decodeChunkAt } from '../../../../electron/formats/hpi/sqsh.js';
import { deflateSync } from 'node:zlib';
import { samplesDir } from '../../../helpers/run-cli.js';
import { fileChunks, sameBytes, sampleBytes } from './fixtures.js';

/**
 * The encoder keeps its match-finder tables from one input to the next (never cleared). These tests decode its streams with the library's decoder and with one written here
 * from formats.md (a 4096-byte zeroed ring, write position 1, absolute ring indices), and check that an
 * input's stream does not depend on what was encoded before it.
 */

interface RingMatch {
  /** Output position of the match's first byte. */
  at: number;
  distance: number;
  length: number;
}

/** formats.md's LZ77, as a ring: returns the output and every match (terminator excluded). */
function ringDecode(stream: Uint8Array): { out: number[]; distances: number[]; matches: RingMatch[] } {
  const ring = new Uint8Array(4096);
  const out: number[] = [];
  const distances: number[] = [];
  const matches: RingMatch[] = [];
  let w = 1;
  let ip = 0;
  for (;;) {
    const flags = stream[ip++]!;
    for (let bit = 0; bit < 8; bit++) {
      if ((flags & (1 << bit)) === 0) {
        const byte = stream[ip++]!;
        out.push(byte);
        ring[w] = byte;
        w = (w + 1) & 0xfff;
        continue;
      }
      const v = stream[ip]! | (stream[ip + 1]! << 8);
      ip += 2;
      let off = v >>> 4;
      if (off === 0) return { out, distances, matches };
      distances.push((w - off) & 0xfff || 4096);
      matches.push({ at: out.length, distance: distances.at(-1)!, length: (v & 0xf) + 2 });
      for (let k = 0; k < (v & 0xf) + 2; k++) {
        const byte = ring[off]!;
        off = (off + 1) & 0xfff;
        out.push(byte);
        ring[w] = byte;
        w = (w + 1) & 0xfff;
      }
    }
  }
}

/** All literals: the input, a flag byte per 8 tokens (the terminator is one more token) and the terminator's 2 bytes. */
const literalBound = (n: number) => n + Math.ceil((n + 1) / 8) + 2;

function sampleFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sampleFiles(full) : [full];
  });
}

function expectEncodes(input: Uint8Array): Uint8Array {
  const stream = encodeLz77(input);
  expect(sameBytes(decodeLz77(stream, input.length), input)).toBe('same');
  const ring = ringDecode(stream);
  expect(sameBytes(Uint8Array.from(ring.out), input)).toBe('same');
  expect(ring.distances.every((d) => d >= 1 && d <= 4095)).toBe(true);
  expect(stream.length).toBeLessThanOrEqual(literalBound(input.length));
  return stream;
}

/** Copies the 3 bytes at `from` to `to` with a different fourth byte: a 3-byte match, not a longer one. */
function decoy(data: Uint8Array, from: number, to: number): void {
  data.copyWithin(to, from, from + 3);
  data[to + 3] = data[from + 3]! ^ 0x80;
}

describe('HPI LZ77 encoder', () => {
  it('round-trips every sample file, in 64 KiB chunks and whole, never above all-literals or greedy', () => {
    const files = sampleFiles(samplesDir);
    expect(files.length).toBeGreaterThan(20);
    let ours = 0;
    let greedy = 0;
    for (const file of files) {
      const bytes = new Uint8Array(readFileSync(file));
      for (let at = 0; at < bytes.length; at += 65536) {
        const chunk = bytes.subarray(at, at + 65536);
        ours += expectEncodes(chunk).length;
        greedy += encodeLz77Greedy(chunk).length;
      }
      // HPI v2 stores a file as one chunk of any size.
      if (bytes.length > 65536) expectEncodes(bytes);
    }
    expect(ours).toBeLessThanOrEqual(greedy);
  });

  it('gives an input the same stream whatever was encoded before it (the tables are never cleared)', () => {
    const text = sampleBytes(21, 30_000, 'text');
    const runs = sampleBytes(22, 65_536, 'runs');
    const noise = sampleBytes(23, 9_000, 'noise');
    const big = sampleBytes(24, 200_000, 'text');
    const inputs = [text, runs, noise, text.subarray(7), big, new Uint8Array(5000), big.subarray(100_000, 165_536)];
    const first = inputs.map((input) => encodeLz77(input));
    // Every order of the same inputs, each before and after the others, and each twice in a row.
    for (const order of [
      [...inputs].reverse(),
      [inputs[4]!, inputs[0]!, inputs[0]!, inputs[2]!, inputs[1]!, inputs[6]!, inputs[3]!, inputs[5]!],
    ]) {
      for (const input of order) expect(sameBytes(encodeLz77(input), first[inputs.indexOf(input)]!)).toBe('same');
    }
  });

  it('finds matches inside inputs over 64 KiB and across the 16-bit wrap of positions', () => {
    // A 6-byte marker at 1,000 and again 65,536 later: the 2-byte table keeps positions mod 65,536, so the
    // second must not be coded against the first (65,536 back), only against what is within 4,095.
    const data = sampleBytes(25, 140_000, 'noise');
    const marker = [9, 8, 7, 6, 5, 4];
    data.set(marker, 1000);
    data.set(marker, 1000 + 65_536);
    data.set(marker, 1000 + 65_536 + 3000);
    const stream = expectEncodes(data);
    expect(ringDecode(stream).distances).toContain(3000);
  });

  it('finds repeats of exactly 3 bytes, which the 4-byte chains do not hold', () => {
    // Noise with 3-byte copies whose fourth byte differs from the original's: 50 of them, 40 to 4,095 back.
    const data = sampleBytes(27, 34_000, 'noise');
    const copies: { at: number; distance: number }[] = [];
    for (let k = 0; k < 50; k++) {
      const distance = k === 49 ? 4095 : 40 + k * 83;
      const at = 500 + k * 590 + distance;
      data.copyWithin(at, at - distance, at - distance + 3);
      if (data[at + 3] === data[at - distance + 3]) data[at + 3]! ^= 1;
      copies.push({ at, distance });
    }
    const found = ringDecode(expectEncodes(data)).matches;
    const coded = copies.filter((c) => found.some((m) => m.length === 3 && m.distance === c.distance && m.at === c.at));
    // The 3-byte table is hashed: a collision in the window may hide one, never many.
    expect(coded.length).toBeGreaterThanOrEqual(47);
    expect(coded.some((c) => c.distance === 4095)).toBe(true);
  });

  it("finds matches that end at the input's last byte, with 2 to 17 bytes left", () => {
    for (const left of [2, 3, 4, 5, 16, 17]) {
      for (const size of [600, 4096, 65_536]) {
        const data = sampleBytes(28, size, 'noise');
        const at = size - left;
        // Not 4,095 back from the end of 65,536: that source is at the terminator's ring slot.
        const distance = Math.min(3000, at - 1);
        data.copyWithin(at, at - distance, size - distance);
        // From 4 bytes on, a nearer copy of its first 3 bytes only, so the 3-byte table cannot stand in for the chains.
        if (left >= 4) decoy(data, at - distance, at - 20);
        const found = ringDecode(expectEncodes(data)).matches;
        expect(
          found.some((m) => m.at === at && m.distance === distance && m.length === left),
          `${left} left of ${size}`,
        ).toBe(true);
      }
    }
  });

  it("finds matches 4,095 back whose source is the input's first byte", () => {
    const data = sampleBytes(29, 8000, 'noise');
    data.copyWithin(4095, 0, 17);
    decoy(data, 0, 3000);
    const found = ringDecode(expectEncodes(data)).matches;
    expect(found.some((m) => m.at === 4095 && m.distance === 4095 && m.length === 17)).toBe(true);
  });

  it('looks past a run for an earlier run of the same byte and what followed it', () => {
    // Two 40-byte runs of one byte, each followed by the same 20 bytes, 360 apart: near the end of the
    // second run the best match is in the first (the run's last bytes and what follows), not in the run.
    const data = sampleBytes(30, 2000, 'noise');
    const tail = sampleBytes(31, 20, 'noise');
    for (const start of [500, 860]) {
      data.fill(0x5a, start, start + 40);
      data.set(tail, start + 40);
    }
    const found = ringDecode(expectEncodes(data)).matches;
    expect(found.some((m) => m.distance === 360 && m.at < 900 && m.at + m.length > 900)).toBe(true);
  });

  it('codes long runs and repeats as 17-byte matches through the whole input', () => {
    const zeros = new Uint8Array(65_536);
    // The first 17-byte match comes from the ring's zeros; then one 3-byte token per 17 bytes.
    expect(expectEncodes(zeros).length).toBeLessThanOrEqual(Math.ceil(65_536 / 17) * 2 + Math.ceil(65_536 / 17 / 8) + 3);
    const unit = sampleBytes(26, 300, 'noise');
    const repeated = new Uint8Array(60_000);
    for (let at = 0; at < repeated.length; at += unit.length) repeated.set(unit.subarray(0, repeated.length - at), at);
    // 300 literals and their flags, then 17-byte matches of 17 bits each, with slack for the few shorter
    // ones at the terminator's ring slot; a finder that lost the earlier copies would need far more.
    expect(expectEncodes(repeated).length).toBeLessThan(300 + 38 + Math.ceil(((60_000 - 300) / 17) * (17 / 8) * 1.05));
  });

  it('codes periodic data at every period as long matches, across chunk-sized inputs', () => {
    // Each period p: p literals, then 17-byte matches (3 bytes per 17, flags included) with slack for
    // the few matches that cannot start at the terminator's ring slot.
    for (const period of [1, 2, 3, 16, 17, 18, 1000, 4095]) {
      for (const size of [65_536, 65_535, 70_001]) {
        const unit = sampleBytes(40 + period, period, 'noise');
        const data = new Uint8Array(size);
        for (let at = 0; at < size; at += period) data.set(unit.subarray(0, size - at), at);
        const stream = expectEncodes(data);
        expect(stream.length, `period ${period}, ${size} bytes`).toBeLessThan(
          literalBound(period) + Math.ceil(((size - period) / 17) * (17 / 8) * 1.05) + 8,
        );
      }
    }
  });

  it('writes literal-only streams that decode back, at exactly the all-literals size', () => {
    for (const n of [0, 1, 7, 8, 9, 15, 16, 17, 4095, 4096, 65_536]) {
      const input = sampleBytes(50 + n, n, 'noise');
      const stream = encodeLz77Literals(input).slice();
      expect(stream.length, `${n} bytes`).toBe(literalBound(n));
      expect(sameBytes(decodeLz77(stream, n), input)).toBe('same');
      const ring = ringDecode(stream);
      expect(sameBytes(Uint8Array.from(ring.out), input)).toBe('same');
      expect(ring.distances).toEqual([]);
    }
  });

  it('calls only what LZ77 cannot shrink incompressible, and is right about it', () => {
    const noise = sampleBytes(60, 65_536, 'noise');
    const deflated = new Uint8Array(deflateSync(sampleBytes(61, 400_000, 'text'), { level: 9 })).subarray(0, 65_536);
    for (const data of [noise, deflated, noise.subarray(0, 300)]) {
      expect(lz77CannotShrink(data)).toBe(true);
      // The full encoder, given the same bytes, does not get below their own size either.
      expect(encodeLz77(data).length).toBeGreaterThanOrEqual(data.length);
    }
    // Compressible data, noise with a compressible stretch of 1/8 of it, and short inputs are encoded.
    const mixed = noise.slice();
    mixed.set(sampleBytes(62, 8192, 'runs'), 30_000);
    for (const data of [
      sampleBytes(63, 65_536, 'text'),
      sampleBytes(64, 65_536, 'runs'),
      new Uint8Array(65_536),
      mixed,
      noise.subarray(0, 255),
    ])
      expect(lz77CannotShrink(data)).toBe(false);
    // Over every sample file: whatever it calls incompressible, the encoder would not have shrunk.
    for (const file of sampleFiles(samplesDir)) {
      const bytes = new Uint8Array(readFileSync(file));
      for (let at = 0; at < bytes.length; at += 65536) {
        const chunk = bytes.subarray(at, at + 65536);
        if (lz77CannotShrink(chunk)) expect(encodeLz77(chunk).length, file).toBeGreaterThanOrEqual(chunk.length);
      }
    }
  });

  it('stores a file LZ77 cannot shrink, and gives the incompressible chunks of a mixed file literal-only streams', () => {
    expect(fileChunks(sampleBytes(70, 200_000, 'noise'), 1)).toBeNull();
    expect(fileChunks(new Uint8Array(0), 1)).toEqual([]);
    // zlib files keep their chunks whatever they hold.
    expect(fileChunks(sampleBytes(71, 1000, 'noise'), 2)).toHaveLength(1);
    // Text, then 64 KiB of noise, then runs: three chunks, the middle one all literals, all decoding back.
    const mixed = new Uint8Array(3 * 65_536);
    mixed.set(sampleBytes(72, 65_536, 'text'), 0);
    mixed.set(sampleBytes(73, 65_536, 'noise'), 65_536);
    mixed.set(sampleBytes(74, 65_536, 'runs'), 2 * 65_536);
    const chunks = fileChunks(mixed, 1)!;
    expect(chunks).toHaveLength(3);
    expect(chunks[1]!.length).toBe(19 + literalBound(65_536));
    const parts = chunks.map((c) => decodeChunkAt(c, 0, 0, 65_536).data);
    expect(sameBytes(Uint8Array.from(parts.flatMap((p) => Array.from(p))), mixed)).toBe('same');
  });
});
