// @vitest-environment happy-dom
/* eslint-disable vue/one-component-per-file -- each test mounts a small host component around the row under test */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import { defineComponent, h } from 'vue';
import type { Pinia } from 'pinia';
import { freshStudio, giveElementsSize, settle } from './harness';
import { DEMO_ROOT, type FakeStudioApi } from './fake-api';
import { ApiError } from '../../renderer/api';
import ContextMenu from '../../renderer/components/ContextMenu.vue';
import FolderBrowser from '../../renderer/components/FolderBrowser.vue';
import ExtractBar from '../../renderer/components/ExtractBar.vue';
import MountOrderList from '../../renderer/components/MountOrderList.vue';
import FilesView from '../../renderer/views/FilesView.vue';
import { useMenuStore, type MenuItem } from '../../renderer/stores/menu';
import { usePickerStore } from '../../renderer/stores/picker';
import { initAppStore } from '../../renderer/stores/app';
import { initJobsStore } from '../../renderer/stores/jobs';
import { useInstallStore } from '../../renderer/stores/install';
import { useNavigationStore } from '../../renderer/stores/navigation';
import { useLayeringStore } from '../../renderer/stores/layering';
import { useWorkspaceStore } from '../../renderer/stores/workspace';
import { useFilesStore } from '../../renderer/stores/files';
import { providerMenu } from '../../renderer/stores/row-menus';
import { bytesToBase64 } from '../../renderer/lib/bytes';
import { useErrorsStore } from '../../renderer/stores/errors';

let api: FakeStudioApi;
let pinia: Pinia;

beforeAll(() => giveElementsSize());
beforeEach(() => {
  ({ api, pinia } = freshStudio());
  document.body.innerHTML = '';
});

async function openDemo(): Promise<void> {
  await initAppStore();
  await settle();
}

/** The menu and its opener in one page (the menu is drawn once, by App.vue, in the studio). */
function withMenu(inner: ReturnType<typeof defineComponent>): VueWrapper {
  const Page = defineComponent({ render: () => h('div', [h(inner), h(ContextMenu)]) });
  return mount(Page, { global: { plugins: [pinia] }, attachTo: document.body });
}

const labels = (w: VueWrapper) => w.findAll('[role="menuitem"]').map((i) => i.text());
const focusedText = () => (document.activeElement as HTMLElement | null)?.textContent?.trim();

describe('ContextMenu', () => {
  it('focuses the first item, moves with the arrows (wrapping), Home/End, and Escape gives focus back', async () => {
    const chosen: string[] = [];
    const item = (id: string, disabled = false): MenuItem => ({ id, label: id, disabled, run: () => void chosen.push(id) });
    const Opener = defineComponent({
      setup() {
        const menu = useMenuStore();
        return () =>
          h(
            'button',
            { id: 'opener', onKeydown: (e: KeyboardEvent) => menu.show(e, 'Row actions', [item('one'), item('two', true), item('three')]) },
            'row',
          );
      },
    });
    const w = withMenu(Opener);
    const opener = w.get('#opener').element as HTMLButtonElement;
    opener.focus();
    await w.get('#opener').trigger('keydown', { key: 'F10', shiftKey: true });
    await settle();
    const menu = w.get('[role="menu"]');
    expect(menu.attributes('aria-label')).toBe('Row actions');
    expect(labels(w)).toEqual(['one', 'two', 'three']);
    expect(w.findAll('[role="menuitem"]')[1]!.attributes('aria-disabled')).toBe('true');
    expect(focusedText()).toBe('one');
    await menu.trigger('keydown', { key: 'ArrowDown' });
    expect(focusedText()).toBe('two');
    await menu.trigger('keydown', { key: 'End' });
    expect(focusedText()).toBe('three');
    await menu.trigger('keydown', { key: 'ArrowDown' });
    expect(focusedText()).toBe('one');
    await menu.trigger('keydown', { key: 'ArrowUp' });
    expect(focusedText()).toBe('three');
    await menu.trigger('keydown', { key: 'Escape' });
    await settle();
    expect(w.find('[role="menu"]').exists()).toBe(false);
    expect(document.activeElement).toBe(opener);
    expect(chosen).toEqual([]);

    // Enter chooses; a disabled item is not chosen and the menu stays.
    await w.get('#opener').trigger('keydown', { key: 'ContextMenu' });
    await settle();
    await w.get('[role="menu"]').trigger('keydown', { key: 'ArrowDown' });
    await w.get('[role="menu"]').trigger('keydown', { key: 'Enter' });
    expect(w.find('[role="menu"]').exists()).toBe(true);
    await w.get('[role="menu"]').trigger('keydown', { key: 'ArrowDown' });
    await w.get('[role="menu"]').trigger('keydown', { key: 'Enter' });
    await settle();
    expect(chosen).toEqual(['three']);
    expect(w.find('[role="menu"]').exists()).toBe(false);
  });
});

describe('the row menus', () => {
  async function files(): Promise<VueWrapper> {
    await openDemo();
    initJobsStore();
    const w = withMenu(FilesView);
    await settle();
    await useFilesStore().reveal('units/ARMCOM.FBI');
    await settle();
    return w;
  }

  it('a Files row: right-click opens its menu; the browser has no Reveal in folder', async () => {
    const w = await files();
    await w.get('[aria-label="units/ARMCOM.FBI"]').trigger('contextmenu', { clientX: 40, clientY: 50 });
    await settle();
    expect(w.get('[role="menu"]').attributes('aria-label')).toBe('units/ARMCOM.FBI: actions');
    expect(labels(w)).toEqual(['Extract…', 'Copy path', 'Override in mod', 'Open containing archive', 'Compare with winner']);
  });

  it("Shift+F10 on the tree opens the active row's menu; Open containing archive opens the winner's archive at the entry", async () => {
    const w = await files();
    await w.get('[role="tree"]').trigger('keydown', { key: 'F10', shiftKey: true });
    await settle();
    expect(w.get('[role="menu"]').attributes('aria-label')).toBe('units/ARMCOM.FBI: actions');
    await w
      .findAll('[role="menuitem"]')
      .find((i) => i.text() === 'Open containing archive')!
      .trigger('click');
    await settle();
    // mymod.ufo wins units/ARMCOM.FBI in the fake install; it lies in the install folder.
    expect(api.callsOf('archive.open').at(-1)).toEqual({ path: `${DEMO_ROOT}/mymod.ufo` });
    expect(useNavigationStore().current).toBe('archive');
  });

  it('Compare with winner shows the first shadowed provider beside the winner', async () => {
    const w = await files();
    await w.get('[aria-label="units/ARMCOM.FBI"]').trigger('contextmenu');
    await settle();
    await w
      .findAll('[role="menuitem"]')
      .find((i) => i.text() === 'Compare with winner')!
      .trigger('click');
    await settle();
    expect(useLayeringStore().comparing).toMatchObject({ archive: 'totala1.hpi' });
  });

  it('Copy path says what it copied (or the path, when there is no clipboard)', async () => {
    const w = await files();
    await w.get('[aria-label="units/ARMCOM.FBI"]').trigger('contextmenu');
    await settle();
    await w
      .findAll('[role="menuitem"]')
      .find((i) => i.text() === 'Copy path')!
      .trigger('click');
    await settle();
    expect(useMenuStore().notice).toMatch(/^(Copied|Path:) units\/ARMCOM\.FBI$/);
  });

  it("in the desktop app a Files row also offers Reveal in folder, which reveals the winner's archive", async () => {
    ({ api, pinia } = freshStudio({ desktop: true }));
    const w = await files();
    await w.get('[aria-label="units/ARMCOM.FBI"]').trigger('contextmenu');
    await settle();
    expect(labels(w)).toContain('Reveal in folder');
    await w
      .findAll('[role="menuitem"]')
      .find((i) => i.text() === 'Reveal in folder')!
      .trigger('click');
    await settle();
    expect(api.callsOf('shell.reveal')).toEqual([{ path: `${DEMO_ROOT}/mymod.ufo` }]);
  });

  it('a mount-order row: the menu opens from the keyboard and Open archive opens it', async () => {
    await openDemo();
    const mounted = useInstallStore().opened!.mounted;
    const w = withMenu(defineComponent({ render: () => h(MountOrderList, { mounted }) }));
    await settle();
    await w.findAll('li.mount-row')[1]!.trigger('keydown', { key: 'ContextMenu' });
    await settle();
    const second = mounted[1]!.archive;
    expect(w.get('[role="menu"]').attributes('aria-label')).toBe(`${second}: actions`);
    expect(labels(w)).toEqual(['Extract…', 'Copy path', 'Open archive']);
    await w
      .findAll('[role="menuitem"]')
      .find((i) => i.text() === 'Open archive')!
      .trigger('click');
    await settle();
    expect(api.callsOf('archive.open').at(-1)).toEqual({ path: `${DEMO_ROOT}/${second}` });
  });

  it('a Layering row: Compare with winner for a shadowed provider, not for the winner; Extract only for the winner', async () => {
    await openDemo();
    const shadowed = { archive: 'totala1.hpi', entry: 'units/ARMCOM.FBI', size: 1, method: 'zlib' };
    const items = providerMenu('units/ARMCOM.FBI', shadowed, false);
    expect(items.map((i) => [i.label, !!i.disabled])).toEqual([
      ['Extract…', true],
      ['Copy path', false],
      ['Override in mod', false],
      ['Open containing archive', false],
      ['Compare with winner', false],
    ]);
    await items.find((i) => i.id === 'compare')!.run();
    expect(useLayeringStore().comparing).toEqual(shadowed);
    const winner = providerMenu('units/ARMCOM.FBI', { archive: 'mymod.ufo', entry: 'units/ARMCOM.FBI', size: 1 }, true);
    expect(winner.find((i) => i.id === 'compare')!.disabled).toBe(true);
    expect(winner.find((i) => i.id === 'extract')!.disabled).toBeFalsy();
  });
});

describe('FolderBrowser (the browser picker)', () => {
  function browser(): VueWrapper {
    return mount(
      defineComponent({
        setup: () => {
          const p = usePickerStore();
          return () => (p.request ? h(FolderBrowser) : null);
        },
      }),
      { global: { plugins: [pinia] }, attachTo: document.body },
    );
  }

  it('starts at home, goes into a folder and up again, and answers the folder chosen', async () => {
    await openDemo();
    const chosen = usePickerStore().pickFolder('Choose the workspace folder');
    const w = browser();
    await settle();
    const dialog = w.get('[role="dialog"]');
    expect(dialog.attributes('aria-modal')).toBe('true');
    expect(w.get('#folder-browser-title').text()).toBe('Choose the workspace folder');
    expect(w.findAll('nav[aria-label="Places"] button').map((b) => b.text())).toEqual(['Home', 'Downloads', 'Install: TotalA']);
    expect(w.get('[data-testid="folder-path"]').text()).toBe('/home/me');
    await w
      .findAll('.folder-list button')
      .find((b) => b.text().includes('mods'))!
      .trigger('click');
    await settle();
    expect(w.get('[data-testid="folder-path"]').text()).toBe('/home/me/mods');
    expect(w.findAll('.folder-list button').map((b) => b.text())).toEqual(['📁 mymod']);
    await w.get('button[aria-label="Up one folder"]').trigger('click');
    await settle();
    expect(w.get('[data-testid="folder-path"]').text()).toBe('/home/me');
    expect(w.get('button[aria-label="Up one folder"]').attributes('disabled')).toBeDefined();
    await w
      .findAll('.folder-list button')
      .find((b) => b.text().includes('mods'))!
      .trigger('click');
    await settle();
    await w
      .findAll('button')
      .find((b) => b.text() === 'Choose this folder')!
      .trigger('click');
    expect(await chosen).toBe('/home/me/mods');
    expect(api.callsOf('dialog.pickFolder')).toHaveLength(0);
  });

  it('a refused start shows the reason and the places; Escape cancels', async () => {
    await openDemo();
    const chosen = usePickerStore().pickFolder('Extract to', '/etc/secret');
    const w = browser();
    await settle();
    expect(w.get('[role="alert"]').text()).toContain('outside your home folder');
    expect(w.findAll('nav[aria-label="Places"] button')).toHaveLength(3);
    await w.get('[role="dialog"]').trigger('keydown', { key: 'Escape' });
    expect(await chosen).toBeNull();
  });

  it("choosing an archive lists the install's archives and answers the one clicked", async () => {
    await openDemo();
    const chosen = usePickerStore().pickFile('Open an archive', DEMO_ROOT);
    const w = browser();
    await settle();
    await w
      .findAll('.folder-list button')
      .find((b) => b.text().startsWith('totala2.hpi'))!
      .trigger('click');
    expect(await chosen).toBe(`${DEMO_ROOT}/totala2.hpi`);
  });
});

describe('ExtractBar', () => {
  it("fills in the host's default, asks before extracting over a folder that holds files, then names the folder", async () => {
    ({ api, pinia } = freshStudio({ desktop: true }));
    await openDemo();
    const runs: [string, boolean][] = [];
    const w = mount(ExtractBar, {
      props: {
        label: 'Extract everything to',
        inputLabel: 'Extract archive to folder',
        disabled: false,
        from: `${DEMO_ROOT}/totala1.hpi`,
        run: async (t: string, o: boolean) => (runs.push([t, o]), o ? true : 'exists'),
      },
      global: { plugins: [pinia] },
    });
    await settle();
    expect(api.callsOf('extract.defaultTarget')).toEqual([{ from: `${DEMO_ROOT}/totala1.hpi` }]);
    expect((w.get('input').element as HTMLInputElement).value).toBe('/home/me/Downloads/totala1');
    expect(w.get('input').attributes('placeholder')).not.toContain('/tmp/extracted');
    await w.get('form').trigger('submit');
    await settle();
    expect(w.get('[data-testid="extract-exists"]').text()).toContain('/home/me/Downloads/totala1 already holds files');
    await w
      .findAll('button')
      .find((b) => b.text() === 'Extract over it')!
      .trigger('click');
    await settle();
    expect(runs).toEqual([
      ['/home/me/Downloads/totala1', false],
      ['/home/me/Downloads/totala1', true],
    ]);
    expect(w.get('[data-testid="extract-done"]').text()).toContain('Extracted to /home/me/Downloads/totala1');
    await w
      .findAll('button')
      .find((b) => b.text() === 'Open folder')!
      .trigger('click');
    await settle();
    expect(api.callsOf('shell.reveal')).toEqual([{ path: '/home/me/Downloads/totala1', open: true }]);
  });

  it("keeps a target the user typed when the source changes, and the Files store answers exists on the host's conflict", async () => {
    await openDemo();
    const w = mount(ExtractBar, {
      props: { label: 'x', inputLabel: 'Extract to folder', disabled: false, from: DEMO_ROOT, name: 'TotalA', run: async () => true },
      global: { plugins: [pinia] },
    });
    await settle();
    expect((w.get('input').element as HTMLInputElement).value).toBe('/home/me/Downloads/TotalA');
    await w.get('input').setValue('/home/me/mine');
    await w.setProps({ name: 'TotalA-units' });
    await settle();
    expect((w.get('input').element as HTMLInputElement).value).toBe('/home/me/mine');
    // No Open folder in the browser.
    await w.get('form').trigger('submit');
    await settle();
    expect(w.get('[data-testid="extract-done"]').text()).toContain('/home/me/mine');
    expect(w.findAll('button').some((b) => b.text() === 'Open folder')).toBe(false);

    initJobsStore();
    api.handlers['install.extract'] = ({ overwrite }) => {
      if (!overwrite) throw new ApiError({ code: 'conflict', message: '/home/me/mine already exists and holds 2 items' });
      return { files: 1, bytes: 1, refused: [] };
    };
    await useFilesStore().ensureLoaded();
    expect(await useFilesStore().extract('/home/me/mine', ['readme.txt'])).toBe('exists');
    expect(await useFilesStore().extract('/home/me/mine', ['readme.txt'], true)).toBe(true);
  });
});

describe('dropping files onto a workspace', () => {
  it('sends the dropped bytes with their relative paths (base64) and lists the new files', async () => {
    await openDemo();
    const workspace = useWorkspaceStore();
    await workspace.open('/home/me/mods/mymod');
    const files = [
      { path: 'art/units/NEW.FBI', file: new File(['[UNITINFO]{}'], 'NEW.FBI') },
      { path: 'readme.txt', file: new File([new Uint8Array([0, 255, 104, 105])], 'readme.txt') },
    ];
    const added = await workspace.addDropped({ files, folders: ['art'], desktopPaths: [] });
    expect(useErrorsStore().notices).toEqual([]);
    expect(added).toEqual(['art/units/NEW.FBI', 'readme.txt']);
    expect(api.callsOf('workspace.addFiles')).toEqual([
      {
        dir: '/home/me/mods/mymod',
        files: [
          { path: 'art/units/NEW.FBI', data: btoa('[UNITINFO]{}') },
          { path: 'readme.txt', data: 'AP9oaQ==' },
        ],
      },
    ]);
  });

  it('in Electron sends the dropped paths instead', async () => {
    await openDemo();
    const workspace = useWorkspaceStore();
    await workspace.open('/home/me/mods/mymod');
    api.handlers['workspace.addPaths'] = ({ sources }) => ({ added: sources.map((s) => s.split('/').pop()!) });
    expect(await workspace.addDropped({ files: [], folders: [], desktopPaths: ['/home/me/art'] })).toEqual(['art']);
    expect(api.callsOf('workspace.addFiles')).toHaveLength(0);
  });

  it('bytesToBase64 agrees with btoa over every byte value, past one chunk', () => {
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 7) & 255);
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    expect(bytesToBase64(bytes)).toBe(btoa(s));
  });
});
