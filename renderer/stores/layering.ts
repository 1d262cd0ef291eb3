import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ResolveResult } from '../../shared/vfs-types';
import { api } from '../api';
import { latestRequest } from './latest-request';

/** Who provides the selected path: the winner and every shadowed provider (install.resolve). */
export const useLayeringStore = defineStore('layering', () => {
  const path = ref<string | null>(null);
  const result = ref<ResolveResult | null>(null);
  const { loading, error, run, reset } = latestRequest();

  async function resolve(root: string, target: string): Promise<void> {
    path.value = target;
    result.value = null;
    await run(() => api.call('install.resolve', { root, path: target }), (resolved) => (result.value = resolved));
  }

  function clear(): void {
    reset();
    path.value = null;
    result.value = null;
  }

  return { path, result, loading, error, resolve, clear };
});
