import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChunkScratch } from '../../../../electron/formats/archive.js';
import { HpiV1Archive } from '../../../../electron/formats/hpi/v1-reader.js';
import type { V1Entry } from '../../../../electron/formats/hpi/v1-directory.js';
import { v1PiecesSync } from '../../../../electron/formats/hpi/v1-pieces.js';
import { FileSource } from '../../../../electron/io/byte-source.js';
import { FolderWriter } from '../../../../electron/io/folder-writer.js';
import { FormatError } from '../../../../shared/errors.js';
import { packFile, packToBytes, sampleBytes } from './fixtures.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'v1-pieces-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

// Sizes around a chunk (64 KiB) and a stored slice (128 KiB), several files so reads cross the read-ahead block.
const sizes = [0, 1, 3, 255, 4096, 65535, 65536, 65537, 131071, 131073, 300_000];
const files = sizes.flatMap((size, i) => [
  packFile(`text/f${i}.txt`, sampleBytes(i, size, 'text')),
  packFile(`noise/f${i}.bin`, sampleBytes(50 + i, size, 'noise')),
]);

/** Every piece copied out (they are views of one scratch, valid until the next). */
function piecesOf(source: FileSource, archive: HpiV1Archive, entry: V1Entry, scratch: ChunkScratch): Uint8Array {
  const parts: Uint8Array[] = [];
  v1PiecesSync(source.readTransientSync.bind(source), source.size, archive.cipherKey, entry, (p) => parts.push(p.slice()), scratch);
  return Buffer.concat(parts);
}

describe('v1PiecesSync', () => {
  for (const options of [{ key: 0 }, { key: 0x7d }, { key: 0xfe, method: 'zlib' as const }, { key: 0x31, method: 'none' as const }]) {
    it(`gives each file's bytes as read, from its offset, size and flag alone (${JSON.stringify(options)})`, async () => {
      const path = join(work, `a-${options.key}-${options.method ?? 'lz77'}.hpi`);
      await writeFile(path, await packToBytes(files, options));
      const source = await FileSource.open(path);
      const archive = await HpiV1Archive.open(source);
      try {
        const scratch = new ChunkScratch();
        const entries = archive.entries.filter((e) => !e.dir);
        expect(entries).toHaveLength(files.length);
        for (const entry of entries) {
          const want = await archive.read(entry);
          expect(Buffer.from(piecesOf(source, archive, entry, scratch)).equals(Buffer.from(want)), entry.path).toBe(true);
        }
        // Out of order too: each read is exact when it is not the next one.
        for (const entry of [...entries].reverse()) {
          expect(Buffer.from(piecesOf(source, archive, entry, scratch)).equals(Buffer.from(await archive.read(entry))), entry.path).toBe(
            true,
          );
        }
      } finally {
        await archive.close();
      }
    });
  }

  it('fails a damaged chunk with the same FormatError as the stream, and the writer leaves no file', async () => {
    const bytes = await packToBytes([packFile('a/big.txt', sampleBytes(7, 200_000, 'text'))], { key: 0x7d });
    const path = join(work, 'damaged.hpi');
    await writeFile(path, bytes);
    const clean = await HpiV1Archive.open(await FileSource.open(path));
    const entry = clean.entries.find((e) => !e.dir)!;
    await clean.close();
    // The second chunk's magic broken: it sits past the 4-entry chunk table and the first chunk.
    const damaged = Uint8Array.from(bytes);
    const tableAt = entry.dataOffset;
    const plain = (at: number) => damaged[at]! ^ (at & 0xff) ^ clean.cipherKey;
    const firstSize = plain(tableAt) | (plain(tableAt + 1) << 8) | (plain(tableAt + 2) << 16) | (plain(tableAt + 3) << 24);
    const secondAt = tableAt + 16 + firstSize;
    damaged[secondAt] = damaged[secondAt]! ^ 0xff;
    await writeFile(path, damaged);
    const src = await FileSource.open(path);
    const bad = await HpiV1Archive.open(src);
    try {
      const e = bad.entries.find((x) => !x.dir)!;
      let streamed: unknown;
      try {
        for await (const piece of bad.stream(e)) void piece;
      } catch (err) {
        streamed = err;
      }
      expect(streamed).toBeInstanceOf(FormatError);
      const writer = new FolderWriter(join(work, 'out'));
      const out = join(work, 'out', 'a', 'big.txt');
      let pieces = 0;
      expect(() =>
        writer.writeSync(out, (put) =>
          v1PiecesSync(src.readTransientSync.bind(src), src.size, bad.cipherKey, e, (p) => (pieces++, put(p)), new ChunkScratch()),
        ),
      ).toThrow((streamed as Error).message);
      // The first chunk was written before the second failed; the half-written file is removed.
      expect(pieces).toBe(1);
      expect(existsSync(out)).toBe(false);
    } finally {
      await bad.close();
    }
  });

  it('writeSync writes every piece in order and counts them', async () => {
    const writer = new FolderWriter(join(work, 'w'));
    const out = join(work, 'w', 'x', 'y.bin');
    const a = sampleBytes(1, 1000, 'noise');
    const b = sampleBytes(2, 70_000, 'noise');
    expect(writer.writeSync(out, (put) => (put(a), put(b)))).toBe(71_000);
    expect(Buffer.from(await readFile(out)).equals(Buffer.concat([a, b]))).toBe(true);
  });
});
