import { describe, expect, it } from 'vitest';
import { mkdtemp, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDemoInstall, demoFingerprint } from '../../../electron/services/studio-demo.js';
import { createStudioHost } from '../../../electron/services/handlers/index.js';

describe('the demo install behind `modpak serve` with no ROOT', () => {
  it('is generated once under its fingerprint, reused, and mounts with mods and ignored archives', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'modpak-demo-'));
    const dir = await ensureDemoInstall(cache);
    expect(dir).toBe(join(cache, `demo-${demoFingerprint()}`));
    // No temporary folders left behind.
    expect(await readdir(cache)).toEqual([`demo-${demoFingerprint()}`]);
    await writeFile(join(dir, 'user-note.txt'), 'kept while the generator is unchanged');
    expect(await ensureDemoInstall(cache)).toBe(dir);
    expect((await stat(join(dir, 'user-note.txt'))).isFile()).toBe(true);

    const host = await createStudioHost({ facts: { version: '1', host: 'web', initialRoot: dir, demo: true }, recentFile: null });
    try {
      const answer = await host.call('install.open', { root: dir });
      if (!answer.ok) throw new Error(answer.error.message);
      const report = answer.result as { game: string; mounted: { archive: string }[]; ignored: { archive: string; reason: string }[] };
      expect(report.game).toBe('ta');
      expect(report.mounted.map((m) => m.archive)).toContain('rev31.gp3');
      expect(report.mounted.map((m) => m.archive)).toContain('zeta.ufo');
      expect(report.ignored.map((i) => i.archive)).toEqual(expect.arrayContaining(['rev30.gp3', 'ccbeta.hpi']));
      expect(report.ignored.every((i) => i.reason.length > 0)).toBe(true);
    } finally {
      await host.close();
    }
  });
});
