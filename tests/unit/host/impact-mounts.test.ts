import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { generateDemoInstall } from '../../../electron/demo/demo-install.js';
import { packFolder } from '../../../electron/mods/pack.js';
import { writeRecord } from '../../../electron/mods/workspace.js';
import { createStudioHost } from '../../../electron/services/handlers/index.js';
import type { Envelope, StudioHost } from '../../../electron/services/host/host.js';

/** Every archive a mount opens goes through probeArchive (the pool's misses too): count them. */
const probes = vi.hoisted(() => ({ paths: [] as string[] }));
vi.mock('../../../electron/vfs/probe.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../electron/vfs/probe.js')>();
  return {
    ...real,
    probeArchive: (game: Parameters<typeof real.probeArchive>[0], path: string) => {
      probes.paths.push(path);
      return real.probeArchive(game, path);
    },
  };
});

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'modpak-impact-mounts-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

async function put(base: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), content);
  }
}
function ok<T>(answer: Envelope): T {
  if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return answer.result as T;
}
async function hostOn(root: string): Promise<StudioHost> {
  return createStudioHost({ facts: { version: '1', host: 'web', initialRoot: root, demo: false }, recentFile: null, warm: false });
}

/**
 * An impact preview in the studio reads the install through its open mount, and the hypothetical mount
 * takes every unchanged archive from that mount's pool: the one archive opened is the staged export.
 */
describe('mods.impact in the studio opens only the archive being added', () => {
  it('a TA install: the staged .ufo is the only archive opened', async () => {
    const root = await generateDemoInstall(join(work, 'TA'));
    const ws = join(work, 'ws-ta');
    await put(ws, { 'units/ARMPW.FBI': '[UNITINFO]{UnitName=ARMPW;MaxDamage=999;}' });
    await writeRecord(ws, { version: 1 });
    const host = await hostOn(root);
    try {
      const opened = ok<{ mounted: unknown[] }>(await host.call('install.open', { root }));
      expect(opened.mounted.length).toBeGreaterThan(10);
      ok(await host.call('workspace.open', { dir: ws, root }));
      probes.paths.length = 0;
      const impact = ok<{ archive: string; wins: { path: string }[] }>(
        await host.call('mods.impact', { root, archive: ws, name: 'mymod.ufo' }),
      );
      expect(impact.archive).toBe('mymod.ufo');
      expect(impact.wins.map((w) => w.path)).toEqual(['units/ARMPW.FBI']);
      expect(probes.paths.map((p) => p.split('/').pop())).toEqual(['mymod.ufo']);
    } finally {
      await host.close();
    }
  });

  it('a Quake game folder opened with a mod folder: the same, through the mount made with that mod folder', async () => {
    const quake = join(work, 'quake');
    await put(quake, { 'quake.exe': 'MZ' });
    for (const [target, files] of [
      [join(quake, 'id1', 'pak0.pak'), { 'maps/e1m1.bsp': 'base0', 'progs/player.mdl': 'base0' }],
      [join(quake, 'id1', 'pak1.pak'), { 'maps/e1m1.bsp': 'base1' }],
      [join(quake, 'mymod', 'pak0.pak'), { 'progs/player.mdl': 'mod0' }],
    ] as const) {
      const src = await mkdtemp(join(work, 'src-'));
      await put(src, files);
      await mkdir(dirname(target), { recursive: true });
      await packFolder({ dir: src, target });
    }
    const ws = join(work, 'ws-quake');
    await put(ws, { 'maps/e1m1.bsp': 'mine' });
    await writeRecord(ws, { version: 1 });
    const host = await hostOn(quake);
    try {
      ok(await host.call('install.open', { root: quake, game: 'quake', mod: 'mymod' }));
      ok(await host.call('workspace.open', { dir: ws, root: quake }));
      probes.paths.length = 0;
      const impact = ok<{ archive: string; rank: number; wins: { path: string; over: string | null }[] }>(
        await host.call('mods.impact', { root: quake, archive: ws, name: 'pak1.pak', mod: 'mymod' }),
      );
      expect(impact).toMatchObject({ archive: 'mymod/pak1.pak', rank: 1, wins: [{ path: 'maps/e1m1.bsp', over: 'id1/pak1.pak' }] });
      expect(probes.paths.map((p) => p.split('/').pop())).toEqual(['pak1.pak']);
      expect(probes.paths[0]).not.toContain(quake);
    } finally {
      await host.close();
    }
  });
});
