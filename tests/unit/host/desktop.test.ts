import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, readFile, writeFile, symlink, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packFolder } from '../../../electron/mods/pack.js';
import { createStudioHost } from '../../../electron/services/handlers/index.js';
import type { Desktop } from '../../../electron/services/handlers/desktop.js';
import type { Envelope, StudioHost } from '../../../electron/services/host/host.js';
import { createDesktop, type DragItem } from '../../../electron/main/desktop.js';
import type { FolderListing } from '../../../shared/contract.js';

/**
 * The folder browser, extraction's default target and overwrite question, dropped files and archives, and
 * the desktop calls, on a generated home (with a dot-folder and a link into it) and an install outside it.
 */
let dir: string;
let home: string;
let root: string;
let archive: string;
let host: StudioHost;
let desktopHost: StudioHost;
const desktopCalls: [string, unknown][] = [];

function ok<T>(answer: Envelope): T {
  if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return answer.result as T;
}
function code(answer: Envelope): string {
  return answer.ok ? 'ok' : answer.error.code;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modpak-desktop-'));
  home = join(dir, 'home');
  for (const d of ['Downloads', 'mods/b-mod', 'mods/A-mod', '.ssh', 'games']) await mkdir(join(home, d), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_rsa'), 'secret');
  await symlink(join(home, '.ssh'), join(home, 'keys'));
  await symlink('/etc', join(home, 'etc-link'));
  root = join(dir, 'install');
  const src = join(dir, 'src');
  await mkdir(join(src, 'units'), { recursive: true });
  await writeFile(join(src, 'units', 'ARMCOM.FBI'), '[UNITINFO]{UnitName=ARMCOM;}');
  await writeFile(join(src, 'units', 'CORCOM.FBI'), '[UNITINFO]{UnitName=CORCOM;}');
  await mkdir(root);
  archive = join(root, 'mod.ufo');
  await packFolder({ dir: src, target: archive });
  // An archive that sits in a folder of its own under home (not an install: extraction may go beside it).
  await packFolder({ dir: src, target: join(home, 'games', 'single.ufo') });
  const places = { home, downloads: join(home, 'Downloads'), temp: dir };
  host = await createStudioHost({
    facts: { version: '1', host: 'web', initialRoot: root, demo: false },
    recentFile: null,
    warm: false,
    places,
  });
  const desktop: Desktop = {
    reveal: (path) => void desktopCalls.push(['reveal', path]),
    openFolder: async (path) => void desktopCalls.push(['open', path]),
    startDrag: (files) => void desktopCalls.push(['drag', files]),
  };
  desktopHost = await createStudioHost({
    facts: { version: '1', host: 'electron', initialRoot: root, demo: false },
    recentFile: null,
    warm: false,
    places,
    desktop,
  });
  ok(await host.call('install.open', { root }));
  ok(await desktopHost.call('install.open', { root }));
});
afterAll(async () => {
  await host?.close();
  await desktopHost?.close();
});

describe('folders.list (the browser folder picker)', () => {
  it('without a path offers home, Downloads and the opened install', async () => {
    const listing = ok<FolderListing>(await host.call('folders.list', {}));
    expect(listing.path).toBeNull();
    expect(listing.places).toEqual([
      { label: 'Home', path: home },
      { label: 'Downloads', path: join(home, 'Downloads') },
      { label: 'Install: install', path: root },
    ]);
  });

  it('lists subfolders sorted by name, hiding dot-folders, with a parent only inside the reach', async () => {
    const listing = ok<FolderListing>(await host.call('folders.list', { path: home }));
    expect(listing.folders.map((f) => f.name)).toEqual(['Downloads', 'etc-link', 'games', 'keys', 'mods']);
    expect(listing.parent).toBeNull();
    const mods = ok<FolderListing>(await host.call('folders.list', { path: join(home, 'mods') }));
    expect(mods.folders.map((f) => f.name)).toEqual(['A-mod', 'b-mod']);
    expect(mods.parent).toBe(home);
    expect(mods.files).toEqual([]);
  });

  it('lists game archives when asked, with their sizes', async () => {
    const listing = ok<FolderListing>(await host.call('folders.list', { path: root, files: true }));
    const size = (await readFile(archive)).length;
    expect(listing.files).toEqual([{ name: 'mod.ufo', path: archive, size }]);
  });

  it('refuses dot-folders, links out of home or into a dot-folder, and folders outside home and the installs', async () => {
    expect(code(await host.call('folders.list', { path: join(home, '.ssh') }))).toBe('not-allowed');
    expect(code(await host.call('folders.list', { path: join(home, 'keys') }))).toBe('not-allowed');
    expect(code(await host.call('folders.list', { path: join(home, 'etc-link') }))).toBe('not-allowed');
    expect(code(await host.call('folders.list', { path: '/etc' }))).toBe('not-allowed');
    expect(code(await host.call('folders.list', { path: dir }))).toBe('not-allowed');
    expect(code(await host.call('folders.list', { path: join(home, 'mods', '..', '..') }))).toBe('not-allowed');
    expect(code(await host.call('folders.list', { path: 'relative/path' }))).toBe('bad-request');
  });
});

describe('extraction: default target and the overwrite question', () => {
  it('puts an install archive in Downloads (never into the install) and a lone archive beside itself', async () => {
    expect(ok(await host.call('extract.defaultTarget', { from: archive }))).toEqual({
      target: join(home, 'Downloads', 'mod'),
      exists: false,
    });
    expect(ok(await host.call('extract.defaultTarget', { from: root, name: 'install-units' }))).toEqual({
      target: join(home, 'Downloads', 'install-units'),
      exists: false,
    });
    ok(await host.call('archive.open', { path: join(home, 'games', 'single.ufo') }));
    expect(ok(await host.call('extract.defaultTarget', { from: join(home, 'games', 'single.ufo') }))).toEqual({
      target: join(home, 'games', 'single'),
      exists: false,
    });
  });

  it('extracts into the default, then answers conflict for the same folder until overwrite is confirmed', async () => {
    const { target } = ok<{ target: string }>(await host.call('extract.defaultTarget', { from: archive }));
    expect(ok(await host.call('archive.extract', { path: archive, target }))).toMatchObject({ files: 2 });
    expect(ok(await host.call('extract.defaultTarget', { from: archive }))).toEqual({ target, exists: true });
    const again = await host.call('archive.extract', { path: archive, target });
    expect(again).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(again.ok ? '' : again.error.message).toContain('already exists and holds 1 item');
    expect(code(await host.call('install.extract', { root, paths: ['units/ARMCOM.FBI'], target }))).toBe('conflict');
    expect(ok(await host.call('install.extract', { root, paths: ['units/ARMCOM.FBI'], target, overwrite: true }))).toMatchObject({
      files: 1,
    });
    // An empty folder is no question.
    await mkdir(join(home, 'Downloads', 'empty'));
    expect(code(await host.call('archive.extract', { path: archive, target: join(home, 'Downloads', 'empty') }))).toBe('ok');
  });
});

describe('dropping files', () => {
  it('workspace.addFiles writes the bytes under their relative paths and refuses names that leave it', async () => {
    const ws = join(home, 'mods', 'A-mod');
    ok(await host.call('workspace.open', { dir: ws, root }));
    const added = ok<{ added: string[] }>(
      await host.call('workspace.addFiles', {
        dir: ws,
        files: [
          { path: 'units/NEW.FBI', data: Buffer.from('[UNITINFO]{}').toString('base64') },
          { path: 'mydir\\readme.txt', data: '' },
        ],
      }),
    );
    expect(added.added).toEqual(['units/NEW.FBI', 'mydir/readme.txt']);
    expect(await readFile(join(ws, 'units', 'NEW.FBI'), 'utf8')).toBe('[UNITINFO]{}');
    expect(code(await host.call('workspace.addFiles', { dir: ws, files: [{ path: '../escape.txt', data: '' }] }))).toBe('not-allowed');
    expect(code(await host.call('workspace.addFiles', { dir: ws, files: [{ path: '.git/config', data: '' }] }))).toBe('not-allowed');
    expect(existsSync(join(home, 'mods', 'escape.txt'))).toBe(false);
  });

  it('workspace.addPaths copies a dropped folder by name (no dot-files, no links) only from the reach', async () => {
    const ws = join(home, 'mods', 'b-mod');
    ok(await host.call('workspace.open', { dir: ws, root }));
    const dropped = join(home, 'games', 'art');
    await mkdir(join(dropped, 'anims'), { recursive: true });
    await writeFile(join(dropped, 'anims', 'a.gaf'), 'gaf');
    await writeFile(join(dropped, '.DS_Store'), 'junk');
    await symlink(join(home, '.ssh', 'id_rsa'), join(dropped, 'key'));
    const added = ok<{ added: string[] }>(await host.call('workspace.addPaths', { dir: ws, sources: [dropped, archive] }));
    expect(added.added).toEqual(['art/anims/a.gaf', 'mod.ufo']);
    expect(await readdir(join(ws, 'art'))).toEqual(['anims']);
    expect(code(await host.call('workspace.addPaths', { dir: ws, sources: [join(home, '.ssh', 'id_rsa')] }))).toBe('not-allowed');
    expect(code(await host.call('workspace.addPaths', { dir: ws, sources: ['/etc/hostname'] }))).toBe('not-allowed');
  });

  it('archive.openBytes opens a dropped archive from a temporary copy that can then be extracted', async () => {
    const listing = ok<{ path: string; entries: { path: string }[] }>(
      await host.call('archive.openBytes', { name: 'dropped.ufo', data: (await readFile(archive)).toString('base64') }),
    );
    expect(listing.path.startsWith(join(dir, 'modpak-dropped-'))).toBe(true);
    expect(
      listing.entries
        .filter((e) => !('dir' in e))
        .map((e) => e.path)
        .sort(),
    ).toEqual(['units/ARMCOM.FBI', 'units/CORCOM.FBI']);
    expect(code(await host.call('archive.read', { path: listing.path, entry: 'units/ARMCOM.FBI' }))).toBe('ok');
    expect(code(await host.call('archive.openBytes', { name: '../x.ufo', data: '' }))).toBe('bad-request');
    expect(code(await host.call('archive.openBytes', { name: 'junk.ufo', data: Buffer.from('not an archive').toString('base64') }))).toBe(
      'failed',
    );
  });
});

describe('the desktop calls', () => {
  it('the web host refuses them, naming the desktop app', async () => {
    const answer = await host.call('shell.reveal', { path: archive });
    expect(answer).toMatchObject({ ok: false, error: { code: 'not-allowed' } });
    expect(answer.ok ? '' : answer.error.message).toContain('desktop app');
    expect(code(await host.call('shell.dragOut', { root, paths: ['units/ARMCOM.FBI'] }))).toBe('not-allowed');
    expect(ok(await host.call('app.info', {}))).toMatchObject({ capabilities: { desktop: false } });
  });

  it('with a desktop: reveal, open a folder, and drag out files extracted to a temporary folder', async () => {
    expect(ok(await desktopHost.call('app.info', {}))).toMatchObject({ capabilities: { desktop: true } });
    desktopCalls.length = 0;
    ok(await desktopHost.call('shell.reveal', { path: archive }));
    ok(await desktopHost.call('shell.reveal', { path: root, open: true }));
    expect(code(await desktopHost.call('shell.reveal', { path: '/etc/hostname' }))).toBe('not-allowed');
    const drag = ok<{ files: number; dragged: string[] }>(await desktopHost.call('shell.dragOut', { root, paths: ['units/ARMCOM.FBI'] }));
    expect(drag.files).toBe(1);
    expect(await readFile(drag.dragged[0]!, 'utf8')).toBe('[UNITINFO]{UnitName=ARMCOM;}');
    const folder = ok<{ files: number; dragged: string[] }>(
      await desktopHost.call('shell.dragOut', { root, paths: ['units'], folder: 'units' }),
    );
    expect(folder.files).toBe(2);
    expect((await readdir(folder.dragged[0]!)).sort()).toEqual(['ARMCOM.FBI', 'CORCOM.FBI']);
    expect(desktopCalls).toEqual([
      ['reveal', archive],
      ['open', root],
      ['drag', drag.dragged],
      ['drag', folder.dragged],
    ]);
  });

  it('electron/main/desktop.ts drives shell and webContents.startDrag with an icon', async () => {
    const seen: unknown[] = [];
    let destroyed = false;
    const desktop = createDesktop({
      shell: {
        showItemInFolder: (p) => void seen.push(['show', p]),
        openPath: async (p) => (p === '/missing' ? 'Failed to open path' : (seen.push(['open', p]), '')),
      },
      contents: () => ({ isDestroyed: () => destroyed, startDrag: (item: DragItem) => void seen.push(['drag', item]) }),
      icon: () => 'ICON',
    });
    desktop.reveal('/a/b.ufo');
    await desktop.openFolder('/a');
    await expect(desktop.openFolder('/missing')).rejects.toThrow('/missing: Failed to open path');
    desktop.startDrag(['/t/one']);
    desktop.startDrag(['/t/one', '/t/two']);
    expect(seen).toEqual([
      ['show', '/a/b.ufo'],
      ['open', '/a'],
      ['drag', { file: '/t/one', icon: 'ICON' }],
      ['drag', { file: '/t/one', files: ['/t/one', '/t/two'], icon: 'ICON' }],
    ]);
    destroyed = true;
    expect(() => desktop.startDrag(['/t/one'])).toThrow('window is closed');
  });
});
