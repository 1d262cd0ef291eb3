import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LZ_WINDOW, lz77Decode, lz77DecodePieces, type PangyaLzType } from '../../../../electron/formats/pangya/lz77.js';
import { lz77Encode } from '../../../../electron/formats/pangya/lz77-encode.js';
import { openArchiveSource } from '../../../../electron/formats/index.js';
import { MemorySource } from '../../../../electron/io/byte-source.js';
import type { PangyaEntry } from '../../../../electron/formats/pangya/table.js';
import { FormatError } from '../../../../shared/errors.js';
import { prng } from '../../../helpers/prng.js';
import { samplesDir } from '../../../helpers/run-cli.js';

/**
 * The decoder's fast paths (whole groups, eight literals at once, the first two bytes of a match) against
 * the plainest decoder the format description allows, written here: one flag byte, eight tokens LSB
 * first, 1 = a little-endian u16 match (distance v & 0xFFF, length (v >> 12) + 2, copied byte by byte);
 * type 3 flips the flags with 0xC8 and XORs each match word with the pad picked by (raw >> 3) & 7.
 */
const SPEC_PAD = [0xff21, 0x834f, 0x675f, 0x0034, 0xf237, 0x815f, 0x4765, 0x0233];

/** The reference: the decoded bytes, or 'bad' when the stream is not a valid `size`-byte stream. */
function referenceDecode(input: Uint8Array, size: number, type: PangyaLzType): Uint8Array | 'bad' {
  const out: number[] = [];
  let ip = 0;
  while (ip < input.length) {
    const raw = input[ip++]!;
    const flags = type === 3 ? raw ^ 0xc8 : raw;
    const pad = type === 3 ? SPEC_PAD[(raw >> 3) & 7]! : 0;
    for (let bit = 0; bit < 8 && ip < input.length; bit++) {
      if ((flags & (1 << bit)) === 0) {
        out.push(input[ip++]!);
      } else {
        if (ip + 2 > input.length) return 'bad';
        const v = (input[ip]! | (input[ip + 1]! << 8)) ^ pad;
        ip += 2;
        const distance = v & 0xfff;
        const length = (v >> 12) + 2;
        if (distance === 0 || distance > out.length) return 'bad';
        for (let i = 0; i < length; i++) out.push(out[out.length - distance]!);
      }
      if (out.length > size) return 'bad';
    }
  }
  return out.length === size ? Uint8Array.from(out) : 'bad';
}

function fastDecode(input: Uint8Array, size: number, type: PangyaLzType): Uint8Array | 'bad' {
  try {
    return lz77Decode(input, size, type);
  } catch (err) {
    if (err instanceof FormatError) return 'bad';
    throw err;
  }
}

/** The piecewise decoder's pieces joined (each piece is a view of the window, so it is copied at once). */
function piecesDecode(input: Uint8Array, size: number, type: PangyaLzType): Uint8Array | 'bad' {
  const out = new Uint8Array(size);
  let at = 0;
  try {
    for (const piece of lz77DecodePieces(input, size, type, new Uint8Array(LZ_WINDOW))) {
      out.set(piece, at);
      at += piece.length;
    }
  } catch (err) {
    if (err instanceof FormatError) return 'bad';
    throw err;
  }
  return out;
}

/** A valid stream of random tokens (literal runs, short and long, overlapping and distant matches) and its size. */
function randomStream(rand: () => number, tokens: number, type: PangyaLzType): { stream: Uint8Array; size: number } {
  const bytes: number[] = [];
  let produced = 0;
  const literalBias = rand();
  for (let t = 0; t < tokens; t += 8) {
    // The group's flags first: type 3's pad comes from the stored (raw) flag byte.
    let flags = 0;
    for (let k = 0; k < 8; k++) if ((produced > 0 || k > 0) && rand() > literalBias) flags |= 1 << k;
    const raw = type === 3 ? flags ^ 0xc8 : flags;
    const pad = type === 3 ? SPEC_PAD[(raw >> 3) & 7]! : 0;
    bytes.push(raw);
    for (let k = 0; k < 8 && t + k < tokens; k++) {
      if (flags & (1 << k)) {
        const distance = 1 + Math.floor(rand() * Math.min(produced, 4095));
        const length = 2 + Math.floor(rand() * 16);
        const v = (distance | ((length - 2) << 12)) ^ pad;
        bytes.push(v & 0xff, v >> 8);
        produced += length;
      } else {
        bytes.push(Math.floor(rand() * 256));
        produced++;
      }
    }
  }
  return { stream: Uint8Array.from(bytes), size: produced };
}

const agreeOn = (input: Uint8Array, size: number, type: PangyaLzType) => {
  const want = referenceDecode(input, size, type);
  const fast = fastDecode(input, size, type);
  const pieces = piecesDecode(input, size, type);
  if (want === 'bad') {
    expect(fast).toBe('bad');
    expect(pieces).toBe('bad');
  } else {
    expect(fast === 'bad' ? 'bad' : Buffer.from(fast).equals(Buffer.from(want))).toBe(true);
    expect(pieces === 'bad' ? 'bad' : Buffer.from(pieces).equals(Buffer.from(want))).toBe(true);
  }
  return want;
};

describe('Pangya LZ77 against a reference decoder written from the format description', () => {
  for (const type of [1, 3] as const) {
    it(`type ${type}: random valid streams, from a few tokens to several windows' worth`, () => {
      const rand = prng(type * 7919);
      for (let i = 0; i < 50; i++) {
        const tokens = i < 40 ? 1 + Math.floor(rand() * 400) : 20_000 + Math.floor(rand() * 40_000);
        const { stream, size } = randomStream(rand, tokens, type);
        expect(agreeOn(stream, size, type)).not.toBe('bad');
      }
    });

    it(`type ${type}: random bytes and damaged streams fail alike (FormatError), or decode alike`, () => {
      const rand = prng(type * 104729);
      let good = 0;
      for (let i = 0; i < 400; i++) {
        const { stream, size } = randomStream(rand, 1 + Math.floor(rand() * 300), type);
        const damaged = stream.slice();
        const kind = i % 4;
        if (kind === 0) for (let k = 0; k < damaged.length; k++) damaged[k] = Math.floor(rand() * 256);
        else if (kind === 1) damaged[Math.floor(rand() * damaged.length)]! ^= 1 + Math.floor(rand() * 255);
        const input = kind === 2 ? damaged.subarray(0, Math.floor(rand() * damaged.length)) : damaged;
        // Sizes off by a little, so output that runs over or stops short is met too.
        const declared = kind === 3 ? Math.max(0, size + Math.floor(rand() * 5) - 2) : size;
        if (agreeOn(input, declared, type) !== 'bad') good++;
      }
      expect(good).toBeGreaterThan(0);
    });

    it(`type ${type}: streams far longer than their declared size, and bytes long past a stream's end, fail alike`, () => {
      const rand = prng(type * 31);
      for (let i = 0; i < 12; i++) {
        const { stream, size } = randomStream(rand, 2_000 + Math.floor(rand() * 60_000), type);
        // Declared a tenth of it or less; or the whole stream, then zeros (literal groups) past twice its output.
        expect(agreeOn(stream, Math.floor((size * rand()) / 10), type)).toBe('bad');
        const trailing = new Uint8Array(stream.length + 2 * size + 100 + i * 1000);
        trailing.set(stream);
        expect(agreeOn(trailing, size, type)).toBe('bad');
      }
    });

    it(`type ${type}: text and runs as the encoder writes them`, () => {
      const rand = prng(type);
      const data = new Uint8Array(600_000);
      for (let i = 0; i < data.length;) {
        const run = 1 + Math.floor(rand() * 30);
        const value = rand() < 0.3 ? 0 : Math.floor(rand() * 256);
        data.fill(value, i, Math.min(data.length, i + run));
        i += run;
      }
      const stream = lz77Encode(data, type);
      const back = agreeOn(stream, data.length, type);
      expect(back !== 'bad' && Buffer.from(back).equals(Buffer.from(data))).toBe(true);
    });
  }

  it('every compressed entry of the Pangya samples decodes as the reference does', async () => {
    const dir = join(samplesDir, 'pak', 'pangya');
    let checked = 0;
    for (const name of ['lzpak_v1_xor_lz77.pak', 'lzpak_v3_xtea_kr_lz772.pak', 'pangpak_xtea_kr_lz772.pak', 'pangpak_xtea_us_lz77.pak']) {
      const bytes = new Uint8Array(await readFile(join(dir, name)));
      const archive = await openArchiveSource(new MemorySource(bytes, name));
      for (const entry of archive.entries as readonly PangyaEntry[]) {
        if (entry.dir || entry.method === 'stored') continue;
        const packed = bytes.subarray(entry.offset, entry.offset + entry.packedSize);
        expect(agreeOn(packed, entry.size, entry.method === 'lz77x' ? 3 : 1)).not.toBe('bad');
        checked++;
      }
      await archive.close();
    }
    expect(checked).toBeGreaterThan(3);
  });
});
