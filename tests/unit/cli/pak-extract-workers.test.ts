import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  extractArchive,
  PARALLEL_BYTES,
  PARALLEL_FILES,
  PARALLEL_STORED_FILES,
  worthWorkers,
} from '../../../electron/services/archive-extract.js';
import type { ArchiveEntry } from '../../../electron/formats/index.js';
import { engineFor } from '../../../electron/formats/index.js';
import { MemorySink } from '../../../electron/io/byte-sink.js';

async function quakePak(files: { path: string; bytes: Uint8Array }[]): Promise<Uint8Array> {
  const sink = new MemorySink();
  await engineFor('pak').pack!(
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

describe('extracting a stored Quake PAK of many files', () => {
  it('writes every file in this thread, with the same bytes as on worker threads', async () => {
    const files = Array.from({ length: PARALLEL_FILES + 20 }, (_, i) => ({
      path: `d${i % 7}/f${i}.txt`,
      bytes: new TextEncoder().encode(`file ${i}\n`.repeat(1 + (i % 5))),
    }));
    const archive = join(work, 'many.pak');
    await writeFile(archive, await quakePak(files));
    const alone = await extractArchive(archive, join(work, 'alone'));
    const shared = await extractArchive(archive, join(work, 'shared'), { workers: 1 });
    expect(alone.threads).toBe(0);
    expect(shared.threads).toBe(1);
    expect({ ...alone, threads: 1 }).toEqual(shared);
    for (const f of [files[0]!, files[500]!, files.at(-1)!]) {
      expect(new Uint8Array(await readFile(join(work, 'alone', f.path)))).toEqual(f.bytes);
      expect(new Uint8Array(await readFile(join(work, 'shared', f.path)))).toEqual(f.bytes);
    }
  });
});
