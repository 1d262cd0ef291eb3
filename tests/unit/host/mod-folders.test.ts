import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packFolder } from '../../../electron/mods/pack.js';
import { createStudioHost } from '../../../electron/services/handlers/index.js';
import type { Envelope } from '../../../electron/services/host/host.js';
import { listModFolders } from '../../../electron/services/mod-folders.js';

/** The mod-folder picker's list: folders beside the base folder that hold paks or loose game files. */
let work: string;
let quake: string;
async function put(base: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), content);
  }
}
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'modpak-mod-folders-'));
  quake = join(work, 'quake');
  await put(quake, { 'quake.exe': 'MZ', 'docs/readme.txt': 'not a mod', '.cache/x/pak0.pak': 'hidden' });
  const src = join(work, 'src');
  await put(src, { 'maps/e1m1.bsp': 'b' });
  for (const target of ['id1/pak0.pak', 'mymod/pak0.pak', 'mymod/pak1.pak']) {
    await mkdir(dirname(join(quake, target)), { recursive: true });
    await packFolder({ dir: src, target: join(quake, target) });
  }
  await put(quake, { 'ctf/maps/ctf1.bsp': 'loose', 'ctf/progs/flag.mdl': 'loose', 'Rogue/progs.dat': 'qc', 'empty/.keep/x': '' });
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('install.modFolders', () => {
  it('lists the folders beside id1 that hold paks or loose game files, not id1, docs or dot-folders', async () => {
    expect(await listModFolders(quake)).toEqual({
      game: 'quake',
      base: 'id1',
      folders: [
        { name: 'ctf', paks: 0, looseFiles: 2 },
        { name: 'mymod', paks: 2, looseFiles: 0 },
        { name: 'Rogue', paks: 0, looseFiles: 1 },
      ],
    });
  });

  it('has none for a folder that is no Quake-family game folder (a TA install, id1 itself)', async () => {
    expect(await listModFolders(join(quake, 'id1'))).toEqual({ game: null, base: null, folders: [] });
    expect(await listModFolders(quake, 'quake2')).toEqual({ game: null, base: null, folders: [] });
  });

  it('is a host call on an opened install', async () => {
    const host = await createStudioHost({
      facts: { version: '1', host: 'web', initialRoot: quake, demo: false },
      recentFile: null,
      warm: false,
    });
    try {
      const answer: Envelope = await host.call('install.modFolders', { root: quake });
      expect(answer.ok && answer.result).toMatchObject({ base: 'id1', folders: [{ name: 'ctf' }, { name: 'mymod' }, { name: 'Rogue' }] });
    } finally {
      await host.close();
    }
  });
});
