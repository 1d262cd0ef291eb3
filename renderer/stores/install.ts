import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { REMOUNT_JOB, type Events, type ResponseOf } from '../../shared/contract';
import type { GameId, ModFolders } from '../../shared/vfs-types';
import { api } from '../api';
import { useErrorsStore } from './errors';

export type OpenedInstall = ResponseOf<'install.open'>;

export const GAME_NAMES: Record<GameId, string> = {
  ta: 'Total Annihilation',
  tak: 'Total Annihilation: Kingdoms',
  quake: 'Quake',
  quake2: 'Quake II',
  daikatana: 'Daikatana',
  halflife: 'Half-Life',
};

/** The open game install: its root, the game detected, the mount order and ignored archives. */
export const useInstallStore = defineStore('install', () => {
  const root = ref<string | null>(null);
  const opened = ref<OpenedInstall | null>(null);
  const recent = ref<string[]>([]);
  const opening = ref(false);
  /** The last open's failure, shown next to the path field. */
  const openError = ref<string | null>(null);
  /** Bumped on every successful open, so screens reload what they derived from the old install. */
  const generation = ref(0);
  /**
   * Bumped when the open install changed on disk and the host mounted it again (`install.changed`): the
   * screens refresh what they show and keep the selection.
   */
  const revision = ref(0);
  /** The top-level names of the last change on disk. */
  const lastChange = ref<string[]>([]);
  /** A re-mount under way: archives probed so far (most are reused). */
  const remounting = ref<{ done: number; total: number } | null>(null);

  const gameName = computed(() => (opened.value ? (GAME_NAMES[opened.value.game] ?? opened.value.game) : null));
  /** The game and mod folder the open install was opened with (the pickers' choice; empty: detected). */
  const options = ref<{ game?: GameId; mod?: string }>({});
  /** The games whose definitions (units, weapons, features) the Definitions screen reads. */
  const hasDefinitions = computed(() => opened.value !== null && (opened.value.game === 'ta' || opened.value.game === 'tak'));
  /**
   * Where an export goes to be mounted, relative to the root: '' for TA (the top of the install); for a
   * Quake-family game folder the mod folder, else the base folder its archives come from (id1, baseq2…).
   */
  const dataFolder = computed(() => {
    const o = opened.value;
    if (!o) return '';
    if (options.value.mod) return options.value.mod;
    const named = [...o.mounted.map((m) => m.archive), ...o.ignored.map((i) => i.archive)].find((a) => a.includes('/'));
    return named && o.game !== 'ta' && o.game !== 'tak' ? named.slice(0, named.indexOf('/')) : '';
  });
  /** The next free pakN.pak in the data folder (Quake family): what an export should be called to win. */
  const nextPak = computed(() => {
    const o = opened.value;
    if (!o || o.game === 'ta' || o.game === 'tak') return null;
    const prefix = dataFolder.value ? `${dataFolder.value.toLowerCase()}/` : '';
    let highest = -1;
    for (const a of [...o.mounted.map((m) => m.archive), ...o.ignored.map((i) => i.archive)]) {
      const lower = a.toLowerCase();
      if (!lower.startsWith(prefix) || lower.slice(prefix.length).includes('/')) continue;
      const m = /^pak(\d+)\.pak$/.exec(lower.slice(prefix.length));
      if (m) highest = Math.max(highest, Number(m[1]));
    }
    return `pak${highest + 1}.pak`;
  });

  /** Quake family: the mod folders the open game folder offers (the Home screen's picker). */
  const modFolders = ref<ModFolders | null>(null);

  async function loadModFolders(): Promise<void> {
    const o = opened.value;
    const at = root.value;
    if (!o || !at || o.game === 'ta' || o.game === 'tak') {
      modFolders.value = null;
      return;
    }
    try {
      const listed = await api.call('install.modFolders', { root: at, game: o.game });
      // A newer open may have replaced the install meanwhile.
      if (root.value === at) modFolders.value = listed;
    } catch (error) {
      useErrorsStore().report(error, 'Listing the mod folders');
    }
  }

  async function open(path: string, openOptions: { game?: GameId; mod?: string } = {}): Promise<boolean> {
    const trimmed = path.trim();
    if (!trimmed) {
      openError.value = 'Type the folder of a game install first.';
      return false;
    }
    opening.value = true;
    openError.value = null;
    try {
      const clean = {
        ...(openOptions.game ? { game: openOptions.game } : {}),
        ...(openOptions.mod?.trim() ? { mod: openOptions.mod.trim() } : {}),
      };
      const result = await api.call('install.open', { root: trimmed, ...clean });
      options.value = clean;
      opened.value = result;
      root.value = result.root;
      generation.value++;
      modFolders.value = null;
      void loadRecent();
      void loadModFolders();
      return true;
    } catch (error) {
      openError.value = useErrorsStore().report(error, `Opening ${trimmed}`, { inline: true }).message;
      return false;
    } finally {
      opening.value = false;
    }
  }

  /** The host's `install.changed` event: the same install, mounted again. */
  function onChanged(event: Events['install.changed']): void {
    if (!root.value || event.root !== root.value) return;
    const { changed, ...report } = event;
    opened.value = report;
    lastChange.value = changed;
    remounting.value = null;
    revision.value++;
  }

  function onRemountProgress(done: number, total: number): void {
    remounting.value = done >= total ? null : { done, total };
  }

  async function loadRecent(): Promise<void> {
    try {
      recent.value = await api.call('install.recent', {});
    } catch (error) {
      useErrorsStore().report(error, 'Listing recent installs');
    }
  }

  async function pickAndOpen(): Promise<void> {
    try {
      const picked = await api.call('dialog.pickFolder', { title: 'Open a game install' });
      if (picked) await open(picked);
    } catch (error) {
      useErrorsStore().report(error, 'Choosing a folder');
    }
  }

  return {
    root,
    opened,
    options,
    recent,
    opening,
    openError,
    generation,
    revision,
    lastChange,
    remounting,
    gameName,
    hasDefinitions,
    dataFolder,
    nextPak,
    modFolders,
    open,
    loadModFolders,
    onChanged,
    onRemountProgress,
    loadRecent,
    pickAndOpen,
  };
});

/** Follow the open install as the host re-mounts it after changes on disk. Returns the unsubscribe function. */
export function initInstallStore(): () => void {
  const store = useInstallStore();
  const offChanged = api.on('install.changed', (event) => store.onChanged(event));
  const offProgress = api.on('progress', (p) => {
    if (p.jobId === REMOUNT_JOB) store.onRemountProgress(p.done, p.total);
  });
  return () => {
    offChanged();
    offProgress();
  };
}
