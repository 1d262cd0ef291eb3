import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractArchive, plannedWorkerScript, PARALLEL_BYTES } from '../../../electron/services/archive-extract.js';
import { EarlyWorkers, type EntryOutcome } from '../../../electron/services/extract-pool.js';
import { plannedOut, plannedPath, plannedWrite, type V1Plan } from '../../../electron/services/extract-plan.js';
import { FileSource } from '../../../electron/io/byte-source.js';
import { FolderWriter } from '../../../electron/io/folder-writer.js';
import { extractEveryFile, planned } from '../../helpers/extract-jobs.js';
import { packFile, packToBytes, sampleBytes } from '../formats/hpi/fixtures.js';

let work: string;
const files = Array.from({ length: 40 }, (_, i) => packFile(`dir${i % 3}/file${i}.bin`, sampleBytes(i, 3000 + i * 131, 'text')));

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'hpi-early-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

async function expectFiles(root: string, list: typeof files): Promise<void> {
  for (const f of list) {
    const got = await readFile(join(root, f.path));
    expect(got.equals(Buffer.from(await f.read())), f.path).toBe(true);
  }
}

describe('workers started before the directory is read', () => {
  it('are taken by a job with the same setup and write its files', async () => {
    const archive = join(work, 'a.ufo');
    await writeFile(archive, await packToBytes(files));
    const root = join(work, 'out');
    const early = new EarlyWorkers({ path: archive, root, keepGoing: false }, 1);
    // No `local`: every file goes to the one early worker.
    await extractEveryFile(
      archive,
      root,
      (hpi) => ({ outOf: (i) => join(root, hpi.entries[i]!.path), early }),
      (_hpi, indices, outcomes) => expect(outcomes.size).toBe(indices.length),
    );
    await expectFiles(root, files);
    // Taken: nothing is left for a second job.
    expect(await early.take(1, { path: archive, root, keepGoing: false })).toEqual([]);
  });

  it('of HPI v1 write every file from the plan they are sent, reading no directory', async () => {
    const archive = join(work, 'plan.ufo');
    await writeFile(archive, await packToBytes(files, { key: 0x7d }));
    const root = join(work, 'planned');
    const early = new EarlyWorkers({ path: archive, root, keepGoing: false }, 1, plannedWorkerScript);
    // A job with the format-neutral worker does not take them.
    expect(
      await new EarlyWorkers({ path: archive, root, keepGoing: false }, 1, plannedWorkerScript).take(1, {
        path: archive,
        root,
        keepGoing: false,
      }),
    ).toEqual([]);
    await extractEveryFile(
      archive,
      root,
      (hpi, indices) => ({ outOf: (i) => join(root, hpi.entries[i]!.path), early, ...planned(hpi, indices) }),
      (hpi, indices, outcomes) => {
        for (const i of indices) expect(outcomes.get(i)).toEqual({ kind: 'file', bytes: hpi.entries[i]!.size });
      },
    );
    await expectFiles(root, files);
  });

  it('that have started are taken at once: they get their plan before this thread writes a file', async () => {
    const archive = join(work, 'first.ufo');
    await writeFile(archive, await packToBytes(files, { key: 0x7d }));
    const root = join(work, 'first');
    const setup = { path: archive, root, keepGoing: false };
    const early = new EarlyWorkers(setup, 1, plannedWorkerScript);
    // Still starting: nothing to take without waiting.
    expect(early.takeStarted(1, setup, plannedWorkerScript)).toBeNull();
    await early.ready;
    const events: string[] = [];
    const takeStarted = early.takeStarted.bind(early);
    early.takeStarted = (...args) => {
      const taken = takeStarted(...args);
      events.push(`took ${taken?.length}`);
      return taken;
    };
    const source = FileSource.openSync(archive);
    try {
      await extractEveryFile(
        archive,
        root,
        (hpi, indices) => {
          const job = planned(hpi, indices);
          const plan = job.prelude as V1Plan;
          const write = plannedWrite(plan, source, new FolderWriter(root), false, () => {});
          // This thread writes its share as the extraction does: from the same plan.
          const local = async (from: number, to: number) => {
            events.push('wrote');
            const outcomes: [number, EntryOutcome][] = [];
            for (let at = from; at < to; at++) {
              const path = plannedPath(plan, at);
              outcomes.push([indices[at]!, write(at, path, plannedOut(root, path))]);
            }
            return outcomes;
          };
          return { ...job, early, local };
        },
        (hpi, indices, outcomes) => {
          for (const i of indices) expect(outcomes.get(i)).toEqual({ kind: 'file', bytes: hpi.entries[i]!.size });
        },
      );
    } finally {
      await source.close();
    }
    expect(events[0]).toBe('took 1');
    expect(events).toContain('wrote');
    await expectFiles(root, files);
  });

  it('of HPI v1 report a file they cannot write in its place among the range, the rest written', async () => {
    const archive = join(work, 'refuse.ufo');
    await writeFile(archive, await packToBytes(files, { key: 0x7d }));
    const root = join(work, 'refusing');
    // A folder where a file goes: that one file is refused.
    await mkdir(join(root, files[4]!.path), { recursive: true });
    await extractEveryFile(archive, root, planned, (hpi, indices, outcomes, order) => {
      // In the order handed out, one outcome each.
      expect(order).toEqual(indices);
      const refused = indices.filter((i) => outcomes.get(i)!.kind === 'refused').map((i) => hpi.entries[i]!.path);
      expect(refused).toEqual([files[4]!.path]);
    });
    await expectFiles(root, [...files.slice(0, 4), ...files.slice(5)]);
  });

  it('are not handed to a job with another setup, and are ended', async () => {
    const archive = join(work, 'b.ufo');
    await writeFile(archive, await packToBytes(files.slice(0, 3)));
    const early = new EarlyWorkers({ path: archive, root: join(work, 'x'), keepGoing: false }, 1);
    expect(await early.take(1, { path: archive, root: join(work, 'y'), keepGoing: false })).toEqual([]);
    const same = new EarlyWorkers({ path: archive, root: join(work, 'x'), keepGoing: false }, 2);
    const taken = await same.take(1, { path: archive, root: join(work, 'x'), keepGoing: false });
    expect(taken).toHaveLength(1);
    await taken[0]!.worker.terminate();
    // Closed while their bundle is still being found: none is started at all.
    const threads = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
    const started = vi.spyOn(threads, 'Worker');
    try {
      const spare = new EarlyWorkers({ path: archive, root: join(work, 'x'), keepGoing: false }, 2);
      await spare.close();
      expect(await spare.take(2, { path: archive, root: join(work, 'x'), keepGoing: false })).toEqual([]);
      expect(started).not.toHaveBeenCalled();
    } finally {
      started.mockRestore();
    }
  });

  it('serve a whole extraction of an archive past PARALLEL_BYTES with the same bytes as one thread', async () => {
    // 20 files of 1 MiB (noise: zlib keeps the archive past the threshold that starts workers early).
    const big = Array.from({ length: 20 }, (_, i) => packFile(`big/file${i}.bin`, sampleBytes(100 + i, 1 << 20, 'noise')));
    for (const method of ['zlib', 'none'] as const) {
      const bytes = await packToBytes(big, { method });
      expect(bytes.length).toBeGreaterThan(PARALLEL_BYTES);
      const archive = join(work, `big-${method}.hpi`);
      await writeFile(archive, bytes);
      const parallel = await extractArchive(archive, join(work, `${method}-par`));
      const serial = await extractArchive(archive, join(work, `${method}-ser`), { workers: 0 });
      // Stored entries want no workers (worthWorkers): the early ones are ended and this thread does it all.
      if (method === 'zlib') expect(parallel.threads).toBeGreaterThan(0);
      else expect(parallel.threads).toBe(0);
      expect({ ...parallel, threads: 0 }).toEqual(serial);
      await expectFiles(join(work, `${method}-par`), big);
    }
    // With globs the plan may be small: no early start, the same result.
    const some = await extractArchive(join(work, 'big-zlib.hpi'), join(work, 'big-some'), { globs: ['big/file1.bin'] });
    expect(some.files).toBe(1);
    await expectFiles(join(work, 'big-some'), [big[1]!]);
  });
});
