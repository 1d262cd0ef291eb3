import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { OverrideDiff } from '../../shared/mods-types';
import { api } from '../api';
import { useErrorsStore } from './errors';
import { useInstallStore } from './install';
import { useWorkspaceStore } from './workspace';

/** The workspace's overrides against the install's current winners, with the diff of the one selected. */
export const useOverridesStore = defineStore('overrides', () => {
  const diffs = ref<OverrideDiff[]>([]);
  const loading = ref(false);
  const selected = ref<string | null>(null);
  const shown = computed(() => diffs.value.find((d) => d.path === selected.value) ?? null);

  function clear(): void {
    diffs.value = [];
    selected.value = null;
  }

  async function load(): Promise<void> {
    const root = useInstallStore().root;
    const dir = useWorkspaceStore().dir;
    if (!dir || !root) return;
    loading.value = true;
    try {
      diffs.value = await api.call('mods.diff', { dir, root });
      if (!diffs.value.some((d) => d.path === selected.value))
        selected.value = diffs.value.find((d) => d.status !== 'same')?.path ?? diffs.value[0]?.path ?? null;
    } catch (error) {
      useErrorsStore().report(error, 'Comparing the workspace with the install');
    } finally {
      loading.value = false;
    }
  }

  /** Compare again if a comparison is on show (a save or an install change made it stale). */
  async function refresh(): Promise<void> {
    if (diffs.value.length > 0) await load();
  }

  return { diffs, loading, selected, shown, clear, load, refresh };
});
