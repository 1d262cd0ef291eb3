import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { Provider, ResolveResult } from '../../shared/vfs-types';
import { api } from '../api';
import { latestRequest } from './latest-request';

/** Who provides the selected path: the winner and every shadowed provider (install.resolve). */
export const useLayeringStore = defineStore('layering', () => {
  const path = ref<string | null>(null);
  const result = ref<ResolveResult | null>(null);
  /** The shadowed provider shown beside the winner (Compare), for this path. */
  const comparing = ref<Provider | null>(null);
  const { loading, error, run, reset } = latestRequest();

  async function resolve(root: string, target: string): Promise<void> {
    if (path.value !== target) comparing.value = null;
    path.value = target;
    result.value = null;
    await run(
      () => api.call('install.resolve', { root, path: target }),
      (resolved) => (result.value = resolved),
    );
  }

  function clear(): void {
    reset();
    path.value = null;
    result.value = null;
    comparing.value = null;
  }

  return { path, result, comparing, loading, error, resolve, clear };
});
