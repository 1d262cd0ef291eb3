import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ResolveResult } from '../../shared/vfs-types';
import { api } from '../api';
import { errorMessage } from '../lib/errors';

/** Who provides the selected path: the winner and every shadowed provider (install.resolve). */
export const useLayeringStore = defineStore('layering', () => {
  const path = ref<string | null>(null);
  const result = ref<ResolveResult | null>(null);
  const loading = ref(false);
  const error = ref<string | null>(null);
  let ticket = 0;

  async function resolve(root: string, target: string): Promise<void> {
    const mine = ++ticket;
    path.value = target;
    result.value = null;
    error.value = null;
    loading.value = true;
    try {
      const resolved = await api.call('install.resolve', { root, path: target });
      if (mine === ticket) result.value = resolved;
    } catch (e) {
      if (mine === ticket) error.value = errorMessage(e);
    } finally {
      if (mine === ticket) loading.value = false;
    }
  }

  function clear(): void {
    ticket++;
    path.value = null;
    result.value = null;
    error.value = null;
    loading.value = false;
  }

  return { path, result, loading, error, resolve, clear };
});
