import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntryOutcome } from '../../../electron/services/extract-pool.js';
import { extractEveryFile, planned } from '../../helpers/extract-jobs.js';
import { packFile, packToBytes, sampleBytes } from '../formats/hpi/fixtures.js';

let work: string;
// 640 files in folders of 64, stored in order: 20 batches of 32 files.
const files = Array.from({ length: 640 }, (_, i) =>
  packFile(
    `dir${String(Math.floor(i / 64)).padStart(2, '0')}/file${String(i).padStart(3, '0')}.bin`,
    sampleBytes(i, 200 + (i % 7) * 50, 'text'),
  ),
);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'extract-runs-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('threads of one extraction', () => {
  it('work through runs of files of their own, not alternate batches', async () => {
    const archive = join(work, 'a.ufo');
    await writeFile(archive, await packToBytes(files));
    const root = join(work, 'out');
    const byThisThread = new Set<number>();
    let sawWorker = () => {};
    const workerWrote = new Promise<void>((resolve) => (sawWorker = resolve));
    await extractEveryFile(
      archive,
      root,
      (hpi, indices) => ({
        ...planned(hpi, indices),
        // This thread writes nothing. Its first batch ends once the worker has written files, so that
        // the worker is surely under way when this thread asks for its second; the later ones are slow.
        local: async (from, to) => {
          if (byThisThread.size === 0) await Promise.race([workerWrote, new Promise((resolve) => setTimeout(resolve, 10_000))]);
          else await new Promise((resolve) => setTimeout(resolve, 20));
          const done: [number, EntryOutcome][] = [];
          for (let at = from; at < to; at++) {
            byThisThread.add(at);
            done.push([indices[at]!, { kind: 'file', bytes: 0 }]);
          }
          return done;
        },
        onFile: (i) => {
          if (!byThisThread.has(indices.indexOf(i))) sawWorker();
        },
      }),
      (_hpi, _indices, outcomes) => expect(outcomes.size).toBe(files.length),
    );
    // Which thread had each file, in stored order: the worker's are the ones on disk.
    const owners = files.map((f, at) => (byThisThread.has(at) ? 'this' : 'worker'));
    for (const [at, f] of files.entries()) expect(existsSync(join(root, f.path)), f.path).toBe(owners[at] === 'worker');
    expect(owners).toContain('worker');
    expect(owners[0]).toBe('this');
    // Batches handed out in turns change hands at least three times here (this thread has batch 0, the
    // worker the next three, this thread the one after); runs of their own meet once.
    const changes = owners.filter((owner, at) => at > 0 && owner !== owners[at - 1]).length;
    expect(changes).toBeLessThanOrEqual(2);
    const some = files.find((_, at) => owners[at] === 'worker')!;
    expect((await readFile(join(root, some.path))).equals(Buffer.from(await some.read()))).toBe(true);
  });
});
