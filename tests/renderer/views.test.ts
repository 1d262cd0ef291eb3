// @vitest-environment happy-dom
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import { defineComponent, markRaw } from 'vue';
import type { Pinia } from 'pinia';
import { freshStudio, giveElementsSize, settle } from './harness';
import { DEMO_ROOT, type FakeStudioApi } from './fake-api';
import App from '../../renderer/App.vue';
import { usePickerStore } from '../../renderer/stores/picker';
import HomeView from '../../renderer/views/HomeView.vue';
import FilesView from '../../renderer/views/FilesView.vue';
import ArchiveView from '../../renderer/views/ArchiveView.vue';
import DefinitionsView from '../../renderer/views/DefinitionsView.vue';
import { screens } from '../../renderer/navigation';
import { initAppStore } from '../../renderer/stores/app';
import { initJobsStore } from '../../renderer/stores/jobs';
import { useInstallStore } from '../../renderer/stores/install';
import { useNavigationStore } from '../../renderer/stores/navigation';
import { useFilesStore } from '../../renderer/stores/files';

let api: FakeStudioApi;
let pinia: Pinia;

beforeAll(() => giveElementsSize());
beforeEach(() => {
  ({ api, pinia } = freshStudio({ extraPaths: 2000 }));
});

async function openDemo(): Promise<void> {
  await initAppStore();
  await settle();
}

function treeItems(w: VueWrapper): string[] {
  return w.findAll('[role="treeitem"]').map((r) => r.attributes('aria-label')!);
}

describe('App', () => {
  it('opens the demo install at start and shows the Home screen with its mount order', async () => {
    const w = mount(App, { global: { plugins: [pinia] } });
    await openDemo();
    expect(w.get('nav[aria-label="Screens"] [aria-current="page"]').text()).toBe('Home');
    expect(w.get('ol[aria-label="Mount order"]').findAll('li')).toHaveLength(3);
    expect(w.text()).toContain('v0.1.0 · web');
  });

  it('switches screens from the navigation bar and keeps Files disabled until an install is open', async () => {
    ({ api, pinia } = freshStudio({ initialRoot: null }));
    const w = mount(App, { global: { plugins: [pinia] } });
    await openDemo();
    const files = () => w.findAll('nav button').find((b) => b.text() === 'Files')!;
    expect(files().attributes('disabled')).toBeDefined();
    await useInstallStore().open(DEMO_ROOT);
    await settle();
    await files().trigger('click');
    await settle();
    expect(w.find('input[aria-label="Search paths"]').exists()).toBe(true);
  });

  it('catches a screen that throws while rendering: the banner explains, the app stays', async () => {
    const Broken = defineComponent({
      setup() {
        return () => {
          throw new Error('cannot read the tree');
        };
      },
    });
    screens.push({ id: 'broken', label: 'Broken', component: markRaw(Broken), needsInstall: false });
    try {
      const w = mount(App, { global: { plugins: [pinia] } });
      await openDemo();
      useNavigationStore().go('broken');
      await settle();
      expect(w.get('[role="alert"]').text()).toContain('cannot read the tree');
      expect(w.find('nav[aria-label="Screens"]').exists()).toBe(true);
      useNavigationStore().go('home');
      await settle();
      expect(w.find('ol[aria-label="Mount order"]').exists()).toBe(true);
    } finally {
      screens.pop();
    }
  });
});

describe('HomeView', () => {
  it('shows the game detected, the mount order with stages, and the ignored archives with reasons', async () => {
    await openDemo();
    const w = mount(HomeView, { global: { plugins: [pinia] } });
    expect(w.get('[data-testid="game-name"]').text()).toBe('Total Annihilation');
    expect(w.get('[data-testid="game-reason"]').text()).toBe('found totala1.hpi');
    const order = w.get('ol[aria-label="Mount order"]').findAll('li');
    expect(order[0]!.text()).toContain('mymod.ufo');
    expect(order[0]!.get('.badge').text()).toBe('ufo');
    const ignored = w.get('ul[aria-label="Ignored archives"]').text();
    expect(ignored).toContain('broken.hpi');
    expect(ignored).toContain('not a valid HPI: bad marker 0x00000000 at byte 0');
    expect(w.get('ul[aria-label="Recent installs"]').text()).toContain('/games/Kingdoms');
  });

  it('opens a typed path and shows why it failed', async () => {
    await openDemo();
    const w = mount(HomeView, { global: { plugins: [pinia] } });
    await w.get('input').setValue('/games/Nothing');
    await w.get('form').trigger('submit');
    await settle();
    expect(api.callsOf('install.open').at(-1)).toEqual({ root: '/games/Nothing' });
    expect(w.get('.field-error').text()).toContain('/games/Nothing: no game install found');
    // The browser has no native picker: Browse… opens the host's folder browser instead.
    await w
      .findAll('button')
      .find((b) => b.text() === 'Browse…')!
      .trigger('click');
    expect(usePickerStore().request).toMatchObject({ kind: 'folder', title: 'Open a game install' });
    expect(api.callsOf('dialog.pickFolder')).toHaveLength(0);
  });

  it('offers the folder picker when the host has one', async () => {
    ({ api, pinia } = freshStudio({ pickFolder: true, initialRoot: null }));
    await openDemo();
    const w = mount(HomeView, { global: { plugins: [pinia] } });
    const browse = w.findAll('button').find((b) => b.text() === 'Browse…')!;
    await browse.trigger('click');
    await settle();
    expect(api.callsOf('dialog.pickFolder')).toHaveLength(1);
    expect(api.callsOf('install.open')).toEqual([{ root: '/tmp/picked' }]);
  });
});

describe('FilesView', () => {
  async function mountFiles(): Promise<VueWrapper> {
    await openDemo();
    initJobsStore();
    const w = mount(FilesView, { global: { plugins: [pinia] } });
    await settle();
    return w;
  }

  it('shows the merged tree and filters it from the "Search paths" box', async () => {
    const w = await mountFiles();
    expect(treeItems(w)).toEqual(['anims/', 'maps/', 'sounds/', 'unitpics/', 'units/', 'readme.txt']);
    await w.get('input[aria-label="Search paths"]').setValue('*.fbi');
    await settle(1);
    expect(treeItems(w)).toEqual(['units/ARMCOM.FBI', 'units/CORCOM.FBI']);
    expect(w.get('[data-testid="match-count"]').text()).toMatch(/^2 of 2,006 paths/);
    await w.get('input[aria-label="Search paths"]').setValue('nothing-like-this');
    await settle(1);
    expect(w.text()).toContain('No path matches');
  });

  it('selecting a path fills the Layering panel with the winner and what it shadows, and previews it', async () => {
    const w = await mountFiles();
    await w.get('input[aria-label="Search paths"]').setValue('armcom.fbi');
    await settle(1);
    await w.get('[role="treeitem"]').trigger('click');
    await settle();
    expect(api.callsOf('install.resolve')).toEqual([{ root: DEMO_ROOT, path: 'units/ARMCOM.FBI' }]);
    const layering = w.get('[role="region"][aria-label="Layering"]');
    expect(layering.get('[data-role="winner"]').text()).toContain('mymod.ufo');
    expect(layering.get('[data-role="shadowed"]').text()).toContain('totala1.hpi');
    expect(w.get('[data-testid="text-preview"] .tok-value').text()).toBe('ARMCOM');
    expect(w.get('[data-testid="text-preview"]').text()).toContain('MaxDamage=9000;');
    // Compare with what the override hides: the shadowed provider's own bytes.
    await layering.get('button[aria-label="Preview from totala1.hpi"]').trigger('click');
    await settle();
    expect(api.callsOf('install.read').at(-1)).toMatchObject({ root: DEMO_ROOT, path: 'units/ARMCOM.FBI', archive: 'totala1.hpi' });
    expect(w.get('[data-testid="text-preview"]').text()).toContain('MaxDamage=5000;');
    expect(layering.get('button[aria-label="Preview from totala1.hpi"]').attributes('aria-pressed')).toBe('true');
    await layering.get('button[aria-label="Preview from mymod.ufo"]').trigger('click');
    await settle();
    expect(w.get('[data-testid="text-preview"]').text()).toContain('MaxDamage=9000;');
  });

  it('moves through the tree with the keyboard: down, expand, into the folder, back out', async () => {
    const w = await mountFiles();
    const tree = w.get('[role="tree"]');
    await tree.trigger('keydown', { key: 'ArrowDown' });
    for (let i = 0; i < 4; i++) await tree.trigger('keydown', { key: 'ArrowDown' });
    await settle(1);
    expect(w.get('[role="treeitem"][aria-selected="true"]').attributes('aria-label')).toBe('units/');
    await tree.trigger('keydown', { key: 'ArrowRight' });
    await settle(1);
    expect(w.get('[aria-label="units/"]').attributes('aria-expanded')).toBe('true');
    await tree.trigger('keydown', { key: 'ArrowRight' });
    await settle();
    expect(w.get('[role="treeitem"][aria-selected="true"]').attributes('aria-label')).toBe('units/ARMCOM.FBI');
    expect(w.get('[role="region"][aria-label="Layering"]').text()).toContain('mymod.ufo');
    await tree.trigger('keydown', { key: 'ArrowLeft' });
    await tree.trigger('keydown', { key: 'ArrowLeft' });
    await settle(1);
    expect(w.get('[aria-label="units/"]').attributes('aria-expanded')).toBe('false');
  });

  it('goes from the search box into the results with the arrow key, and Enter shows a match in the tree', async () => {
    const w = await mountFiles();
    const search = w.get('input[aria-label="Search paths"]');
    await search.setValue('corcom');
    await settle(1);
    await search.trigger('keydown', { key: 'ArrowDown' });
    await settle();
    expect(w.get('[role="treeitem"][aria-selected="true"]').attributes('aria-label')).toBe('units/CORCOM.FBI');
    await w.get('[role="tree"]').trigger('keydown', { key: 'Enter' });
    await settle(1);
    expect((search.element as HTMLInputElement).value).toBe('');
    expect(w.get('[aria-label="units/"]').attributes('aria-expanded')).toBe('true');
    expect(w.get('[role="treeitem"][aria-selected="true"]').attributes('aria-label')).toBe('units/CORCOM.FBI');
  });

  it('previews a PCX from the tree on a canvas', async () => {
    const w = await mountFiles();
    await w.get('input[aria-label="Search paths"]').setValue('*.pcx');
    await settle(1);
    await w.get('[role="treeitem"]').trigger('click');
    await settle();
    // Decoded by the host's PCX decoder, shown by the asset viewer, its own palette named.
    expect(w.get('[data-testid="asset-canvas"]').attributes('aria-label')).toBe('unitpics/ARMCOM.PCX: picture frame 1, 4 × 2');
    expect(w.get('[data-testid="asset-palette"]').text()).toContain("unitpics/ARMCOM.PCX's own palette");
  });

  it('extracts the selection with a progress bar and reports the result', async () => {
    const w = await mountFiles();
    await w.get('[aria-label="units/"]').trigger('click');
    await w.get('input[aria-label="Extract to folder"]').setValue('/tmp/out');
    expect(w.text()).toContain('Extract units/ (2 files) to');
    await w.get('form.extract-bar').trigger('submit');
    await settle(10);
    expect(api.callsOf('install.extract')[0]).toMatchObject({ root: DEMO_ROOT, target: '/tmp/out' });
    expect((api.callsOf('install.extract')[0] as { paths: string[] }).paths.sort()).toEqual(['units/ARMCOM.FBI', 'units/CORCOM.FBI']);
  });
});

describe('ArchiveView', () => {
  it('opens an archive: info, entries in stored order, verify result', async () => {
    await openDemo();
    initJobsStore();
    const w = mount(ArchiveView, { global: { plugins: [pinia] } });
    await w.get('input').setValue('/games/TotalA/totala1.hpi');
    await w.get('form').trigger('submit');
    await settle();
    expect(w.get('[data-testid="archive-format"]').text()).toBe('hpi v1');
    expect(w.text()).toContain('0x7D');
    expect(w.text()).toContain('followed by 5 bytes');
    expect(w.get('[data-testid="ta-mount"]').text()).toBe('TA 3.1c would mount: no — 5 bytes follow the Cavedog trailer');
    expect(w.get('ul[aria-label="Archive warnings"]').text()).toContain('HeaderKey 0xFF');
    const entries = w
      .get('[role="listbox"][aria-label="Entries"]')
      .findAll('[role="option"]')
      .map((o) => o.find('.name').text());
    expect(entries).toEqual(['units', 'units/ARMCOM.FBI', 'unitpics/ARMCOM.PCX', 'anims/logo.gaf']);
    await w
      .findAll('button')
      .find((b) => b.text() === 'Verify')!
      .trigger('click');
    await settle(10);
    expect(w.get('[data-testid="verify-result"]').text()).toContain('✗ 1 of 3 files damaged');
    expect(w.get('ul[aria-label="Damaged files"]').text()).toContain('anims/logo.gaf: checksum 0x1234 != 0x4321');
    await w.findAll('[role="option"]')[2]!.trigger('click');
    await settle();
    expect(w.get('canvas').attributes('data-width')).toBe('4');
  });
});

describe('DefinitionsView', () => {
  it('lists winners and what they hide, searchable, per kind', async () => {
    await openDemo();
    const w = mount(DefinitionsView, { global: { plugins: [pinia] } });
    await settle();
    const rows = () => w.findAll('tbody tr').map((r) => r.findAll('td').map((td) => td.text().replace(/\s+/g, ' ')));
    expect(rows()[0]).toEqual(['ARMCOM', 'units/ARMCOM.FBI', 'mymod.ufo', 'hidden by path units/ARMCOM.FBI in totala1.hpi']);
    expect(rows()[1]).toEqual(['CORCOM', 'units/CORCOM.FBI', 'totala1.hpi', '—']);
    await w.get('input[aria-label="Search definitions"]').setValue('corcom');
    expect(rows().map((r) => r[0])).toEqual(['CORCOM']);
    await w
      .findAll('[role="tab"]')
      .find((t) => t.text() === 'weapons')!
      .trigger('click');
    await settle();
    await w.get('input[aria-label="Search definitions"]').setValue('');
    expect(rows().map((r) => r[0])).toEqual(['ARM_LASER']);
  });

  it('jumps from a definition to its file in the Files screen, with its layering', async () => {
    await openDemo();
    const w = mount(DefinitionsView, { global: { plugins: [pinia] } });
    await settle();
    await w
      .findAll('button.link')
      .find((b) => b.text() === 'units/ARMCOM.FBI')!
      .trigger('click');
    await settle();
    expect(useNavigationStore().current).toBe('files');
    expect(useFilesStore().activeRow?.path).toBe('units/ARMCOM.FBI');
    expect(api.callsOf('install.resolve')).toEqual([{ root: DEMO_ROOT, path: 'units/ARMCOM.FBI' }]);
  });

  it('draws at most 1,000 rows and says how to see the rest', async () => {
    api.handlers['install.defs'] = ({ kind }) =>
      Array.from({ length: 2500 }, (_, i) => ({
        name: `${kind.toUpperCase()}${i}`,
        file: `units/U${i}.fbi`,
        archive: 'totala1.hpi',
        shadowed: [],
      }));
    await openDemo();
    const w = mount(DefinitionsView, { global: { plugins: [pinia] } });
    await settle();
    expect(w.findAll('tbody tr')).toHaveLength(1001);
    expect(w.text()).toContain('Showing the first 1,000 of 2,500: search to narrow them.');
    await w.get('input[aria-label="Search definitions"]').setValue('UNITS249');
    expect(w.findAll('tbody tr').map((r) => r.find('td').text())).toEqual([
      'UNITS249',
      ...Array.from({ length: 10 }, (_, i) => `UNITS249${i}`),
    ]);
  });
});

describe('FilesView → Override in mod', () => {
  it('copies the selected file into the open workspace and goes to the Mods screen; without one it opens the Mods screen', async () => {
    await openDemo();
    initJobsStore();
    const overrides: unknown[] = [];
    api.handlers['workspace.open'] = ({ dir, root }) => ({ dir, root, files: [] });
    api.handlers['workspace.override'] = (request) => {
      overrides.push(request);
      return { path: request.path, from: 'mymod.ufo' };
    };
    api.handlers['workspace.files'] = () => ['units/ARMCOM.FBI'];
    api.handlers['workspace.readText'] = ({ path }) => ({ path, text: '[UNITINFO]{}', hash: 'h0' });
    api.handlers['workspace.checkTdf'] = () => ({ ok: true, problems: [] });
    const w = mount(FilesView, { global: { plugins: [pinia] } });
    await settle();
    await w.get('input[aria-label="Search paths"]').setValue('armcom.fbi');
    await settle(1);
    await w.get('[role="treeitem"]').trigger('click');
    await settle();
    const navigation = useNavigationStore();
    navigation.go('files');
    await w.get('[data-testid="override-in-mod"]').trigger('click');
    await settle();
    expect(navigation.current).toBe('mods');
    expect(overrides).toEqual([]);

    const { useWorkspaceStore } = await import('../../renderer/stores/workspace');
    const { useEditorStore } = await import('../../renderer/stores/editor');
    expect(await useWorkspaceStore().open('/mods/mymod')).toBe(true);
    navigation.go('files');
    await w.get('[data-testid="override-in-mod"]').trigger('click');
    await settle();
    expect(overrides).toEqual([{ dir: '/mods/mymod', root: DEMO_ROOT, path: 'units/ARMCOM.FBI' }]);
    expect(navigation.current).toBe('mods');
    expect(useEditorStore().path).toBe('units/ARMCOM.FBI');
  });
});
