import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  extractArchive,
  PARALLEL_BYTES,
  PARALLEL_FILES,
  PARALLEL_STORED_FILES,
  rangeSplit,
  worthRangeWorkers,
  worthWorkers,
} from '../../../electron/services/archive-extract.js';
import { extractWithWorkers, type EntryOutcome } from '../../../electron/services/extract-pool.js';
import type { Archive, ArchiveEntry } from '../../../electron/formats/index.js';
import { engineFor, withArchive } from '../../../electron/formats/index.js';
import { MemorySink } from '../../../electron/io/byte-sink.js';

async function quakePak(files: { path: string; bytes: Uint8Array }[], format: 'pak' | 'daikatana' = 'pak'): Promise<Uint8Array> {
  const sink = new MemorySink();
  await engineFor(format).pack!(
    files.map((f) => ({ path: f.path, size: f.bytes.length, read: async () => f.bytes })),
    sink,
    {},
  );
  return sink.toBytes();
}

const entry = (method: string, size: number): ArchiveEntry => ({ path: 'x', dir: false, size, packedSize: size, method });
const all = (entries: ArchiveEntry[]) =>
  worthWorkers(
    entries,
    entries.map((_, i) => i),
  );

describe('when extraction starts worker threads', () => {
  it('counts only entries with something to decode towards the bytes and files that pay for a worker', () => {
    expect(all(Array.from({ length: PARALLEL_FILES }, () => entry('stored', 10)))).toBe(false);
    expect(all([entry('stored', PARALLEL_BYTES * 4)])).toBe(false);
    expect(all(Array.from({ length: PARALLEL_FILES }, () => entry('lz77', 10)))).toBe(true);
    expect(all([entry('dk', PARALLEL_BYTES), entry('stored', 1)])).toBe(true);
    expect(all([entry('lz77x', PARALLEL_BYTES - 1), entry('stored', 1)])).toBe(false);
    // A very large stored extraction is still shared: its opens and writes outweigh a worker's start.
    expect(all(Array.from({ length: PARALLEL_STORED_FILES }, () => entry('stored', 1)))).toBe(true);
  });

  it('only the planned entries count', () => {
    const entries = [entry('zlib', PARALLEL_BYTES), entry('stored', 1)];
    expect(worthWorkers(entries, [1])).toBe(false);
    expect(worthWorkers(entries, [0])).toBe(true);
  });
});

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pak-workers-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** An archive with only the entries' ranges known to it, so the decisions below see just what they use. */
const ranged = (entries: ArchiveEntry[], stored: (e: ArchiveEntry) => boolean) =>
  ({ entries, storedRange: (e: ArchiveEntry) => (stored(e) ? { offset: 0, length: e.size } : null) }) as unknown as Archive;

describe('when extraction starts range workers (stored entries copied as byte ranges)', () => {
  it('takes them for stored entries from PARALLEL_FILES files or PARALLEL_BYTES, the rest decoded here', () => {
    const stored = (e: ArchiveEntry) => e.method === 'stored';
    const split = (entries: ArchiveEntry[]) =>
      rangeSplit(
        ranged(entries, stored),
        entries.map((_, i) => i),
      );
    const many = [...Array.from({ length: PARALLEL_FILES }, () => entry('stored', 10)), entry('dk', 10)];
    expect(split(many)).toMatchObject({ decoded: [PARALLEL_FILES], copiedBytes: 10 * PARALLEL_FILES });
    expect(worthRangeWorkers(split(many)!)).toBe(true);
    expect(worthRangeWorkers(split([entry('stored', PARALLEL_BYTES), entry('stored', 1)])!)).toBe(true);
    expect(worthRangeWorkers(split([entry('stored', PARALLEL_BYTES - 2), entry('stored', 1)])!)).toBe(false);
    // Decoding worth decoding workers of its own gets them instead; so does an archive with no ranges.
    expect(split([...many, ...Array.from({ length: PARALLEL_FILES }, () => entry('dk', 10))])).toBeNull();
    expect(rangeSplit({ entries: many } as unknown as Archive, [0, 1])).toBeNull();
  });
});

describe('extracting a stored Quake PAK of many files', () => {
  it('copies on a range worker beside this thread, with the same bytes as this thread alone', async () => {
    const files = Array.from({ length: PARALLEL_FILES + 20 }, (_, i) => ({
      path: `d${i % 7}/f${i}.txt`,
      bytes: new TextEncoder().encode(`file ${i}\n`.repeat(1 + (i % 5))),
    }));
    const archive = join(work, 'many.pak');
    await writeFile(archive, await quakePak(files));
    const alone = await extractArchive(archive, join(work, 'alone'), { workers: 0 });
    const shared = await extractArchive(archive, join(work, 'shared'));
    expect(alone.threads).toBe(0);
    expect(shared.threads).toBe(1);
    expect({ ...alone, threads: 1 }).toEqual(shared);
    for (const f of [files[0]!, files[500]!, files.at(-1)!]) {
      expect(new Uint8Array(await readFile(join(work, 'alone', f.path)))).toEqual(f.bytes);
      expect(new Uint8Array(await readFile(join(work, 'shared', f.path)))).toEqual(f.bytes);
    }
  });
});

describe('a Daikatana PAK, compressed and stored entries mixed', () => {
  it('decodes the compressed ones here and copies the stored ones on range workers: every entry as the reader reads it', async () => {
    const files = Array.from({ length: PARALLEL_FILES + 200 }, (_, i) => ({
      path: i % 10 === 0 ? `textures/t${i}.tga` : `sound/s${i}.wav`,
      bytes: new TextEncoder().encode(`entry ${i} `.repeat(3 + (i % 40))),
    }));
    const archive = join(work, 'mixed-dk.pak');
    await writeFile(archive, await quakePak(files, 'daikatana'));
    const result = await extractArchive(archive, join(work, 'dk'));
    expect(result).toMatchObject({ files: files.length, threads: 1, refused: [], failed: [] });
    await withArchive(archive, async (a) => {
      expect(a.entries.filter((e) => e.method === 'dk').length).toBeGreaterThan(100);
      for (const e of a.entries) expect(new Uint8Array(await readFile(join(work, 'dk', e.path)))).toEqual(await a.read(e));
    });
  });
});

describe('the range worker alone (no batches taken by this thread)', () => {
  /** Every planned entry through the worker; outcomes by entry path. */
  async function onWorker(archive: string, root: string, ranges?: (e: ArchiveEntry) => { offset: number; length: number }) {
    return withArchive(archive, async (a) => {
      const outcomes = new Map<string, EntryOutcome>();
      await extractWithWorkers({
        archivePath: archive,
        root,
        keepGoing: false,
        indices: a.entries.map((_, i) => i),
        sizeOf: (i) => a.entries[i]!.size,
        outOf: (i) => join(root, a.entries[i]!.path),
        rangeOf: (i) => (ranges ?? ((e) => a.storedRange!(e)!))(a.entries[i]!),
        workers: 1,
        onFile: (i, outcome) => outcomes.set(a.entries[i]!.path, outcome),
      });
      return outcomes;
    });
  }

  it('writes large entries a piece at a time, refuses a link in the way and writes nothing outside the target', async () => {
    const big = Uint8Array.from({ length: (3 << 20) + 77 }, (_, i) => (i * 31 + (i >> 11)) & 0xff);
    const archive = join(work, 'links.pak');
    await writeFile(
      archive,
      await quakePak([
        { path: 'maps/e1m1.bsp', bytes: new TextEncoder().encode('map') },
        { path: 'big/level.bsp', bytes: big },
        { path: 'ok/x.txt', bytes: new TextEncoder().encode('fine') },
      ]),
    );
    const root = join(work, 'links-target');
    const outside = join(work, 'links-outside');
    await mkdir(root);
    await mkdir(outside);
    await symlink(outside, join(root, 'maps'));
    const outcomes = await onWorker(archive, root);
    expect(outcomes.get('maps/e1m1.bsp')).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/symbolic link/) });
    expect(outcomes.get('big/level.bsp')).toEqual({ kind: 'file', bytes: big.length });
    expect(await readdir(outside)).toEqual([]);
    expect(new Uint8Array(await readFile(join(root, 'big/level.bsp')))).toEqual(big);
    expect(await readFile(join(root, 'ok/x.txt'), 'utf8')).toBe('fine');
  });

  it('a range past the end of the file (the archive shrank since it was read) fails as a truncated archive', async () => {
    const archive = join(work, 'short.pak');
    await writeFile(archive, await quakePak([{ path: 'a.txt', bytes: new TextEncoder().encode('abc') }]));
    await expect(onWorker(archive, join(work, 'short'), () => ({ offset: 1 << 20, length: 10 }))).rejects.toMatchObject({
      code: 'truncated',
      message: expect.stringMatching(/unexpected end of file/),
    });
  });
});
