// @vitest-environment happy-dom
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mount, flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { join } from 'node:path';
import FilesView from '../../renderer/views/FilesView.vue';
import { createBridgeApi, setApi } from '../../renderer/api';
import { useInstallStore } from '../../renderer/stores/install';
import { initFilesStore, useFilesStore } from '../../renderer/stores/files';
import { useNavigationStore } from '../../renderer/stores/navigation';
import { createStudioHost } from '../../electron/services/handlers/index.js';
import type { StudioHost } from '../../electron/services/host/host.js';
import { makeInstall, packTree, type FixtureInstall } from '../unit/mods/fixture.js';
import { giveElementsSize, until } from './harness';

/**
 * The Files tree as the studio reads it since issue 15 (the tree read as soon as an install opens, not at
 * the first visit to the Files screen), against the real host in-process on generated TA installs: one
 * read per install whoever asks, a deep path revealed while the read is still on its way, and a second
 * install opened meanwhile winning over the first one's late answer.
 */
let fx: FixtureInstall;
let other: string;
let host: StudioHost;
const calls: { name: string; request: unknown }[] = [];
/** Names of the calls answered so far, in order. */
const answered: string[] = [];
/** Calls to hold until released, by name (to catch a read on its way). */
const gates = new Map<string, Promise<void>>();
const treeCalls = () => calls.filter((c) => c.name === 'install.tree').map((c) => (c.request as { root: string }).root);

function hold(name: string): () => void {
  let release!: () => void;
  gates.set(name, new Promise<void>((r) => (release = r)));
  return () => {
    gates.delete(name);
    release();
  };
}

beforeAll(async () => {
  giveElementsSize();
  fx = await makeInstall();
  await packTree(fx.work, join(fx.root, 'deep.ufo'), {
    'Features/all worlds/urban/cars/CAR1.TDF': '[Car1]{}',
    'Features/all worlds/urban/cars/car2.tdf': '[Car2]{}',
  });
  const second = await makeInstall();
  other = second.root;
  const cleanupFirst = fx.cleanup;
  fx = { ...fx, cleanup: async () => (await cleanupFirst(), await second.cleanup()) };
  host = await createStudioHost({ facts: { version: 'test', host: 'web', initialRoot: null, demo: false }, recentFile: null });
  await host.grant(fx.root);
  await host.grant(other);
  setApi(
    createBridgeApi({
      call: async (name, request) => {
        calls.push({ name, request });
        await gates.get(name);
        const answer = await host.call(name, request);
        answered.push(name);
        return answer;
      },
      on: (event, listener) => host.on((e, p) => e === event && listener(p)),
    }),
  );
  setActivePinia(createPinia());
  initFilesStore();
});
afterAll(async () => {
  await host?.close();
  await fx?.cleanup();
});

describe('the first tree', () => {
  it('is read when the install opens, before the Files screen asks, and only once', async () => {
    expect(await useInstallStore().open(fx.root)).toBe(true);
    const files = useFilesStore();
    await until(() => files.tree !== null);
    expect(treeCalls()).toEqual([fx.root]);
    // What the host holds: every winning path.
    expect([...files.tree!.paths].sort()).toEqual(
      [
        'Features/all worlds/urban/cars/CAR1.TDF',
        'Features/all worlds/urban/cars/car2.tdf',
        'unitpics/ARMCOM.PCX',
        'units/ARMCOM.FBI',
        'units/ARMFLASH.FBI',
        'units/CORCOM.FBI',
        'weapons/WEAPONS.TDF',
        'TOTALA.EXE',
      ].sort(),
    );
    const view = mount(FilesView, { attachTo: document.body });
    await until(() => view.findAll('[role="treeitem"]').length > 0);
    expect(view.findAll('[role="treeitem"]').map((r) => r.text())).toEqual(
      expect.arrayContaining([expect.stringContaining('Features/'), expect.stringContaining('units/')]),
    );
    expect(treeCalls()).toEqual([fx.root]);
    view.unmount();
  });

  it('reveals a deep path asked for while the tree is on its way, with one read', async () => {
    const release = hold('install.tree');
    expect(await useInstallStore().open(other)).toBe(true);
    const files = useFilesStore();
    await until(() => treeCalls().length === 2);
    expect(files.tree).toBeNull();
    expect(files.loading).toBe(true);
    const shown = files.showInFiles('UNITS/armcom.fbi');
    release();
    await shown;
    expect(useNavigationStore().current).toBe('files');
    expect(files.activeRow?.path).toBe('units/ARMCOM.FBI');
    expect(treeCalls()).toEqual([fx.root, other]);
  });

  it("keeps the newest install's tree when an older read answers late", async () => {
    const release = hold('install.tree');
    expect(await useInstallStore().open(fx.root)).toBe(true);
    await until(() => treeCalls().length === 3);
    // The second open's read is let through; the first is still held.
    gates.delete('install.tree');
    expect(await useInstallStore().open(other)).toBe(true);
    const files = useFilesStore();
    await until(() => files.tree !== null && files.treeRoot === other);
    release();
    // The held read has answered (its answer handed to the store) before the store is looked at.
    await until(() => answered.filter((n) => n === 'install.tree').length === 4);
    await flushPromises();
    expect(files.treeRoot).toBe(other);
    expect(files.tree!.paths).not.toContain('Features/all worlds/urban/cars/CAR1.TDF');
    await files.showInFiles('features/all worlds/urban/cars/car1.tdf');
    expect(files.activeRow).toBeNull();
  });

  it('reveals a deep path in the install that has it, expanding every folder on the way', async () => {
    expect(await useInstallStore().open(fx.root)).toBe(true);
    const files = useFilesStore();
    await files.showInFiles('FEATURES/ALL WORLDS/URBAN/CARS/car2.TDF');
    expect(files.activeRow?.path).toBe('Features/all worlds/urban/cars/car2.tdf');
    expect(files.rows.filter((r) => r.kind === 'dir' && r.expanded).map((r) => r.name)).toEqual([
      'Features',
      'all worlds',
      'urban',
      'cars',
    ]);
  });
});
