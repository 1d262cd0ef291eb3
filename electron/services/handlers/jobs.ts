import type { JobRegistry } from '../host/jobs.js';
import type { CallTable } from '../host/types.js';

/** jobs.cancel: abort a running job by the id its call was given. */
export function jobHandlers(jobs: JobRegistry): Pick<CallTable, 'jobs.cancel'> {
  return {
    'jobs.cancel': async ({ jobId }) => ({ cancelled: jobs.cancel(jobId) }),
  };
}
