import { describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, writeFile, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packFolder } from '../../../electron/mods/pack.js';
import { InstallService } from '../../../electron/services/install-service.js';
import { createStudioHost } from '../../../electron/services/handlers/index.js';

async function makeInstall(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'modpak-open-'));
  const src = join(dir, 'src');
  await mkdir(join(src, 'units'), { recursive: true });
  await writeFile(join(src, 'units', 'A.FBI'), '[UNITINFO]{UnitName=A;}');
  const root = join(dir, 'install');
  await mkdir(root);
  await packFolder({ dir: src, target: join(root, 'alpha.ufo') });
  return root;
}

describe("InstallService.open reuses a mount while the folder is unchanged (one check: the folder's signature)", () => {
  it('same folder: same mount; a new archive, a re-written one or a new loose file: a new mount', async () => {
    const root = await makeInstall();
    const installs = new InstallService();
    try {
      const first = await installs.open(root);
      expect(await installs.open(root)).toBe(first);

      // Another archive at the top: mounted on the next open.
      const src = join(root, '..', 'src2');
      await mkdir(join(src, 'units'), { recursive: true });
      await writeFile(join(src, 'units', 'B.FBI'), '[UNITINFO]{UnitName=B;}');
      await packFolder({ dir: src, target: join(root, 'beta.ufo') });
      const second = await installs.open(root);
      expect(second).not.toBe(first);
      expect(second.report().mounted.map((m) => m.archive)).toEqual(['alpha.ufo', 'beta.ufo']);
      expect(await installs.open(root)).toBe(second);

      // The same archive re-written (another time stamp): a new mount.
      await utimes(join(root, 'beta.ufo'), new Date(), new Date(Date.now() + 5000));
      const third = await installs.open(root);
      expect(third).not.toBe(second);

      // A loose file added in a folder: a new mount that sees it.
      await mkdir(join(root, 'units'));
      const fourth = await installs.open(root);
      await writeFile(join(root, 'units', 'C.FBI'), '[UNITINFO]{UnitName=C;}');
      await utimes(join(root, 'units'), new Date(), new Date(Date.now() + 10_000));
      const fifth = await installs.open(root);
      expect(fifth).not.toBe(fourth);
      expect(fifth.resolve('units/C.FBI').winner).toMatchObject({ archive: null });

      // Other options: a new mount.
      expect(await installs.open(root, { game: 'ta' })).not.toBe(fifth);
    } finally {
      await installs.closeAll();
    }
  });

  it('warm() mounts in the background; the first open gets that mount', async () => {
    const root = await makeInstall();
    const installs = new InstallService();
    try {
      const warming = installs.warm(root);
      // Opened while the warm-up is still under way: the same mount, not a second one.
      const opened = await installs.open(root);
      expect(opened).toBe(await warming);
      expect(await installs.get(root)).toBe(opened);
    } finally {
      await installs.closeAll();
    }
  });

  it('a host opens its initial install', async () => {
    const root = await makeInstall();
    const host = await createStudioHost({ facts: { version: '1', host: 'web', initialRoot: root, demo: false }, recentFile: null });
    try {
      const answer = await host.call('install.open', { root });
      expect(answer).toMatchObject({ ok: true, result: { game: 'ta', mounted: [{ archive: 'alpha.ufo' }] } });
    } finally {
      await host.close();
    }
  });
});
