// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { flushPromises } from '@vue/test-utils';
import { setApi } from '../../renderer/api';
import { initModsStore } from '../../renderer/stores/mods';
import { useWorkspaceStore } from '../../renderer/stores/workspace';
import { CHECK_DELAY_MS, useEditorStore } from '../../renderer/stores/editor';
import { useExportStore } from '../../renderer/stores/export';
import { useWatchStore } from '../../renderer/stores/watch';
import { useInstallStore } from '../../renderer/stores/install';
import type { CallName, Events, RequestOf, ResponseOf, StudioApi } from '../../shared/contract';
import type { WatchStatus } from '../../shared/mods-types';

/**
 * The store's ordering rules with a scripted host: answers and events that cross each other, and TDF
 * checks run in the studio. (The whole screen against the real host is in mods-view.test.ts.)
 */
type Handler = (request: unknown) => Promise<unknown>;
function scriptedApi(handlers: Partial<Record<CallName, Handler>>) {
  const listeners = new Set<(p: WatchStatus) => void>();
  const changeListeners = new Set<(p: Events['workspace.changed']) => void>();
  const api: StudioApi = {
    call<K extends CallName>(name: K, request: RequestOf<K>): Promise<ResponseOf<K>> {
      const h = handlers[name];
      if (!h) return Promise.reject(new Error(`unexpected call ${name}`));
      return h(request) as Promise<ResponseOf<K>>;
    },
    on<E extends keyof Events>(event: E, listener: (payload: Events[E]) => void) {
      if (event === 'workspace.changed') {
        const l = listener as unknown as (p: Events['workspace.changed']) => void;
        changeListeners.add(l);
        return () => changeListeners.delete(l);
      }
      if (event !== 'watch') return () => {};
      const l = listener as unknown as (p: WatchStatus) => void;
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  return {
    api,
    emit: (s: WatchStatus) => listeners.forEach((l) => l(s)),
    changed: (p: Events['workspace.changed']) => changeListeners.forEach((l) => l(p)),
  };
}

const status = (revision: number, state: WatchStatus['state'], lastBuild: WatchStatus['lastBuild'] = null): WatchStatus => ({
  workspace: '/ws/mod',
  target: '/games/TA/mod.ufo',
  running: true,
  state,
  lastBuild,
  revision,
});
const built = { number: 1, at: '2026-01-01T00:00:00.000Z', durationMs: 12, ok: true, message: 'built', files: 3 };

beforeEach(() => setActivePinia(createPinia()));

const impactOf = (replaces: string | null) => ({
  archive: 'mod.ufo',
  stage: 'ufo',
  rank: 0,
  pushesOut: null,
  hidden: [],
  wins: [],
  definitions: [],
  replaces,
});

async function openWorkspace(handlers: Partial<Record<CallName, Handler>>) {
  const scripted = scriptedApi({
    'workspace.open': async () => ({ dir: '/ws/mod', root: '/games/TA', files: ['units/A.FBI'] }),
    'watch.status': async () => ({ workspace: '/ws/mod', target: '', running: false, state: 'idle', lastBuild: null }),
    ...handlers,
  });
  setApi(scripted.api);
  useInstallStore().root = '/games/TA';
  const stop = initModsStore();
  expect(await useWorkspaceStore().open('/ws/mod')).toBe(true);
  return { ...scripted, stop };
}

describe('mods store', () => {
  it("keeps the impact when a change event only echoes the studio's own save; drops it for anyone else's", async () => {
    const { changed, stop } = await openWorkspace({
      'workspace.readText': async () => ({ path: 'units/A.FBI', text: '[A]{x=1;}', hash: 'h1' }),
      'workspace.writeText': async () => ({ path: 'units/A.FBI', bytes: 9, hash: 'h2' }),
      'workspace.files': async () => ['units/A.FBI'],
      'mods.impact': async () => impactOf(null),
    });
    const editor = useEditorStore();
    const exporting = useExportStore();
    await editor.openFile('units/A.FBI');
    editor.edit('[A]{x=2;}');
    expect(await editor.save()).toBe(true);
    await exporting.previewImpact();
    expect(exporting.impact).not.toBeNull();
    // The watcher's event for that save arrives after the impact was worked out: the file holds what was saved.
    changed({ dir: '/ws/mod', files: [{ path: 'units/a.fbi', hash: 'h2' }] });
    expect(exporting.impact).not.toBeNull();
    // Another editor changed the file: the impact no longer describes the workspace.
    changed({ dir: '/ws/mod', files: [{ path: 'units/A.FBI', hash: 'h3' }] });
    expect(exporting.impact).toBeNull();
    stop();
  });

  it("keeps the impact when the install changed only in the target (the export's own echo); drops it for any other archive", async () => {
    const { stop } = await openWorkspace({ 'mods.impact': async () => impactOf(null) });
    const install = useInstallStore();
    const exporting = useExportStore();
    exporting.target = '/games/TA/mod.ufo';
    expect(exporting.exportsIntoInstall).toBe(true);
    await exporting.previewImpact();
    const remounted = (changed: string[]) =>
      install.onChanged({ root: '/games/TA', game: 'ta', mounted: [], ignored: [], changed } as unknown as Events['install.changed']);
    remounted(['MOD.UFO']);
    await flushPromises();
    expect(install.revision).toBe(1);
    expect(exporting.impact).not.toBeNull();
    // Another archive may move the ranks.
    remounted(['mod.ufo', 'totala2.hpi']);
    await flushPromises();
    expect(exporting.impact).toBeNull();
    stop();
  });

  it('keeps the newer file list when an older listing answers late', async () => {
    const answers: Array<(files: string[]) => void> = [];
    await openWorkspace({
      'workspace.files': () => new Promise((resolve) => answers.push(resolve as (files: string[]) => void)),
    });
    const workspace = useWorkspaceStore();
    const older = workspace.refreshFiles();
    const newer = workspace.refreshFiles();
    answers[1]!(['units/A.FBI', 'weapons/ZAP.TDF']);
    await newer;
    answers[0]!(['units/A.FBI']);
    await older;
    expect(workspace.files).toEqual(['units/A.FBI', 'weapons/ZAP.TDF']);
    // A listing of a workspace that was closed meanwhile never lands in the next one.
    const late = workspace.refreshFiles();
    workspace.close();
    answers[2]!(['units/A.FBI']);
    await late;
    expect(workspace.files).toEqual([]);
  });

  it('keeps the newer watch status when the start answer arrives after the build events', async () => {
    let emit: (s: WatchStatus) => void = () => {};
    const { stop, emit: e } = await openWorkspace({
      'watch.start': async () => {
        // The first build runs and reports before the call's own (older) snapshot gets back.
        emit(status(2, 'building'));
        emit(status(3, 'ok', built));
        return status(1, 'building');
      },
      'mods.impact': async () => impactOf(null),
    });
    emit = e;
    expect(useExportStore().target).toBe('/games/TA/mod.ufo');
    const watch = useWatchStore();
    // A watch into the install shows its impact first, as an export does; the second toggle starts it.
    await watch.toggle(true);
    expect(useExportStore().impact).not.toBeNull();
    await watch.toggle(true);
    expect(watch.status).toMatchObject({ state: 'ok', revision: 3, lastBuild: { files: 3 } });
    e({ ...status(4, 'ok', built), workspace: '/ws/other' });
    expect(watch.status?.revision).toBe(3);
    stop();
  });

  it('checks TDF syntax in the studio itself once typing pauses: no host call (the scripted host has no workspace.checkTdf)', async () => {
    const asked: string[] = [];
    await openWorkspace({
      'workspace.readText': async () => ({ path: 'units/A.FBI', text: '[A]{x=1;}', hash: 'h1' }),
      'workspace.checkTdf': async () => {
        asked.push('workspace.checkTdf');
        return { ok: true, problems: [] };
      },
    });
    const editor = useEditorStore();
    await editor.openFile('units/A.FBI');
    expect(editor.check).toMatchObject({ ok: true, problems: [] });
    vi.useFakeTimers();
    try {
      editor.edit('[A]\n{\nx=2;\n');
      expect(editor.check?.ok).toBe(true);
      vi.advanceTimersByTime(CHECK_DELAY_MS);
    } finally {
      vi.useRealTimers();
    }
    // The section opened on line 1 never closes: an error the shared parser reports with its line.
    expect(editor.check?.ok).toBe(false);
    expect(editor.check?.problems).toContainEqual(
      expect.objectContaining({ severity: 'error', line: 4, message: expect.stringContaining('opened on line 1') }),
    );
    expect(asked).toEqual([]);
    expect(editor.dirty).toBe(true);
  });

  it("works out the impact under the name typed as the export target, else the workspace's own", async () => {
    const asked: unknown[] = [];
    const impactOf = (name: string) => ({ archive: name, stage: 'ufo', rank: 1, pushesOut: null, hidden: [], wins: [], definitions: [] });
    const { stop } = await openWorkspace({
      'mods.impact': async (request) => {
        asked.push(request);
        return impactOf((request as { name?: string }).name ?? 'mod.ufo');
      },
    });
    const exporting = useExportStore();
    await exporting.previewImpact(); // the target opening filled in: the install folder, the workspace's name
    exporting.target = '/games/TA/zz-mine.ufo';
    await exporting.previewImpact();
    expect(exporting.impact?.archive).toBe('zz-mine.ufo');
    expect(exporting.impactNameDiffers).toBe(false);
    exporting.target = '';
    await exporting.previewImpact();
    expect(asked).toEqual([
      { root: '/games/TA', archive: '/ws/mod', name: 'mod.ufo' },
      { root: '/games/TA', archive: '/ws/mod', name: 'zz-mine.ufo' },
      { root: '/games/TA', archive: '/ws/mod' },
    ]);
    // A target outside the install claims no rank in it: no impact asked, and the reason shown.
    exporting.target = '/sys/mymod.ufo';
    await exporting.previewImpact();
    expect(asked).toHaveLength(3);
    expect(exporting.impact).toBeNull();
    expect(exporting.impactNote).toMatch(/\/sys\/mymod\.ufo is outside the install \(\/games\/TA\)/);
    stop();
  });

  it('says before the click that the export replaces an original, and sends the confirmation only once given', async () => {
    const exports: unknown[] = [];
    const watches: unknown[] = [];
    await openWorkspace({
      'mods.impact': async () => impactOf('mod.ufo'),
      'mods.export': async (request) => {
        exports.push(request);
        return { target: '/games/TA/mod.ufo', files: 1, bytes: 1, size: 1, durationMs: 1 };
      },
      'watch.start': async (request) => {
        watches.push(request);
        return status(1, 'building');
      },
    });
    const exporting = useExportStore();
    await exporting.previewImpact();
    expect(exporting.replacesOriginal).toBe(true);
    expect(exporting.blockedByOriginal).toBe(true);
    expect(await exporting.exportNow()).toBe(false);
    await useWatchStore().toggle(true);
    expect(exports).toEqual([]);
    expect(watches).toEqual([]);
    exporting.confirmReplace = true;
    expect(await exporting.exportNow({ confirm: true })).toBe(true);
    expect(exports).toEqual([expect.objectContaining({ target: '/games/TA/mod.ufo', replaceOriginal: true })]);
    // Once this session wrote it, it is no longer the install's original.
    expect(exporting.replacesOriginal).toBe(false);
  });
});
