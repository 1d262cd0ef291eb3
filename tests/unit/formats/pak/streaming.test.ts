import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChunkScratch } from '../../../../electron/formats/archive.js';
import { openArchive } from '../../../../electron/formats/index.js';
import { daikatanaEngine } from '../../../../electron/formats/daikatana/index.js';
import { DK_PIECE, DK_WINDOW, dkDecompress, dkDecompressPieces } from '../../../../electron/formats/daikatana/codec.js';
import { dkCompress } from '../../../../electron/formats/daikatana/encode.js';
import { LZ_PIECE, LZ_WINDOW, lz77Decode, lz77DecodePieces } from '../../../../electron/formats/pangya/lz77.js';
import { lz77Encode } from '../../../../electron/formats/pangya/lz77-encode.js';
import { MemorySource } from '../../../../electron/io/byte-source.js';
import { FormatError } from '../../../../shared/errors.js';
import { prng, withAllocationLimit } from '../../../helpers/fuzz.js';
import { samplesDir } from '../../../helpers/run-cli.js';

/**
 * The PAK family's streams (extract, verify, cat read entries through them): stored entries in slices,
 * Daikatana and Pangya entries decoded a window at a time. The bytes must be those of the whole decode,
 * on the real samples (checked against the digests in the samples' expected.json) and across piece
 * boundaries, and a hostile declared size must cost a window, not the size.
 */

const expected = JSON.parse(await readFile(join(samplesDir, 'expected.json'), 'utf8')) as Record<string, Record<string, string>>;
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const join8 = (parts: Uint8Array[]) => Uint8Array.from(Buffer.concat(parts));
/** Byte equality of large arrays, by digest (an element-by-element deep equal of megabytes is slow). */
const same = (a: Uint8Array, b: Uint8Array) =>
  expect({ length: a.length, sha256: sha256(a) }).toEqual({ length: b.length, sha256: sha256(b) });

/** Several MB that compress with back-references crossing every piece boundary: text, runs and noise. */
function mixed(size: number, seed: number): Uint8Array {
  const rand = prng(seed);
  const out = new Uint8Array(size);
  const line = new TextEncoder().encode('[UNITINFO]\r\n{\r\n\tUnitName=ARMCOM;\r\n\tMaxDamage=3000;\r\n}\r\n');
  for (let at = 0; at < size;) {
    const kind = rand();
    const n = Math.min(size - at, 1 + Math.floor(rand() * 700));
    if (kind < 0.4) for (let i = 0; i < n; i++) out[at + i] = line[(at + i) % line.length]!;
    else if (kind < 0.7) out.fill(kind < 0.55 ? 0 : (rand() * 256) | 0, at, at + n);
    else for (let i = 0; i < n; i++) out[at + i] = (rand() * 256) | 0;
    at += n;
  }
  return out;
}

/** Every piece copied (a lent window's pieces are only valid until the next). */
function collect(pieces: Iterable<Uint8Array>): { bytes: Uint8Array; count: number; buffers: Set<ArrayBufferLike> } {
  const parts: Uint8Array[] = [];
  const buffers = new Set<ArrayBufferLike>();
  for (const p of pieces) {
    parts.push(p.slice());
    buffers.add(p.buffer);
  }
  return { bytes: join8(parts), count: parts.length, buffers };
}

function formatErrorOf(fn: () => unknown): FormatError {
  try {
    fn();
  } catch (err) {
    if (err instanceof FormatError) return err;
    throw err;
  }
  throw new Error('no error');
}

describe('Daikatana decoded a window at a time', () => {
  const data = mixed(2 * DK_PIECE + 12_345, 5);
  const packed = dkCompress(data);

  it('gives the bytes of the whole decode, in a lent window or copies', () => {
    const lent = new Uint8Array(DK_WINDOW);
    const inWindow = collect(dkDecompressPieces(packed, data.length, lent));
    same(inWindow.bytes, data);
    expect(inWindow.count).toBeGreaterThanOrEqual(3);
    expect([...inWindow.buffers]).toEqual([lent.buffer]);
    const copies = collect(dkDecompressPieces(packed, data.length));
    same(copies.bytes, data);
    expect(copies.buffers.size).toBe(copies.count);
  });

  it('raises the whole decode’s errors, also past the first piece', () => {
    const cut = packed.subarray(0, packed.length - 1); // no 0xFF end marker
    const whole = formatErrorOf(() => dkDecompress(cut, data.length));
    expect(whole.message).toMatch(/ends without the 0xFF end marker after \d+ of \d+ bytes/);
    expect(formatErrorOf(() => collect(dkDecompressPieces(cut, data.length))).message).toBe(whole.message);
    const short = formatErrorOf(() => dkDecompress(packed, data.length - 1));
    expect(formatErrorOf(() => collect(dkDecompressPieces(packed, data.length - 1))).message).toBe(short.message);
    const long = formatErrorOf(() => dkDecompress(packed, data.length + 1));
    expect(long.code).toBe('size-mismatch');
    expect(formatErrorOf(() => collect(dkDecompressPieces(packed, data.length + 1))).message).toBe(long.message);
  });

  it('refuses a length no stream of that size can produce (65 bytes per stream byte) before allocating', async () => {
    const stream = Uint8Array.of(0x7f, 0xff); // 65 zeros, end
    expect(dkDecompress(stream, 65)).toEqual(new Uint8Array(65));
    const err = await withAllocationLimit(1 << 20, async () => formatErrorOf(() => dkDecompress(stream, 2 ** 31)));
    expect(err.code).toBe('size-mismatch');
    expect(err.message).toMatch(/2147483648 bytes cannot come from 2 stored bytes \(at most 65×\)/);
  });
});

/** A Daikatana PAK (header, data, 72-byte entries; formats.md) of one compressed entry. */
function daikatanaPak(name: string, stored: Uint8Array, length: number): Uint8Array {
  const dirAt = 12 + stored.length;
  const out = new Uint8Array(dirAt + 72);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode('PACK'));
  view.setInt32(4, dirAt, true);
  view.setInt32(8, 72, true);
  out.set(stored, 12);
  out.set(new TextEncoder().encode(name), dirAt);
  view.setInt32(dirAt + 56, 12, true);
  view.setInt32(dirAt + 60, length, true);
  view.setInt32(dirAt + 64, stored.length, true);
  view.setInt32(dirAt + 68, 1, true);
  return out;
}

describe('a Daikatana entry declaring 65 MB streams in one window', () => {
  const runs = 1_000_000;
  const stored = new Uint8Array(runs + 1).fill(0x7f); // a million runs of 65 zeros
  stored[runs] = 0xff;
  const length = 65 * runs;

  it('extraction’s stream stays within the window; the whole read would not', async () => {
    const archive = await daikatanaEngine.open(new MemorySource(daikatanaPak('maps/huge.bsp', stored, length)));
    const entry = archive.entries[0]!;
    expect(entry.size).toBe(length);
    const scratch = new ChunkScratch();
    const { total, buffers, nonZero } = await withAllocationLimit(4 << 20, async () => {
      let total = 0;
      let nonZero = 0;
      const buffers = new Set<ArrayBufferLike>();
      for await (const piece of archive.stream!(entry, undefined, scratch)) {
        total += piece.length;
        buffers.add(piece.buffer);
        if (piece[0] !== 0 || piece[piece.length - 1] !== 0) nonZero++;
      }
      return { total, buffers, nonZero };
    });
    expect(total).toBe(length);
    expect(nonZero).toBe(0);
    expect(buffers.size).toBe(1);
    expect([...buffers][0]!.byteLength).toBe(DK_WINDOW);
    await expect(withAllocationLimit(4 << 20, () => archive.read(entry))).rejects.toThrow(/exceeds the fuzz limit/);
  });
});

describe('Pangya LZ77 decoded a window at a time', () => {
  const data = mixed(2 * LZ_PIECE + 777, 9);

  it.each([1, 3] as const)('type %i gives the bytes of the whole decode, in a lent window or copies', (type) => {
    const packed = lz77Encode(data, type);
    same(lz77Decode(packed, data.length, type), data);
    const lent = new Uint8Array(LZ_WINDOW);
    const inWindow = collect(lz77DecodePieces(packed, data.length, type, lent));
    same(inWindow.bytes, data);
    expect(inWindow.count).toBeGreaterThanOrEqual(3);
    expect([...inWindow.buffers]).toEqual([lent.buffer]);
    same(collect(lz77DecodePieces(packed, data.length, type)).bytes, data);
    // A size that does not match fails the same way, after the last piece.
    const whole = formatErrorOf(() => lz77Decode(packed, data.length + 5, type));
    expect(formatErrorOf(() => collect(lz77DecodePieces(packed, data.length + 5, type))).message).toBe(whole.message);
    const short = formatErrorOf(() => lz77Decode(packed, data.length - 5, type));
    expect(formatErrorOf(() => collect(lz77DecodePieces(packed, data.length - 5, type))).message).toBe(short.message);
  });

  it('a stream of longest matches (8× its size) decodes in one window', async () => {
    // Group 1: a literal then seven matches of 17 at distance 1; then groups of eight such matches.
    const match = [0x01, 0xf0]; // v = 0xF001: distance 1, length 15 + 2
    const groups = 20_000;
    const stream: number[] = [0xfe, 0x41, ...Array(7).fill(match).flat()];
    for (let g = 0; g < groups; g++) stream.push(0xff, ...Array(8).fill(match).flat());
    const input = Uint8Array.from(stream);
    const size = 1 + 7 * 17 + groups * 8 * 17;
    const { total, buffers } = await withAllocationLimit(2 << 20, async () => {
      let total = 0;
      const buffers = new Set<ArrayBufferLike>();
      for (const piece of lz77DecodePieces(input, size, 1, new Uint8Array(LZ_WINDOW))) {
        total += piece.length;
        buffers.add(piece.buffer);
        if (piece[0] !== 0x41 || piece[piece.length - 1] !== 0x41 || piece.indexOf(0) !== -1) throw new Error('not all A');
      }
      return { total, buffers };
    });
    expect(total).toBe(size);
    expect(buffers.size).toBe(1);
  });
});

describe('streams over the real sample PAKs', () => {
  const keys = Object.keys(expected).filter((k) => /^pak\/(quake|daikatana|pangya)\//.test(k));

  it.each(keys)('%s: every entry streamed with a scratch has the digest of the file', async (key) => {
    const archive = await openArchive(join(samplesDir, key));
    try {
      const scratch = new ChunkScratch();
      const digests: Record<string, string> = {};
      for (const entry of archive.entries) {
        if (entry.dir) continue;
        const parts: Uint8Array[] = [];
        for await (const piece of archive.stream!(entry, undefined, scratch)) parts.push(piece.slice());
        const streamed = join8(parts);
        same(streamed, await archive.read(entry));
        digests[entry.path] = sha256(streamed);
      }
      for (const [path, digest] of Object.entries(expected[key]!)) expect(digests[path], path).toBe(digest);
    } finally {
      await archive.close();
    }
  });
});
