import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ResponseOf, TdfCheck } from '../../shared/contract';
import type { ExportImpact, OverrideDiff, WatchStatus } from '../../shared/mods-types';
import { api } from '../api';
import { useErrorsStore } from './errors';
import { useInstallStore } from './install';
import { useJobsStore } from './jobs';

/**
 * The mod screen: a workspace folder tied to the open install, its files, the text editor (TDF syntax
 * checked as you type), the overrides with their diff, export with its impact first, and watch-and-repack
 * whose status arrives live over the `watch` event. State is plain and serialisable; the event wiring lives
 * in initModsStore().
 */

const TEXT_EXTENSIONS = /\.(tdf|fbi|txt|gui|ota|bos|h|ini|cfg|lst)$/i;
const TDF_EXTENSIONS = /\.(tdf|fbi|gui|ota)$/i;
/** How long typing must pause before the text is checked. */
export const CHECK_DELAY_MS = 200;

export const isEditableText = (path: string) => TEXT_EXTENSIONS.test(path);
export const isTdfSyntax = (path: string) => TDF_EXTENSIONS.test(path);

export const useModsStore = defineStore('mods', () => {
  const dir = ref<string | null>(null);
  const files = ref<string[]>([]);
  const opening = ref(false);

  const editorPath = ref<string | null>(null);
  const editorText = ref('');
  const savedText = ref('');
  const check = ref<TdfCheck | null>(null);
  const saving = ref(false);
  let checkTimer: ReturnType<typeof setTimeout> | null = null;
  let checkSeq = 0;

  const diffs = ref<OverrideDiff[]>([]);
  const diffLoading = ref(false);
  const selectedDiff = ref<string | null>(null);

  const exportTarget = ref('');
  const impact = ref<ExportImpact | null>(null);
  const impactLoading = ref(false);
  const lastExport = ref<ResponseOf<'mods.export'> | null>(null);
  /** The user ticked "replace the install's own archive (a backup is kept)" for the current target. */
  const confirmReplace = ref(false);

  const watch = ref<WatchStatus | null>(null);

  const dirty = computed(() => editorPath.value !== null && editorText.value !== savedText.value);
  const diffShown = computed(() => diffs.value.find((d) => d.path === selectedDiff.value) ?? null);
  const watching = computed(() => watch.value?.running ?? false);

  const root = () => useInstallStore().root;
  const report = (error: unknown, context: string) => void useErrorsStore().report(error, context);

  function defaultTarget(folder: string): string {
    const name = folder.replace(/[\\/]+$/, '').split(/[\\/]/).pop() || 'mod';
    const install = root();
    return install ? `${install.replace(/[\\/]+$/, '')}/${/\.(ufo|hpi)$/i.test(name) ? name : `${name}.ufo`}` : '';
  }

  async function open(folder: string): Promise<boolean> {
    const install = root();
    if (!install) {
      report('Open a game install first: a workspace is tied to one.', 'Opening a workspace');
      return false;
    }
    if (!folder.trim()) return false;
    opening.value = true;
    try {
      const opened = await api.call('workspace.open', { dir: folder.trim(), root: install });
      adopt(opened.dir, opened.files);
      await refreshWatch();
      return true;
    } catch (error) {
      report(error, 'Opening a workspace');
      return false;
    } finally {
      opening.value = false;
    }
  }

  /** Open an existing .ufo as a workspace: extracted into `folder`, its stored order remembered. */
  async function openArchive(archive: string, folder: string): Promise<boolean> {
    const install = root();
    if (!install || !archive.trim() || !folder.trim()) return false;
    opening.value = true;
    try {
      const opened = await api.call('workspace.fromArchive', { archive: archive.trim(), dir: folder.trim(), root: install });
      adopt(opened.dir, opened.files);
      return true;
    } catch (error) {
      report(error, 'Opening an archive as a workspace');
      return false;
    } finally {
      opening.value = false;
    }
  }

  function adopt(folder: string, list: string[]): void {
    dir.value = folder;
    files.value = list;
    editorPath.value = null;
    editorText.value = savedText.value = '';
    check.value = null;
    diffs.value = [];
    impact.value = null;
    lastExport.value = null;
    watch.value = null;
    if (!exportTarget.value) exportTarget.value = defaultTarget(folder);
  }

  async function refreshFiles(): Promise<void> {
    if (!dir.value) return;
    files.value = await api.call('workspace.files', { dir: dir.value });
  }

  /** Copy the install's winning file at `path` into the workspace and open it. */
  async function override(path: string): Promise<boolean> {
    const install = root();
    if (!dir.value || !install) {
      report('Open a workspace first (Mods screen).', 'Override');
      return false;
    }
    try {
      const result = await api.call('workspace.override', { dir: dir.value, root: install, path });
      impact.value = null;
      await refreshFiles();
      if (isEditableText(result.path)) await openFile(result.path);
      return true;
    } catch (error) {
      report(error, `Override ${path}`);
      return false;
    }
  }

  /** Add a new, empty text file to the workspace and open it (an existing file is opened, never replaced). */
  async function createFile(path: string): Promise<boolean> {
    const clean = path.trim().replace(/\\/g, '/').replace(/^\/+/, '');
    if (!dir.value || !clean) return false;
    const existing = files.value.find((f) => f.toLowerCase() === clean.toLowerCase());
    if (existing) {
      await openFile(existing);
      return true;
    }
    if (!isEditableText(clean)) {
      report(`${clean}: only text files (TDF, FBI, GUI, OTA, TXT, …) can be created here; copy other files into the folder`, 'New file');
      return false;
    }
    try {
      const written = await api.call('workspace.writeText', { dir: dir.value, path: clean, text: '' });
      await refreshFiles();
      impact.value = null;
      await openFile(written.path);
      return true;
    } catch (error) {
      report(error, `Creating ${clean}`);
      return false;
    }
  }

  async function openFile(path: string): Promise<void> {
    if (!dir.value) return;
    try {
      const { text } = await api.call('workspace.readText', { dir: dir.value, path });
      editorPath.value = path;
      editorText.value = savedText.value = text;
      check.value = null;
      if (isTdfSyntax(path)) await runCheck();
    } catch (error) {
      report(error, `Opening ${path}`);
    }
  }

  /** The editor changed: keep the text and check it once typing pauses. */
  function edit(text: string): void {
    editorText.value = text;
    if (!editorPath.value || !isTdfSyntax(editorPath.value)) return;
    if (checkTimer) clearTimeout(checkTimer);
    checkTimer = setTimeout(() => {
      checkTimer = null;
      void runCheck();
    }, CHECK_DELAY_MS);
  }

  async function runCheck(): Promise<void> {
    const seq = ++checkSeq;
    try {
      const result = await api.call('workspace.checkTdf', { text: editorText.value });
      // A slower answer for older text never replaces the answer for newer text.
      if (seq === checkSeq) check.value = result;
    } catch (error) {
      report(error, 'Checking TDF syntax');
    }
  }

  async function save(): Promise<boolean> {
    if (!dir.value || !editorPath.value) return false;
    saving.value = true;
    const text = editorText.value;
    try {
      await api.call('workspace.writeText', { dir: dir.value, path: editorPath.value, text });
      savedText.value = text;
      // What the export would do has changed with the file.
      impact.value = null;
      if (diffs.value.length > 0) await loadDiff();
      return true;
    } catch (error) {
      report(error, `Saving ${editorPath.value}`);
      return false;
    } finally {
      saving.value = false;
    }
  }

  async function loadDiff(): Promise<void> {
    const install = root();
    if (!dir.value || !install) return;
    diffLoading.value = true;
    try {
      diffs.value = await api.call('mods.diff', { dir: dir.value, root: install });
      if (!diffs.value.some((d) => d.path === selectedDiff.value)) selectedDiff.value = diffs.value.find((d) => d.status !== 'same')?.path ?? diffs.value[0]?.path ?? null;
    } catch (error) {
      report(error, 'Comparing the workspace with the install');
    } finally {
      diffLoading.value = false;
    }
  }

  /** What exporting would change in the install, computed before anything is written. */
  async function previewImpact(): Promise<void> {
    const install = root();
    if (!dir.value || !install) return;
    confirmReplace.value = false;
    impactLoading.value = true;
    try {
      // Under the name typed as the export target (the rank depends on it), else the workspace's own.
      const name = targetName.value;
      impact.value = await api.call('mods.impact', { root: install, archive: dir.value, ...(name ? { name } : {}) });
    } catch (error) {
      report(error, 'Working out the export impact');
    } finally {
      impactLoading.value = false;
    }
  }

  /** The export would land at the top of the open install (and so change what the game loads). */
  const exportsIntoInstall = computed(() => {
    const install = root();
    const target = exportTarget.value.trim().replace(/\\/g, '/');
    if (!install || !target) return false;
    const parent = target.slice(0, target.lastIndexOf('/'));
    return parent.replace(/\/+$/, '') === install.replace(/\\/g, '/').replace(/\/+$/, '');
  });
  const targetName = computed(() => exportTarget.value.trim().split(/[\\/]/).pop() ?? '');
  /** An export into the install waits until its impact has been shown. */
  const needsImpactFirst = computed(() => exportsIntoInstall.value && impact.value === null);
  /** The impact was worked out under another file name than the target's (the rank depends on the name). */
  const impactNameDiffers = computed(() => impact.value !== null && impact.value.archive.toLowerCase() !== targetName.value.toLowerCase());

  /**
   * The export would replace an archive the install holds that this session did not write: the studio says
   * so before the click, and writes only once the user confirmed (the host then keeps NAME.bak).
   */
  const replacesOriginal = computed(
    () => exportsIntoInstall.value && !!impact.value?.replaces && !impactNameDiffers.value && lastExport.value?.target.replace(/\\/g, '/') !== exportTarget.value.trim().replace(/\\/g, '/'),
  );
  /** Writing waits for the impact (into the install) and, over an original, for the confirmation. */
  const blockedByOriginal = computed(() => replacesOriginal.value && !confirmReplace.value);

  async function exportNow(): Promise<boolean> {
    const target = exportTarget.value.trim();
    const folder = dir.value;
    if (!folder || !target) return false;
    if (needsImpactFirst.value) {
      // Shown first; the next Export writes.
      await previewImpact();
      return false;
    }
    if (blockedByOriginal.value) return false;
    const replaceOriginal = replacesOriginal.value && confirmReplace.value;
    const result = await useJobsStore().run(
      `Exporting ${target.split(/[\\/]/).pop()}`,
      (jobId) => api.call('mods.export', { dir: folder, target, jobId, ...(replaceOriginal ? { replaceOriginal } : {}) }),
      (r) => `${r.files} files written to ${r.target} (${r.size} bytes) in ${Math.round(r.durationMs)} ms`,
    );
    if (result) lastExport.value = result;
    return result !== null;
  }

  async function refreshWatch(): Promise<void> {
    if (!dir.value) return;
    try {
      applyWatch(await api.call('watch.status', { dir: dir.value }));
    } catch (error) {
      report(error, 'Reading the watch status');
    }
  }

  async function toggleWatch(on: boolean, debounceMs?: number): Promise<void> {
    const folder = dir.value;
    const target = exportTarget.value.trim();
    if (!folder) return;
    if (on && needsImpactFirst.value) {
      // A watch into the install builds at once: its impact is shown first, as for an export.
      await previewImpact();
      return;
    }
    if (on && blockedByOriginal.value) return;
    const replaceOriginal = on && replacesOriginal.value && confirmReplace.value;
    try {
      applyWatch(on ? await api.call('watch.start', { dir: folder, target, debounceMs, ...(replaceOriginal ? { replaceOriginal } : {}) }) : await api.call('watch.stop', { dir: folder }));
    } catch (error) {
      report(error, on ? 'Starting the watch' : 'Stopping the watch');
    }
  }

  /**
   * Keep a status about this workspace unless a newer one is already here: a call's answer can arrive
   * after the events of the builds it started.
   */
  function applyWatch(status: WatchStatus): void {
    if (!dir.value || status.workspace !== dir.value) return;
    const held = watch.value;
    if (held && held.workspace === status.workspace && (status.revision ?? 0) < (held.revision ?? 0)) return;
    watch.value = status;
  }

  /** A `watch` event from the host. */
  function onWatchEvent(status: WatchStatus): void {
    applyWatch(status);
  }

  return {
    dir, files, opening, editorPath, editorText, savedText, check, saving, diffs, diffLoading, selectedDiff, exportTarget,
    impact, impactLoading, lastExport, confirmReplace, replacesOriginal, blockedByOriginal, watch, dirty, diffShown, watching, exportsIntoInstall, needsImpactFirst, impactNameDiffers,
    open, openArchive, refreshFiles, override, createFile, openFile, edit, runCheck, save, loadDiff, previewImpact, exportNow,
    refreshWatch, toggleWatch, onWatchEvent,
  };
});

/** Wire the store to the host's `watch` events; returns the unsubscribe function. */
export function initModsStore(): () => void {
  const store = useModsStore();
  return api.on('watch', (status) => store.onWatchEvent(status));
}
