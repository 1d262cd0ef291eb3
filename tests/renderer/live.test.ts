// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { freshStudio, settle } from './harness';
import { DEMO_ROOT, type FakeStudioApi } from './fake-api';
import { initInstallStore, useInstallStore } from '../../renderer/stores/install';
import { useFilesStore } from '../../renderer/stores/files';
import { useLayeringStore } from '../../renderer/stores/layering';
import { useFilesPreviewStore } from '../../renderer/stores/preview';
import { useDefinitionsStore } from '../../renderer/stores/definitions';
import { initModsStore } from '../../renderer/stores/mods';
import { useWorkspaceStore } from '../../renderer/stores/workspace';
import { useEditorStore } from '../../renderer/stores/editor';
import { ApiError } from '../../renderer/api';
import type { Events } from '../../shared/contract';

/**
 * The studio following the install and the workspace on disk: an `install.changed` event refreshes the
 * mount order, the tree, the selected path's Layering and Preview and the Definitions, keeping the
 * selection; a `workspace.changed` event reloads a clean editor and stops a dirty one from overwriting the
 * file until the user chooses.
 */
let api: FakeStudioApi;
beforeEach(() => {
  ({ api } = freshStudio());
});

const text = (s: string) => new TextEncoder().encode(s);

describe('an install that changes on disk', () => {
  it('install.changed: the new winner shows in Layering and Preview, the selection stays, definitions reload', async () => {
    initInstallStore();
    const install = useInstallStore();
    await install.open(DEMO_ROOT);
    const files = useFilesStore();
    await files.load(DEMO_ROOT);
    files.reveal('units/CORCOM.FBI');
    await settle();
    expect(useLayeringStore().result?.winner?.archive).toBe('totala1.hpi');
    const defs = useDefinitionsStore();
    await defs.load('units');
    expect(api.callsOf('install.defs')).toHaveLength(1);

    // An export lands in the install: the host re-mounted it and says so.
    const body = text('[UNITINFO]\n{\n\tUnitName=CORCOM;\n\tMaxDamage=1;\n}\n');
    api.files
      .get('units/CORCOM.FBI')!
      .unshift({ archive: 'mymod.ufo', entry: 'units/CORCOM.FBI', size: body.length, method: 'lz77', bytes: body });
    const opened = await api.call('install.open', { root: DEMO_ROOT });
    const event: Events['install.changed'] = { ...opened, changed: ['mymod.ufo'] };
    api.emit('install.changed', event);
    await settle();

    expect(install.revision).toBe(1);
    expect(install.lastChange).toEqual(['mymod.ufo']);
    expect(files.activeRow?.path).toBe('units/CORCOM.FBI');
    expect(useLayeringStore().result?.winner?.archive).toBe('mymod.ufo');
    expect(useLayeringStore().result?.shadowed.map((p) => p.archive)).toEqual(['totala1.hpi']);
    expect(useFilesPreviewStore().file?.archive).toBe('mymod.ufo');
    expect(api.callsOf('install.tree')).toHaveLength(2);
    expect(api.callsOf('install.defs')).toHaveLength(2);
    // The tree says two providers now.
    expect(files.tree?.layers[files.activeRow!.index]).toBe(2);
  });

  it('ignores the event of an install that is not the open one; a re-mount shows progress', async () => {
    initInstallStore();
    const install = useInstallStore();
    await install.open(DEMO_ROOT);
    const opened = await api.call('install.open', { root: DEMO_ROOT });
    api.emit('install.changed', { ...opened, root: '/games/Other', changed: ['x.ufo'] });
    expect(install.revision).toBe(0);
    api.emit('progress', { jobId: 'install.remount', done: 3, total: 16, label: 'Re-mounting' });
    expect(install.remounting).toEqual({ done: 3, total: 16 });
    api.emit('progress', { jobId: 'install.remount', done: 16, total: 16, label: 'Re-mounting' });
    expect(install.remounting).toBeNull();
  });
});

describe('an edit is never lost', () => {
  async function openEditor(initial: string) {
    let disk = initial;
    let hash = 'h0';
    const writes: unknown[] = [];
    api.handlers['workspace.open'] = ({ dir, root }) => ({ dir, root, files: ['units/A.FBI'] });
    api.handlers['watch.status'] = ({ dir }) => ({ workspace: dir, target: '', running: false, state: 'idle', lastBuild: null });
    api.handlers['workspace.files'] = () => ['units/A.FBI'];
    api.handlers['workspace.readText'] = ({ path }) => ({ path, text: disk, hash });
    api.handlers['workspace.checkTdf'] = () => ({ ok: true, problems: [] });
    api.handlers['workspace.writeText'] = (request) => {
      writes.push(request);
      if (request.expectedHash !== undefined && request.expectedHash !== hash)
        throw new ApiError({ code: 'conflict', message: 'units/A.FBI changed on disk since you opened it' });
      disk = request.text;
      hash = `h${writes.length}`;
      return { path: request.path, bytes: disk.length, hash };
    };
    await useInstallStore().open(DEMO_ROOT);
    initModsStore();
    expect(await useWorkspaceStore().open('/mods/a')).toBe(true);
    const editor = useEditorStore();
    await editor.openFile('units/A.FBI');
    return {
      editor,
      writes,
      outside(next: string) {
        disk = next;
        hash = 'outside';
        api.emit('workspace.changed', { dir: '/mods/a', files: [{ path: 'units/A.FBI', hash }] });
      },
    };
  }

  it('a clean buffer reloads by itself when the file changes on disk', async () => {
    const { editor, outside } = await openEditor('[A]{x=1;}');
    outside('[A]{x=2;}');
    await settle();
    expect(editor.text).toBe('[A]{x=2;}');
    expect(editor.dirty).toBe(false);
    expect(editor.conflict).toBeNull();
  });

  it('a dirty buffer is kept and offers reload / keep mine / compare; a save is refused until then', async () => {
    const { editor, writes, outside } = await openEditor('[A]{x=1;}');
    editor.edit('[A]{x=1;y=mine;}');
    outside('[A]{x=2;}');
    await settle();
    expect(editor.text).toBe('[A]{x=1;y=mine;}');
    expect(editor.conflict).toMatchObject({ diskHash: 'outside', diskText: '[A]{x=2;}' });
    // Saving now sends the hash it loaded and is refused: the outside edit survives.
    expect(await editor.save()).toBe(false);
    expect(writes.at(-1)).toMatchObject({ expectedHash: 'h0' });
    expect(editor.conflict).not.toBeNull();
    await editor.resolveConflict('compare');
    expect(editor.conflict?.comparison).toContain('-[A]{x=2;}');
    expect(editor.conflict?.comparison).toContain('+[A]{x=1;y=mine;}');
    await editor.resolveConflict('keep');
    expect(writes.at(-1)).not.toHaveProperty('expectedHash');
    expect(editor.conflict).toBeNull();
    expect(editor.dirty).toBe(false);
  });

  it('reload drops my changes for the file on disk', async () => {
    const { editor, outside } = await openEditor('[A]{x=1;}');
    editor.edit('[A]{mine}');
    outside('[A]{theirs}');
    await settle();
    await editor.resolveConflict('reload');
    expect(editor.text).toBe('[A]{theirs}');
    expect(editor.conflict).toBeNull();
  });

  it('my own save does not count as a change on disk', async () => {
    const { editor } = await openEditor('[A]{x=1;}');
    editor.edit('[A]{x=3;}');
    expect(await editor.save()).toBe(true);
    api.emit('workspace.changed', { dir: '/mods/a', files: [{ path: 'units/A.FBI', hash: editor.hash }] });
    await settle();
    expect(editor.conflict).toBeNull();
    expect(editor.text).toBe('[A]{x=3;}');
  });
});

describe('a host that stops', () => {
  it('shows "the studio\'s host stopped" at once, with how to reconnect, and clears when it is back', async () => {
    const { mount } = await import('@vue/test-utils');
    const { default: App } = await import('../../renderer/App.vue');
    const { initConnectionStore } = await import('../../renderer/stores/connection');
    const { HOST_STOPPED } = await import('../../renderer/api');
    initConnectionStore();
    const w = mount(App);
    await settle();
    expect(w.find('[data-testid="host-lost"]').exists()).toBe(false);
    api.setConnection({ state: 'lost', message: HOST_STOPPED });
    await settle(1);
    expect(w.get('[data-testid="host-lost"]').text()).toContain("The studio's host stopped");
    expect(w.get('[data-testid="host-lost"]').text()).toContain('open the URL it prints');
    api.setConnection({ state: 'connected' });
    await settle(1);
    expect(w.find('[data-testid="host-lost"]').exists()).toBe(false);
    w.unmount();
  });
});

describe('one install at a time, and Quake-family game folders', () => {
  function quakeOpen() {
    api.handlers['install.open'] = ({ root, game, mod }) => ({
      root,
      game: game ?? 'quake',
      gameSource: game ? 'given' : 'detected',
      mounted: [
        ...(mod ? [{ archive: `${mod}/pak0.pak`, root: 'install' as const, stage: 'pak' as const, files: 1 }] : []),
        { archive: 'id1/pak1.pak', root: 'install', stage: 'pak', files: 1 },
        { archive: 'id1/pak0.pak', root: 'install', stage: 'pak', files: 3 },
      ],
      ignored: [],
      stats: { game: 'quake', archives: 3, ignored: 0, paths: 4, entries: 5, looseFiles: 1, shadowedPaths: 1, bytes: 100 },
    });
  }

  it('the game and mod pickers reach install.open; exports default to the next pakN.pak in the mod folder, with its impact there', async () => {
    quakeOpen();
    const install = useInstallStore();
    expect(await install.open('/games/quake', { game: 'quake', mod: 'mymod' })).toBe(true);
    expect(api.callsOf('install.open').at(-1)).toEqual({ root: '/games/quake', game: 'quake', mod: 'mymod' });
    expect([install.dataFolder, install.nextPak, install.hasDefinitions]).toEqual(['mymod', 'pak1.pak', false]);
    api.handlers['workspace.open'] = ({ dir, root }) => ({ dir, root, files: ['progs/player.mdl'] });
    api.handlers['watch.status'] = ({ dir }) => ({ workspace: dir, target: '', running: false, state: 'idle', lastBuild: null });
    api.handlers['mods.impact'] = ({ name }) => ({
      archive: `mymod/${name}`,
      stage: 'pak',
      rank: 1,
      pushesOut: null,
      hidden: [],
      wins: [{ path: 'progs/player.mdl', over: 'mymod/pak0.pak' }],
      definitions: [],
    });
    initModsStore();
    expect(await useWorkspaceStore().open('/mods/qmod')).toBe(true);
    const { useExportStore } = await import('../../renderer/stores/export');
    const exporting = useExportStore();
    expect(exporting.target).toBe('/games/quake/mymod/pak1.pak');
    expect(exporting.exportsIntoInstall).toBe(true);
    await exporting.previewImpact();
    expect(api.callsOf('mods.impact').at(-1)).toEqual({ root: '/games/quake', archive: '/mods/qmod', name: 'pak1.pak', mod: 'mymod' });
    expect(exporting.summary).toBe('wins 1 path');
    // Without a mod folder, the base folder's next pak.
    await install.open('/games/quake', { game: 'quake' });
    expect([install.dataFolder, install.nextPak]).toEqual(['id1', 'pak2.pak']);
  });

  it('the mod folder is a picker of the folders the host lists; picking one opens the game folder with it', async () => {
    quakeOpen();
    api.handlers['install.modFolders'] = () => ({
      game: 'quake',
      base: 'id1',
      folders: [
        { name: 'ctf', paks: 0, looseFiles: 2 },
        { name: 'mymod', paks: 1, looseFiles: 0 },
      ],
    });
    const { mount } = await import('@vue/test-utils');
    const { default: HomeView } = await import('../../renderer/views/HomeView.vue');
    const install = useInstallStore();
    expect(await install.open('/games/quake')).toBe(true);
    const w = mount(HomeView);
    await settle(2);
    expect(api.callsOf('install.modFolders').at(-1)).toEqual({ root: '/games/quake', game: 'quake' });
    const picker = w.get('select[aria-label="Mod folder"]');
    expect(picker.findAll('option').map((o) => [o.attributes('value'), o.text()])).toEqual([
      ['', 'none: id1/ alone'],
      ['ctf', 'ctf (2 loose files)'],
      ['mymod', 'mymod (1 pak)'],
    ]);
    expect(w.find('input[aria-label="Mod folder"]').exists()).toBe(false);
    await picker.setValue('mymod');
    await settle(2);
    expect(api.callsOf('install.open').at(-1)).toEqual({ root: '/games/quake', mod: 'mymod' });
    expect(install.dataFolder).toBe('mymod');
    expect(install.opened?.mounted[0]?.archive).toBe('mymod/pak0.pak');
    w.unmount();
  });

  it("a Daikatana install: Export and watch ask for the game's own PAK (game: daikatana) as the mod folder's next pakN.pak", async () => {
    api.handlers['install.open'] = ({ root, mod }) => ({
      root,
      game: 'daikatana',
      gameSource: 'detected',
      mounted: [
        { archive: `${mod}/pak0.pak`, root: 'install', stage: 'pak', files: 1 },
        { archive: 'data/pak2.pak', root: 'install', stage: 'pak', files: 1 },
        { archive: 'data/pak0.pak', root: 'install', stage: 'pak', files: 3 },
      ],
      ignored: [],
      stats: { game: 'daikatana', archives: 3, ignored: 0, paths: 4, entries: 5, looseFiles: 0, shadowedPaths: 1, bytes: 100 },
    });
    const install = useInstallStore();
    expect(await install.open('/games/dk', { mod: 'mymod' })).toBe(true);
    api.handlers['workspace.open'] = ({ dir, root }) => ({ dir, root, files: ['maps/e1m1.bsp'] });
    api.handlers['workspace.readText'] = ({ path }) => ({ path, text: '', hash: 'h' });
    api.handlers['watch.status'] = ({ dir }) => ({ workspace: dir, target: '', running: false, state: 'idle', lastBuild: null });
    api.handlers['watch.start'] = ({ dir, target }) => ({ workspace: dir, target, running: true, state: 'idle', lastBuild: null });
    api.handlers['mods.impact'] = ({ name }) => ({
      archive: `mymod/${name}`,
      stage: 'pak',
      rank: 1,
      pushesOut: null,
      hidden: [],
      wins: [{ path: 'maps/e1m1.bsp', over: 'data/pak2.pak' }],
      definitions: [],
    });
    api.handlers['mods.export'] = ({ target }) => ({ target, files: 1, bytes: 10, size: 100, durationMs: 5 });
    initModsStore();
    expect(await useWorkspaceStore().open('/mods/dkmod')).toBe(true);
    const { useExportStore } = await import('../../renderer/stores/export');
    const { useWatchStore } = await import('../../renderer/stores/watch');
    const exporting = useExportStore();
    expect(exporting.target).toBe('/games/dk/mymod/pak1.pak');
    await exporting.previewImpact();
    expect(await exporting.exportNow()).toBe(true);
    expect(api.callsOf('mods.export').at(-1)).toMatchObject({ dir: '/mods/dkmod', target: '/games/dk/mymod/pak1.pak', game: 'daikatana' });
    await useWatchStore().toggle(true);
    expect(api.callsOf('watch.start').at(-1)).toMatchObject({ target: '/games/dk/mymod/pak1.pak', game: 'daikatana' });
  });

  it('TA-only screens are hidden for Quake; opening another install closes the old workspace', async () => {
    const { mount } = await import('@vue/test-utils');
    const { default: App } = await import('../../renderer/App.vue');
    const install = useInstallStore();
    await install.open(DEMO_ROOT);
    api.handlers['workspace.open'] = ({ dir, root }) => ({ dir, root, files: [] });
    api.handlers['watch.status'] = ({ dir }) => ({ workspace: dir, target: '', running: false, state: 'idle', lastBuild: null });
    initModsStore();
    expect(await useWorkspaceStore().open('/mods/tamod')).toBe(true);
    const w = mount(App);
    await settle();
    const tabs = () => w.findAll('nav[aria-label="Screens"] button').map((b) => b.text());
    expect(tabs()).toContain('Definitions');
    quakeOpen();
    await install.open('/games/quake');
    await settle();
    expect(tabs()).not.toContain('Definitions');
    expect(useWorkspaceStore().dir).toBeNull();
    w.unmount();
  });
});

describe('dead ends said before the user acts', () => {
  async function workspaceWith(files: Record<string, string>) {
    api.handlers['workspace.open'] = ({ dir, root }) => ({ dir, root, files: Object.keys(files) });
    api.handlers['watch.status'] = ({ dir }) => ({ workspace: dir, target: '', running: false, state: 'idle', lastBuild: null });
    api.handlers['watch.start'] = ({ dir, target }) => ({ workspace: dir, target, running: true, state: 'idle', lastBuild: null });
    api.handlers['workspace.readText'] = ({ path }) => ({ path, text: files[path] ?? '', hash: 'h' });
    api.handlers['mods.export'] = ({ target }) => ({ target, files: 1, bytes: 10, size: 100, durationMs: 5 });
    api.handlers['mods.impact'] = ({ name }) => ({
      archive: name ?? 'mod.ufo',
      stage: 'ufo',
      rank: 3,
      pushesOut: null,
      wins: [],
      hidden: [
        { path: 'units/A.FBI', by: 'rev31.gp3' },
        { path: 'units/B.FBI', by: 'rev31.gp3' },
      ],
      definitions: [],
    });
    await useInstallStore().open(DEMO_ROOT);
    initModsStore();
    expect(await useWorkspaceStore().open('/mods/mod')).toBe(true);
    const { useExportStore } = await import('../../renderer/stores/export');
    const { useWatchStore } = await import('../../renderer/stores/watch');
    return { exporting: useExportStore(), watch: useWatchStore() };
  }

  it('an export that wins nothing says so beside the button', async () => {
    const { exporting } = await workspaceWith({ 'units/A.FBI': '[UNITINFO]{}', 'units/B.FBI': '[UNITINFO]{}' });
    await exporting.previewImpact();
    expect(exporting.summary).toBe('wins 0 paths · loses 2 to rev31.gp3');
    expect(exporting.winsNothing).toBe(true);
  });

  it('export and watch ask before packing a TDF with syntax errors', async () => {
    const { exporting, watch } = await workspaceWith({ 'units/A.FBI': '[UNITINFO]{ BROKEN', 'readme.txt': 'BROKEN but not a TDF' });
    await exporting.previewImpact();
    expect(await exporting.exportNow()).toBe(false);
    expect(exporting.confirmBroken).toEqual({ action: 'export', files: ['units/A.FBI'] });
    expect(api.callsOf('mods.export')).toHaveLength(0);
    expect(await exporting.exportNow({ confirm: true })).toBe(true);
    expect(api.callsOf('mods.export')).toHaveLength(1);
    await watch.toggle(true);
    expect(exporting.confirmBroken?.action).toBe('watch');
    expect(api.callsOf('watch.start')).toHaveLength(0);
    await watch.toggle(true, undefined, { confirm: true });
    expect(api.callsOf('watch.start')).toHaveLength(1);
  });
});
