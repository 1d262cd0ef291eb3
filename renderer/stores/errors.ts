import { defineStore } from 'pinia';
import { ref } from 'vue';
import { errorMessage } from '../lib/errors';

export interface ErrorNotice {
  id: number;
  message: string;
  /** Where it happened, e.g. "Opening install". */
  context: string | null;
}

/** The banner's messages: every failure the user should see, newest last. */
export const useErrorsStore = defineStore('errors', () => {
  const notices = ref<ErrorNotice[]>([]);
  let nextId = 1;

  /**
   * Show a failure. The same message in the same context replaces its earlier notice instead of stacking
   * a copy; `inline` failures (shown beside the field that caused them) never reach the banner.
   */
  function report(error: unknown, context: string | null = null, options: { inline?: boolean } = {}): ErrorNotice {
    const notice = { id: nextId++, message: errorMessage(error), context };
    if (options.inline) return notice;
    const others = notices.value.filter((n) => n.message !== notice.message || n.context !== notice.context);
    notices.value = [...others.slice(-4), notice];
    return notice;
  }

  function dismiss(id: number): void {
    notices.value = notices.value.filter((n) => n.id !== id);
  }

  function clear(): void {
    notices.value = [];
  }

  return { notices, report, dismiss, clear };
});

/** Errors nobody caught (a rejected promise in a handler) still reach the banner. */
export function initErrorsStore(target: Window = window): () => void {
  const store = useErrorsStore();
  const onRejection = (event: PromiseRejectionEvent) => {
    store.report(event.reason);
    event.preventDefault();
  };
  const onError = (event: ErrorEvent) => {
    store.report(event.error ?? event.message);
  };
  target.addEventListener('unhandledrejection', onRejection);
  target.addEventListener('error', onError);
  return () => {
    target.removeEventListener('unhandledrejection', onRejection);
    target.removeEventListener('error', onError);
  };
}
