import { describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBin, runCli, samplesDir } from '../../helpers/run-cli.js';

/**
 * The bundle evaluates picomatch only when a glob is first used (a stand-in made by bin/cli-bundle.mjs):
 * the bundled CLI matches globs exactly as the sources do, and starts without one work as before.
 */
const sample = join(samplesDir, 'pak/quake/quakespasm-0.95.1.pak');

describe('globs in the bundled CLI', () => {
  it('lists what the sources list, for plain, extglob and folder globs and for none', async () => {
    const globs = [[], ['-p', '*.ENT'], ['-p', 'maps/e1*', '-p', '*.cfg'], ['-p', '!(*.ent)'], ['-p', 'nothing-here']];
    for (const g of globs) {
      const bundled = await runBin(['list', sample, ...g]);
      const sources = await runCli(['list', sample, ...g]);
      expect(bundled.code, g.join(' ')).toBe(0);
      expect(bundled.stdout, g.join(' ')).toBe(sources.stdout);
    }
    expect((await runBin(['list', sample, '-p', '*.ent'])).stdout.trim().split('\n')).toHaveLength(6);
  });

  it('extracts only the files a glob matches', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modpak-bundle-globs-'));
    try {
      const r = await runBin(['extract', sample, '-t', dir, '-p', 'maps/e2*']);
      expect(r.code, r.stderr).toBe(0);
      expect((await readdir(join(dir, 'maps'))).sort()).toEqual(['e2m2@fbfe.ent', 'e2m3@237a.ent', 'e2m7@10a8.ent']);
      expect(await readdir(dir)).toEqual(['maps']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
