import { defineStore } from 'pinia';
import { ref } from 'vue';
import { api, newJobId } from '../api';
import { isCancelled } from '../lib/errors';
import { useErrorsStore } from './errors';

export type JobState = 'running' | 'done' | 'cancelled' | 'failed';

export interface Job {
  id: string;
  label: string;
  done: number;
  total: number;
  state: JobState;
  /** What the host is working on now (the progress event's label, e.g. the current file). */
  detail: string | null;
  /** The outcome in one line, once finished. */
  summary: string | null;
}

/**
 * Long work (extract, verify): each job has an id the host reports `progress` events for, a progress bar
 * and a Cancel button. Finished jobs stay listed until dismissed so their result can be read.
 */
export const useJobsStore = defineStore('jobs', () => {
  const jobs = ref<Job[]>([]);

  function find(id: string): Job | undefined {
    return jobs.value.find((j) => j.id === id);
  }

  function onProgress(event: { jobId: string; done: number; total: number; label?: string }): void {
    const job = find(event.jobId);
    if (!job || job.state !== 'running') return;
    job.done = event.done;
    job.total = event.total;
    if (event.label) job.detail = event.label;
  }

  /**
   * Run `work` as a job. Resolves with its result, or null when it was cancelled or failed (a failure is
   * reported to the error banner, a cancellation is not an error). `isBad` marks a result that finished
   * but found problems (a verify with damaged files): it is shown as failed, and still returned.
   * `passThrough` picks failures the caller answers itself (an extraction target that exists: the studio
   * asks first): the job is dropped from the list and the error thrown on.
   */
  async function run<T>(
    label: string,
    work: (jobId: string) => Promise<T>,
    summarise: (result: T) => string,
    isBad?: (result: T) => boolean,
    passThrough?: (error: unknown) => boolean,
  ): Promise<T | null> {
    const id = newJobId();
    jobs.value = [
      ...jobs.value.filter((j) => j.state === 'running'),
      { id, label, done: 0, total: 0, state: 'running', detail: null, summary: null },
    ];
    const job = () => find(id)!;
    try {
      const result = await work(id);
      if (job().state === 'cancelled') return null;
      job().state = isBad?.(result) ? 'failed' : 'done';
      if (job().total === 0) job().total = 1;
      job().done = job().total;
      job().summary = summarise(result);
      return result;
    } catch (error) {
      if (passThrough?.(error)) {
        jobs.value = jobs.value.filter((j) => j.id !== id);
        throw error;
      }
      if (job().state === 'cancelled' || isCancelled(error)) {
        job().state = 'cancelled';
        job().summary = 'Cancelled';
      } else {
        job().state = 'failed';
        job().summary = useErrorsStore().report(error, label).message;
      }
      return null;
    }
  }

  async function cancel(id: string): Promise<void> {
    const job = find(id);
    if (!job || job.state !== 'running') return;
    try {
      await api.call('jobs.cancel', { jobId: id });
      job.state = 'cancelled';
      job.summary = 'Cancelled';
    } catch (error) {
      useErrorsStore().report(error, `Cancelling ${job.label}`);
    }
  }

  function dismiss(id: string): void {
    jobs.value = jobs.value.filter((j) => j.id !== id || j.state === 'running');
  }

  return { jobs, run, cancel, dismiss, onProgress };
});

/** Wire the host's progress events to the jobs store. Returns the unsubscribe function. */
export function initJobsStore(): () => void {
  const store = useJobsStore();
  return api.on('progress', (event) => store.onProgress(event));
}
