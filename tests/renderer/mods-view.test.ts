// @vitest-environment happy-dom
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mount, flushPromises, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import ModView from '../../renderer/views/ModView.vue';
import { createBridgeApi, setApi } from '../../renderer/api';
import { CHECK_DELAY_MS } from '../../renderer/stores/editor';
import { useWorkspaceStore } from '../../renderer/stores/workspace';
import { useEditorStore } from '../../renderer/stores/editor';
import { useOverridesStore } from '../../renderer/stores/overrides';
import { useExportStore } from '../../renderer/stores/export';
import { useWatchStore } from '../../renderer/stores/watch';
import { initInstallStore, useInstallStore } from '../../renderer/stores/install';
import { useFilesStore } from '../../renderer/stores/files';
import { createStudioHost } from '../../electron/services/handlers/index.js';
import type { StudioHost } from '../../electron/services/host/host.js';
import { makeInstall, type FixtureInstall } from '../unit/mods/fixture.js';
import type { ResponseOf } from '../../shared/contract.js';
import { until } from './harness';

/**
 * The Mods screen against the real studio host in-process (zod validation, allowlist, ModsService, the
 * layered filesystem and the HPI writer) on a generated TA install: open a workspace, override the file
 * selected on the Files screen, edit it with the TDF check running as you type, save, see the override's
 * diff, see the impact, export into the install, and watch with the last build arriving over the event.
 */
let fx: FixtureInstall;
let host: StudioHost;
let wrapper: VueWrapper;

beforeAll(async () => {
  fx = await makeInstall();
  host = await createStudioHost({ facts: { version: 'test', host: 'web', initialRoot: fx.root, demo: false }, recentFile: null });
  setApi(
    createBridgeApi({
      call: (name, request) => host.call(name, request),
      on: (event, listener) => host.on((e, p) => e === event && listener(p)),
    }),
  );
  setActivePinia(createPinia());
  // As the app does: the install followed as the host re-mounts it.
  initInstallStore();
  expect(await useInstallStore().open(fx.root)).toBe(true);
  wrapper = mount(ModView, { attachTo: document.body });
});
afterAll(async () => {
  wrapper?.unmount();
  await host?.close();
  await fx?.cleanup();
});

describe('Mods screen', () => {
  it('opens a workspace folder tied to the install', async () => {
    const dir = join(fx.work, 'mymod');
    const field = wrapper.find('input[placeholder="/home/me/mods/mymod"]');
    await field.setValue(dir);
    await field.element.closest('form')!.dispatchEvent(new Event('submit'));
    await until(() => useWorkspaceStore().dir !== null);
    expect(useWorkspaceStore().dir).toBe(dir);
    expect(wrapper.find('section[aria-label="Workspace"]').exists()).toBe(true);
    expect((wrapper.find('input[aria-label="Export target"]').element as HTMLInputElement).value).toBe(join(fx.root, 'mymod.ufo'));
  });

  it('splits the workspace files and the editor with a separator the keys move, its size remembered', async () => {
    const separator = wrapper.get('[role="separator"][aria-label="Resize the workspace files and the editor"]');
    const split = separator.element.parentElement!;
    // The workspace section is the first pane, the editor the second.
    const panes = [...split.children].map((e) => e.getAttribute('role') ?? e.getAttribute('aria-label'));
    expect(panes).toEqual(['Workspace', 'separator', 'Editor']);
    expect(separator.attributes('aria-valuenow')).toBe('33');
    expect(separator.attributes('tabindex')).toBe('0');
    for (let i = 0; i < 3; i++) await separator.trigger('keydown', { key: 'ArrowRight' });
    expect(separator.attributes('aria-valuenow')).toBe('39');
    expect(split.style.gridTemplateColumns).toBe('minmax(0, 39fr) auto minmax(0, 61fr)');
    expect(localStorage.getItem('modpak.split.mods')).toBe('39');
    await separator.trigger('keydown', { key: 'End' });
    expect(separator.attributes('aria-valuenow')).toBe('70');
    await separator.trigger('keydown', { key: 'Home' });
    expect(separator.attributes('aria-valuenow')).toBe('20');
    localStorage.removeItem('modpak.split.mods');
  });

  it('overrides the path selected on the Files screen and opens it in the editor with its TDF check', async () => {
    const files = useFilesStore();
    await files.load(fx.root);
    files.reveal('units/ARMCOM.FBI');
    await flushPromises();
    const button = wrapper.find('[data-testid="override-selected"]');
    expect(button.text()).toBe('Override units/ARMCOM.FBI');
    await button.trigger('click');
    await until(() => useEditorStore().path === 'units/ARMCOM.FBI' && useEditorStore().check !== null);
    expect(wrapper.find('ul[aria-label="Workspace files"]').text()).toContain('units/ARMCOM.FBI');
    expect((wrapper.find('textarea[aria-label="File text"]').element as HTMLTextAreaElement).value).toContain('MaxDamage=3000;');
    expect(wrapper.find('[data-testid="tdf-check"]').text()).toBe('✓ TDF syntax ok');
  });

  it('checks TDF syntax as you type and saves the edit to the workspace', async () => {
    const area = wrapper.find('textarea[aria-label="File text"]');
    const text = (area.element as HTMLTextAreaElement).value;
    await area.setValue(text.replace(/\}\r\n$/, ''));
    await new Promise((r) => setTimeout(r, CHECK_DELAY_MS + 50));
    await until(() => useEditorStore().check?.ok === false);
    expect(wrapper.find('[data-testid="tdf-check"]').text()).toBe('✗ 1 error(s)');
    expect(wrapper.find('ul[aria-label="Problems"]').text()).toMatch(/line \d+: section \[UNITINFO\] opened on line 1 is never closed/);
    await area.setValue(text.replace('MaxDamage=3000', 'MaxDamage=4500'));
    await new Promise((r) => setTimeout(r, CHECK_DELAY_MS + 50));
    await until(() => useEditorStore().check?.ok === true);
    const save = wrapper.findAll('button').find((b) => b.text() === 'Save')!;
    expect(save.attributes('disabled')).toBeUndefined();
    await save.trigger('click');
    await until(() => !useEditorStore().dirty);
    expect(await readFile(join(fx.work, 'mymod', 'units', 'ARMCOM.FBI'), 'latin1')).toContain('MaxDamage=4500;');
  });

  it('adds a new text file, which the diff lists as added', async () => {
    const field = wrapper.find('input[aria-label="New file path"]');
    await field.setValue('weapons/ZAP.TDF');
    await field.element.closest('form')!.dispatchEvent(new Event('submit'));
    await until(() => useEditorStore().path === 'weapons/ZAP.TDF');
    const area = wrapper.find('textarea[aria-label="File text"]');
    await area.setValue('[ZAP]\r\n{\r\n\trange=100;\r\n}\r\n');
    await wrapper
      .findAll('button')
      .find((b) => b.text() === 'Save')!
      .trigger('click');
    await until(() => !useEditorStore().dirty);
    expect(await readFile(join(fx.work, 'mymod', 'weapons', 'ZAP.TDF'), 'latin1')).toBe('[ZAP]\r\n{\r\n\trange=100;\r\n}\r\n');
    expect(useWorkspaceStore().files).toEqual(['units/ARMCOM.FBI', 'weapons/ZAP.TDF']);
    // Not a text file: refused with a message, nothing written.
    expect(await useWorkspaceStore().createFile('unitpics/ZAP.PCX')).toBeNull();
    expect(useWorkspaceStore().files).toHaveLength(2);
    // Back to the unit for the steps that follow.
    await useEditorStore().openFile('units/ARMCOM.FBI');
  });

  it('lists the overrides with the diff beside: the changed key and the archive it shadows', async () => {
    await wrapper
      .findAll('button')
      .find((b) => b.text() === 'Compare with the install')!
      .trigger('click');
    await until(() => useOverridesStore().diffs.length === 2);
    expect(wrapper.find('ul[aria-label="Override list"]').text()).toMatch(
      /modified\s*units\/ARMCOM\.FBI\s*← totala1\.hpi\s*added\s*weapons\/ZAP\.TDF/,
    );
    const diff = wrapper.find('[aria-label="Diff"]');
    expect(diff.find('[data-testid="diff-base"]').text()).toBe('Shadows units/ARMCOM.FBI from totala1.hpi');
    expect(diff.find('ul[aria-label="Changed keys"]').text()).toBe('[UNITINFO] MaxDamage: 3000 → 4500');
    expect(diff.find('[data-testid="unified-diff"]').text()).toContain('+\tMaxDamage=4500;');
  });

  it('shows the impact before exporting, then exports into the install where it mounts', async () => {
    const exportButton = () => wrapper.find('[aria-label="Export"] button.primary');
    expect(exportButton().text()).toBe('Show impact, then export');
    // The first press only works out the impact: nothing is written yet.
    await exportButton().trigger('click');
    await until(() => useExportStore().impact !== null);
    await expect(stat(join(fx.root, 'mymod.ufo'))).rejects.toThrow();
    expect(exportButton().text()).toBe('Export into the install');
    expect(wrapper.find('[data-testid="impact-rank"]').text()).toMatch(/mymod\.ufo would mount at position 1 in the ufo stage/);
    expect(wrapper.find('[aria-label="Definitions"]').text()).toMatch(/unit ARMCOM wins over totala1\.hpi/);
    await expect(stat(join(fx.root, 'mymod.ufo'))).rejects.toThrow();
    const revision = useInstallStore().revision;
    await exportButton().trigger('click');
    await until(() => useExportStore().lastExport !== null);
    // The install is mounted again with the export in it: that echo of our own write keeps the impact.
    await until(() => useInstallStore().revision > revision);
    expect(useInstallStore().lastChange).toEqual(['mymod.ufo']);
    expect(useExportStore().impact).not.toBeNull();
    expect(wrapper.find('[data-testid="export-result"]').text()).toMatch(/✓ 2 files, \d+ bytes in \d+ ms/);
    const opened = await host.call('install.open', { root: fx.root });
    expect(opened.ok && (opened.result as ResponseOf<'install.open'>).mounted[0]).toMatchObject({ archive: 'mymod.ufo', stage: 'ufo' });
  });

  it('watches: the toggle starts repacking and the last build arrives live over the watch event', async () => {
    const watch = useWatchStore();
    const toggle = wrapper.find('[aria-label="Watch"] input[type="checkbox"]');
    await toggle.setValue(true);
    // One tick starts it: the impact shown before the export still stands.
    await until(() => watch.status?.lastBuild?.ok === true);
    expect((toggle.element as HTMLInputElement).checked).toBe(true);
    expect(wrapper.find('[data-testid="watch-last"]').text()).toMatch(/✓ build 1 · .* · [\d.]+ ms · 2 files/);
    const area = wrapper.find('textarea[aria-label="File text"]');
    await area.setValue((area.element as HTMLTextAreaElement).value.replace('MaxDamage=4500', 'MaxDamage=5000'));
    await wrapper
      .findAll('button')
      .find((b) => b.text() === 'Save')!
      .trigger('click');
    await until(() => (watch.status?.lastBuild?.number ?? 0) >= 2 && watch.status?.state === 'ok');
    await flushPromises();
    expect(wrapper.find('[data-testid="watch-last"]').text()).toMatch(/✓ build [2-9] · /);
    const archive = await host.call('archive.read', { path: join(fx.root, 'mymod.ufo'), entry: 'units/ARMCOM.FBI' });
    expect(archive.ok && Buffer.from((archive.result as ResponseOf<'archive.read'>).data, 'base64').toString('latin1')).toContain(
      'MaxDamage=5000;',
    );
    await toggle.setValue(false);
    await until(() => watch.status?.running === false);
  });

  it('a tick after the workspace changed shows the impact first and leaves the box unticked', async () => {
    const watch = useWatchStore();
    const toggle = wrapper.find('[aria-label="Watch"] input[type="checkbox"]');
    // The last step's save wiped the impact: what the export would do must be worked out again.
    expect(useExportStore().impact).toBeNull();
    await toggle.setValue(true);
    await until(() => useExportStore().impact !== null);
    await flushPromises();
    expect(watch.status?.running).toBe(false);
    expect((toggle.element as HTMLInputElement).checked).toBe(false);
    expect(wrapper.find('[data-testid="impact-rank"]').text()).toMatch(/mymod\.ufo would mount at position 1 in the ufo stage/);
  });

  it('opens an existing .ufo as a new workspace, extracted with its files', async () => {
    const folder = join(fx.work, 'reopened');
    const field = wrapper.find('input[placeholder="/home/me/mods/mymod"]');
    await field.setValue(folder);
    await wrapper.find('input[aria-label="Archive to open as workspace"]').setValue(join(fx.root, 'mymod.ufo'));
    await wrapper
      .findAll('button')
      .find((b) => b.text() === 'Open archive')!
      .trigger('click');
    await until(() => useWorkspaceStore().dir === folder);
    expect(useWorkspaceStore().files).toEqual(['units/ARMCOM.FBI', 'weapons/ZAP.TDF']);
    expect(await readFile(join(folder, 'units', 'ARMCOM.FBI'), 'latin1')).toContain('MaxDamage=5000;');
    // A folder that is not empty is refused: nothing of the modder's is overwritten.
    expect(await useWorkspaceStore().openArchive(join(fx.root, 'mymod.ufo'), folder)).toBe(false);
  });
});
