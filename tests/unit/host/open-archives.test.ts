import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, readdir, readlink, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenArchiveCache } from '../../../electron/services/open-archives.js';
import { archiveHandlers } from '../../../electron/services/handlers/archive.js';
import type { CallContext } from '../../../electron/services/host/types.js';
import { samplesDir } from '../../helpers/run-cli.js';

/**
 * The host's open-archive cache behind `archive.read`: a preview click reads through an archive kept
 * open, keyed by path + modification time + size, bounded, its handles closed when it leaves.
 */
let dir: string;
const copies: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modpak-open-archives-'));
  for (const name of ['ArmBani.ufo', 'ArmImp.ufo', 'ArmSLab.ufo']) {
    await copyFile(join(samplesDir, 'hpi', name), join(dir, name));
    copies.push(join(dir, name));
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** File descriptors of this process open on `path` (Linux /proc). */
async function handlesOn(path: string): Promise<number> {
  let n = 0;
  for (const fd of await readdir('/proc/self/fd')) if ((await readlink(`/proc/self/fd/${fd}`).catch(() => '')) === path) n++;
  return n;
}

const firstFile = async (cache: OpenArchiveCache, path: string) => cache.use(path, async (a) => a.entries.find((e) => !e.dir)!.path);

describe('OpenArchiveCache', () => {
  it('opens a file once for many reads while its time and size stay; a rewritten file is opened afresh', async () => {
    const cache = new OpenArchiveCache();
    const [bani] = copies as [string];
    const names = new Set<string>();
    for (let i = 0; i < 5; i++) names.add(await firstFile(cache, bani));
    expect(cache.opened).toBe(1);
    expect(await handlesOn(bani)).toBe(1);
    // A new modification time (the file was written again): the old handle goes, one new one opens.
    const later = new Date(Date.now() + 5000);
    await utimes(bani, later, later);
    await firstFile(cache, bani);
    expect(cache.opened).toBe(2);
    expect(await handlesOn(bani)).toBe(1);
    await cache.close();
    expect(await handlesOn(bani)).toBe(0);
  });

  it('is bounded: the least recently used archive is closed when a new one comes in, after its reader is done', async () => {
    const cache = new OpenArchiveCache(2);
    const [a, b, c] = copies as [string, string, string];
    await firstFile(cache, a);
    let release!: () => void;
    let started!: () => void;
    const begun = new Promise<void>((r) => (started = r));
    const reading = cache.use(
      b,
      () =>
        new Promise<void>((r) => {
          release = r;
          started();
        }),
    );
    await begun;
    await firstFile(cache, a); // a is now the most recent, b the least
    await firstFile(cache, c); // evicts b, which is still being read
    expect(cache.size).toBe(2);
    expect(await handlesOn(b)).toBe(1);
    release();
    await reading;
    expect(await handlesOn(b)).toBe(0);
    expect([await handlesOn(a), await handlesOn(c)]).toEqual([1, 1]);
    await firstFile(cache, a);
    expect(cache.opened).toBe(3);
    await cache.close();
    expect([await handlesOn(a), await handlesOn(c)]).toEqual([0, 0]);
  });

  it('archive.read: preview clicks on one archive parse its directory once', async () => {
    const cache = new OpenArchiveCache();
    const read = archiveHandlers(undefined, undefined, cache)['archive.read'];
    const [bani] = copies as [string];
    const entries = await cache.use(bani, async (a) =>
      a.entries
        .filter((e) => !e.dir)
        .slice(0, 4)
        .map((e) => e.path),
    );
    const ctx = {} as CallContext;
    for (const entry of entries) expect((await read({ path: bani, entry }, ctx)).path).toBe(entry);
    expect(cache.opened).toBe(1);
    await cache.close();
  });
});
