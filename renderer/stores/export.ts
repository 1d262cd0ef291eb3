import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ResponseOf } from '../../shared/contract';
import type { ExportImpact } from '../../shared/mods-types';
import type { GameId } from '../../shared/vfs-types';
import { api } from '../api';
import { useErrorsStore } from './errors';
import { useInstallStore } from './install';
import { useJobsStore } from './jobs';
import { useWorkspaceStore } from './workspace';
import { isTdfSyntax } from '../../shared/file-kinds';
import { checkTdf } from '../../shared/tdf/parse';

/**
 * Export: the target archive, its impact on the install worked out before anything is written (with a
 * one-line summary beside the button, and a hint when it would win nothing), and the export itself. A
 * workspace whose TDF files have syntax errors is exported (or watched) only after the user confirms.
 */
const normal = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');

export const useExportStore = defineStore('export', () => {
  const target = ref('');
  const impact = ref<ExportImpact | null>(null);
  const impactLoading = ref(false);
  /** Why there is no impact to show for the target (outside the install). */
  const impactNote = ref<string | null>(null);
  const lastExport = ref<ResponseOf<'mods.export'> | null>(null);
  /** The user ticked "replace the install's own archive (a backup is kept)" for the current target. */
  const confirmReplace = ref(false);
  /** Files with TDF syntax errors, waiting for the user to confirm `action` anyway. */
  const confirmBroken = ref<{ action: 'export' | 'watch'; files: string[] } | null>(null);

  const root = () => useInstallStore().root;

  function reset(folder: string | null): void {
    impact.value = null;
    impactNote.value = null;
    lastExport.value = null;
    confirmBroken.value = null;
    target.value = folder ? defaultTarget(folder, useWorkspaceStore().proposedName) : '';
  }

  /** Where exports are mounted: the install's top (TA), or the Quake-family game folder's data folder. */
  const exportFolder = () => {
    const install = root();
    if (!install) return null;
    const sub = useInstallStore().dataFolder;
    return `${install.replace(/[\\/]+$/, '')}${sub ? `/${sub}` : ''}`;
  };

  function defaultTarget(folder: string, proposed: string | null): string {
    const name =
      folder
        .replace(/[\\/]+$/, '')
        .split(/[\\/]/)
        .pop() || 'mod';
    const into = exportFolder();
    if (!into) return '';
    // Quake family: the next free pakN.pak, which ranks above every pak already there.
    const pak = useInstallStore().nextPak;
    return `${into}/${proposed ?? pak ?? (/\.(ufo|hpi)$/i.test(name) ? name : `${name}.ufo`)}`;
  }

  const targetName = computed(() => target.value.trim().split(/[\\/]/).pop() ?? '');
  /** The export would land at the top of the open install (and so change what the game loads). */
  const exportsIntoInstall = computed(() => {
    const into = exportFolder();
    const t = normal(target.value.trim());
    if (!into || !t) return false;
    return t.slice(0, t.lastIndexOf('/')) === normal(into);
  });
  /** An export into the install waits until its impact has been shown. */
  const needsImpactFirst = computed(() => exportsIntoInstall.value && impact.value === null);
  /** The impact was worked out under another file name than the target's (the rank depends on the name). */
  const impactNameDiffers = computed(() => impact.value !== null && impact.value.archive.toLowerCase() !== targetName.value.toLowerCase());

  /** "wins 3 paths · loses 2 to rev31.gp3", beside the Export button. */
  const summary = computed(() => {
    const i = impact.value;
    if (!i) return null;
    if (i.rank < 0) return `not mounted: ${i.ignoredReason ?? 'ignored'}`;
    const by = new Map<string, number>();
    for (const h of i.hidden) by.set(h.by ?? 'a loose file', (by.get(h.by ?? 'a loose file') ?? 0) + 1);
    const loses = [...by].map(([who, n]) => `${n} to ${who}`).join(', ');
    return `wins ${i.wins.length} path${i.wins.length === 1 ? '' : 's'}${loses ? ` · loses ${loses}` : ''}`;
  });
  /**
   * The export would replace an archive the install holds that this session did not write: the studio says
   * so before the click, and writes only once the user confirmed (the host then keeps NAME.bak).
   */
  const replacesOriginal = computed(
    () =>
      exportsIntoInstall.value &&
      !!impact.value?.replaces &&
      !impactNameDiffers.value &&
      (lastExport.value ? normal(lastExport.value.target) !== normal(target.value.trim()) : true),
  );
  /** Writing waits for the impact (into the install) and, over an original, for the confirmation. */
  const blockedByOriginal = computed(() => replacesOriginal.value && !confirmReplace.value);
  /** The request flag for a confirmed replacement. */
  const replaceFlag = (): { replaceOriginal?: true } => (replacesOriginal.value && confirmReplace.value ? { replaceOriginal: true } : {});

  /** The export would change nothing the game loads: say so before the user exports. */
  const winsNothing = computed(() => impact.value !== null && (impact.value.rank < 0 || impact.value.wins.length === 0));

  async function previewImpact(): Promise<void> {
    const install = root();
    const dir = useWorkspaceStore().dir;
    if (!dir || !install) return;
    const t = target.value.trim();
    if (t && !exportsIntoInstall.value) {
      // An archive elsewhere is not part of this install: no rank in it to claim.
      impact.value = null;
      const into = exportFolder() ?? install;
      impactNote.value = `${t} is outside the install (${into}): the game will not load it from there, so it changes nothing; export into ${into} to mount it.`;
      return;
    }
    impactNote.value = null;
    confirmReplace.value = false;
    impactLoading.value = true;
    try {
      const name = targetName.value;
      const mod = useInstallStore().dataFolder;
      const inFolder = mod && useInstallStore().opened?.game !== 'ta' && useInstallStore().opened?.game !== 'tak' ? { mod } : {};
      impact.value = await api.call('mods.impact', { root: install, archive: dir, ...(name ? { name } : {}), ...inFolder });
    } catch (error) {
      useErrorsStore().report(error, 'Working out the export impact');
    } finally {
      impactLoading.value = false;
    }
  }

  /** The workspace's TDF-syntax files that have errors (read from disk, checked here by the shared parser). */
  async function brokenTdfFiles(): Promise<string[]> {
    const ws = useWorkspaceStore();
    const dir = ws.dir;
    if (!dir) return [];
    const broken: string[] = [];
    for (const file of ws.files.filter(isTdfSyntax)) {
      try {
        const { text } = await api.call('workspace.readText', { dir, path: file });
        if (!checkTdf(text).ok) broken.push(file);
      } catch {
        // unreadable as text: the export reports it if it matters
      }
    }
    return broken;
  }

  /** Ask before packing broken TDF files; true when the action may go ahead now. */
  async function confirmed(action: 'export' | 'watch', confirm: boolean): Promise<boolean> {
    if (confirm) {
      confirmBroken.value = null;
      return true;
    }
    const files = await brokenTdfFiles();
    confirmBroken.value = files.length ? { action, files } : null;
    return files.length === 0;
  }

  async function exportNow(options: { confirm?: boolean } = {}): Promise<boolean> {
    const t = target.value.trim();
    const dir = useWorkspaceStore().dir;
    if (!dir || !t) return false;
    if (needsImpactFirst.value) {
      // Shown first; the next Export writes.
      await previewImpact();
      return false;
    }
    if (blockedByOriginal.value) return false;
    if (!(await confirmed('export', options.confirm ?? false))) return false;
    const replace = replaceFlag();
    const result = await useJobsStore().run(
      `Exporting ${t.split(/[\\/]/).pop()}`,
      (jobId) => api.call('mods.export', { dir, target: t, jobId, ...replace, ...gameOfInstall() }),
      (r) => `${r.files} files written to ${r.target} (${r.size} bytes) in ${Math.round(r.durationMs)} ms`,
    );
    if (result) lastExport.value = result;
    return result !== null;
  }

  /** The open install's game, which decides a `.pak`'s layout (Daikatana's own, else Quake's). */
  function gameOfInstall(): { game?: GameId } {
    const game = useInstallStore().opened?.game;
    return game ? { game } : {};
  }

  /** The workspace changed: what the export would do must be worked out again. */
  function invalidate(): void {
    impact.value = null;
  }

  /**
   * The install was mounted again after `changed` (top-level names) changed on disk. The impact already
   * counts the target as replaced by the workspace, so a change of the target alone (the echo of our own
   * export or watch build) leaves it standing; any other archive may move the ranks.
   */
  function installChanged(changed: string[]): void {
    const own = targetName.value.toLowerCase();
    const onlyTarget = exportsIntoInstall.value && changed.length > 0 && changed.every((name) => name.toLowerCase() === own);
    if (!onlyTarget) invalidate();
  }

  return {
    target,
    impact,
    impactLoading,
    impactNote,
    lastExport,
    confirmBroken,
    confirmReplace,
    replacesOriginal,
    blockedByOriginal,
    replaceFlag,
    targetName,
    exportsIntoInstall,
    needsImpactFirst,
    impactNameDiffers,
    summary,
    winsNothing,
    reset,
    previewImpact,
    confirmed,
    exportNow,
    invalidate,
    installChanged,
    gameOfInstall,
  };
});
