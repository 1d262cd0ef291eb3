import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { GrepResult, InstallProblem } from '../../shared/search-types';
import { api } from '../api';
import { errorMessage } from '../lib/errors';
import { useInstallStore } from './install';

/**
 * The Search screen: a regular expression over the install's text files (winners only), and the TA sanity
 * checks. Results belong to the install they were made for and are dropped when another opens.
 */
export const useSearchStore = defineStore('search', () => {
  const pattern = ref('');
  const ignoreCase = ref(true);
  const glob = ref('');
  const result = shallowRef<GrepResult | null>(null);
  const searching = ref(false);
  const error = ref<string | null>(null);
  const problems = shallowRef<InstallProblem[] | null>(null);
  const checking = ref(false);
  const checkError = ref<string | null>(null);
  let forRoot: string | null = null;

  function sameInstall(): string | null {
    const root = useInstallStore().root;
    if (root !== forRoot) {
      result.value = null;
      problems.value = null;
      forRoot = root;
    }
    return root;
  }

  async function search(): Promise<void> {
    const root = sameInstall();
    if (!root || pattern.value.trim() === '') return;
    searching.value = true;
    error.value = null;
    try {
      const globs = glob.value.trim() ? [glob.value.trim()] : undefined;
      result.value = await api.call('install.grep', {
        root,
        pattern: pattern.value,
        ignoreCase: ignoreCase.value,
        ...(globs ? { globs } : {}),
      });
    } catch (err) {
      result.value = null;
      error.value = errorMessage(err);
    } finally {
      searching.value = false;
    }
  }

  async function check(): Promise<void> {
    const root = sameInstall();
    if (!root) return;
    checking.value = true;
    checkError.value = null;
    try {
      problems.value = await api.call('install.check', { root });
    } catch (err) {
      checkError.value = errorMessage(err);
    } finally {
      checking.value = false;
    }
  }

  return { pattern, ignoreCase, glob, result, searching, error, problems, checking, checkError, search, check, sameInstall };
});
