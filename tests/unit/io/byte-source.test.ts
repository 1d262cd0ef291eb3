import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSource } from '../../../electron/io/byte-source.js';
import { FormatError } from '../../../shared/errors.js';

let work: string;
let path: string;
// 1.5 MiB of bytes whose value says where they sit, so any misplaced read shows.
const bytes = Uint8Array.from({ length: 3 << 19 }, (_, i) => (i * 31 + (i >>> 8)) & 0xff);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'byte-source-'));
  path = join(work, 'f.bin');
  await writeFile(path, bytes);
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('FileSource', () => {
  for (const [label, open] of [
    ['async open', () => FileSource.open(path)],
    ['sync open', async () => FileSource.openSync(path)],
  ] as const) {
    it(`${label}: sequential reads of every size across its read-ahead blocks give the file's bytes, and earlier pieces stay valid`, async () => {
      const source = await open();
      const held: [number, Uint8Array][] = [];
      let at = 100;
      for (let i = 0; at < bytes.length; i++) {
        const length = Math.min([1, 19, 4, 4000, 65_555, 131_072, 200_000][i % 7]!, bytes.length - at);
        const piece = await source.read(at, length);
        expect(piece.length).toBe(length);
        held.push([at, piece]);
        at += length;
      }
      for (const [offset, piece] of held)
        expect(Buffer.from(piece).equals(Buffer.from(bytes.subarray(offset, offset + piece.length))), `at ${offset}`).toBe(true);
      // Random reads, backwards and far ahead, are exact too.
      expect(Array.from(await source.read(5, 3))).toEqual(Array.from(bytes.subarray(5, 8)));
      expect(Array.from(await source.read(1_000_000, 2))).toEqual(Array.from(bytes.subarray(1_000_000, 1_000_002)));
      await expect(source.read(bytes.length - 2, 3)).rejects.toBeInstanceOf(FormatError);
      await source.close();
    });

    it(`${label}: transient reads give the file's bytes, and never overwrite a piece a plain read lent`, async () => {
      const source = await open();
      const held: [number, Uint8Array][] = [];
      let at = 7;
      for (let i = 0; at < bytes.length; i++) {
        const length = Math.min([19, 65_555, 4, 131_072, 3000][i % 5]!, bytes.length - at);
        // Every seventh piece is a plain read, held to the end; the transient ones are checked at once.
        const plain = i % 7 === 3;
        const piece = plain ? await source.read(at, length) : await source.readTransient(at, length);
        expect(Buffer.from(piece).equals(Buffer.from(bytes.subarray(at, at + length))), `at ${at}`).toBe(true);
        if (plain) held.push([at, piece]);
        at += length;
      }
      for (const [offset, piece] of held)
        expect(Buffer.from(piece).equals(Buffer.from(bytes.subarray(offset, offset + piece.length))), `held at ${offset}`).toBe(true);
      await expect(source.readTransient(bytes.length - 2, 3)).rejects.toBeInstanceOf(FormatError);
      await source.close();
    });
  }

  it('a long run of transient reads refills one buffer instead of allocating a block each time', async () => {
    const source = await FileSource.open(path);
    const buffers = new Set<ArrayBufferLike>();
    // The first read is a random one (exact, its own array); the run reads ahead from the second on.
    await source.readTransient(0, 4096);
    for (let at = 4096; at + 4096 <= bytes.length; at += 4096) buffers.add((await source.readTransient(at, 4096)).buffer);
    expect(buffers.size).toBe(1);
    await source.close();
  });
});
