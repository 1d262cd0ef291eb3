import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ResponseOf } from '../../shared/contract';
import { api } from '../api';
import { useErrorsStore } from './errors';
import { useInstallStore } from './install';

export type AppInfo = ResponseOf<'app.info'>;

/** Facts about the host (version, web or Electron, what pickers exist) and the start-up sequence. */
export const useAppStore = defineStore('app', () => {
  const info = ref<AppInfo | null>(null);
  const ready = ref(false);

  async function load(): Promise<void> {
    try {
      info.value = await api.call('app.info', {});
    } catch (error) {
      useErrorsStore().report(error, 'Connecting to the studio host');
    } finally {
      ready.value = true;
    }
  }

  return { info, ready, load };
});

/**
 * Start-up: learn the host, list recent installs, and open the install a deep link names (`preferredRoot`),
 * else (or when that one no longer opens) the host's initial one (the demo by default).
 */
export async function initAppStore(preferredRoot?: string): Promise<void> {
  const app = useAppStore();
  const install = useInstallStore();
  await app.load();
  void install.loadRecent();
  if (preferredRoot && !install.root && (await install.open(preferredRoot))) return;
  const root = app.info?.initialRoot;
  if (root && !install.root) await install.open(root);
}
