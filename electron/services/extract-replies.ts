/** What extraction workers send back when something goes wrong (see extract-pool.ts, which turns it back into an error). */
import { FormatError } from '../../shared/errors.js';
import type { WorkerReply } from './extract-pool.js';

/** The error as a message: a FormatError keeps its code and details, a file-system error its code and path. */
export function errorReply(err: unknown, entry?: string): WorkerReply {
  const e = err as NodeJS.ErrnoException;
  return {
    type: 'error',
    format: err instanceof FormatError ? { code: err.code, details: err.details } : null,
    message: e?.message ?? String(err),
    code: typeof e?.code === 'string' ? e.code : undefined,
    path: e?.path,
    entry,
  };
}
