import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { WatchStatus } from '../../shared/mods-types';
import { api } from '../api';
import { useErrorsStore } from './errors';
import { useExportStore } from './export';
import { useWorkspaceStore } from './workspace';

/** Watch-and-repack of the workspace into the export target; its status arrives live as `watch` events. */
export const useWatchStore = defineStore('watch', () => {
  const status = ref<WatchStatus | null>(null);
  const running = computed(() => status.value?.running ?? false);

  async function refresh(): Promise<void> {
    const dir = useWorkspaceStore().dir;
    if (!dir) return;
    try {
      apply(await api.call('watch.status', { dir }));
    } catch (error) {
      useErrorsStore().report(error, 'Reading the watch status');
    }
  }

  async function toggle(on: boolean, debounceMs?: number, options: { confirm?: boolean } = {}): Promise<void> {
    const dir = useWorkspaceStore().dir;
    const exporting = useExportStore();
    const target = exporting.target.trim();
    if (!dir) return;
    if (on && exporting.needsImpactFirst) {
      // A watch into the install builds at once: its impact is shown first, as for an export.
      await exporting.previewImpact();
      return;
    }
    if (on && exporting.blockedByOriginal) return;
    try {
      if (on && !(await exporting.confirmed('watch', options.confirm ?? false))) return;
      apply(
        on
          ? await api.call('watch.start', { dir, target, debounceMs, ...exporting.replaceFlag(), ...exporting.gameOfInstall() })
          : await api.call('watch.stop', { dir }),
      );
    } catch (error) {
      useErrorsStore().report(error, on ? 'Starting the watch' : 'Stopping the watch');
    }
  }

  /**
   * Keep a status about this workspace unless a newer one is already here: a call's answer can arrive
   * after the events of the builds it started.
   */
  function apply(next: WatchStatus): void {
    const dir = useWorkspaceStore().dir;
    if (!dir || next.workspace !== dir) return;
    const held = status.value;
    if (held && held.workspace === next.workspace && (next.revision ?? 0) < (held.revision ?? 0)) return;
    status.value = next;
  }

  function clear(): void {
    status.value = null;
  }

  return { status, running, refresh, toggle, apply, clear };
});
