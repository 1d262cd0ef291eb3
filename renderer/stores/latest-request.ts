import { ref } from 'vue';
import { errorMessage } from '../lib/errors';

/**
 * Loading state for a value that follows the selection: a newer request wins over a slower older one
 * (its answer, or its error, arrives after the user moved on and is dropped).
 */
export function latestRequest() {
  const loading = ref(false);
  const error = ref<string | null>(null);
  let ticket = 0;

  /** Run `fetch` and hand its answer to `apply`, unless a newer run or a reset came in meanwhile. */
  async function run<T>(fetch: () => Promise<T>, apply: (value: T) => void): Promise<void> {
    const mine = ++ticket;
    loading.value = true;
    error.value = null;
    try {
      const value = await fetch();
      if (mine === ticket) apply(value);
    } catch (e) {
      if (mine === ticket) error.value = errorMessage(e);
    } finally {
      if (mine === ticket) loading.value = false;
    }
  }

  /** Forget any request under way. */
  function reset(): void {
    ticket++;
    loading.value = false;
    error.value = null;
  }

  return { loading, error, run, reset };
}
