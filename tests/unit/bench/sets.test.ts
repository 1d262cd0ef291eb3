import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { inFreshFoldersInTurns } from '../../../bench/targets.js';

// A set of runs taken in turns, as the bench's extraction and pack rows take theirs. The runs here are
// scripted times: what is under test is which set's medians stand.
describe("the bench's sets of runs", () => {
  let base: string;
  let log: MockInstance<typeof console.log>;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'modpak-sets-'));
    log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(base, { recursive: true, force: true });
  });

  /** A command whose runs take the scripted times in turn, each into a folder it finds fresh. */
  const scripted = (times: number[]) => {
    const folders: string[] = [];
    const fn = async (out: string) => {
      expect(existsSync(out)).toBe(false);
      await mkdir(out);
      folders.push(out);
      return { ms: times[folders.length - 1]! };
    };
    return { fn, folders };
  };

  it('keeps a steady set as measured', async () => {
    const a = scripted([100, 104, 98, 101, 130]);
    const b = scripted([50, 52, 51, 49, 53]);
    const [ra, rb] = await inFreshFoldersInTurns(base, 5, [a.fn, b.fn], { retryAfterMs: 0 });
    expect(ra).toMatchObject({ ms: 101, spread: [98, 104] });
    expect(rb).toMatchObject({ ms: 51, spread: [49, 52] });
    expect(a.folders).toHaveLength(5);
    expect(log).not.toHaveBeenCalled();
  });

  it('measures a set again when a slow spell met it, and the second set stands', async () => {
    // The PAK set of a bench run: pakextract at ten times its usual time in two runs of five.
    const modpak = scripted([150, 152, 149, 151, 150, 131, 133, 130, 132, 134]);
    const pakextract = scripted([70, 820, 839, 72, 71, 66, 68, 65, 67, 69]);
    const [m, p] = await inFreshFoldersInTurns(base, 5, [modpak.fn, pakextract.fn], { retryAfterMs: 0 });
    expect(m).toMatchObject({ ms: 132, spread: [130, 133] });
    expect(p).toMatchObject({ ms: 67, spread: [65, 68] });
    expect([modpak.folders.length, pakextract.folders.length]).toEqual([10, 10]);
    expect(log.mock.calls.map((c) => c.join(' '))).toEqual([
      '(a set of runs was unsteady, fastest / slowest 70 ms / 820 ms: measured once more, 0 s on)',
    ]);
  });

  it('lets a second unsteady set stand too: its rows then go unjudged', async () => {
    const cp = scripted([500, 1800, 2000, 510, 505, 520, 2400, 2600, 515, 530]);
    const [r] = await inFreshFoldersInTurns(base, 5, [cp.fn], { retryAfterMs: 0 });
    expect(r).toMatchObject({ ms: 530, spread: [515, 2400] });
    expect(cp.folders).toHaveLength(10);
    expect(log).toHaveBeenCalledTimes(1);
  });
});
