import { FormatError } from '../../shared/errors.js';
import type { WorkerReply } from './extract-pool.js';

/** A worker's failure as its reply: a FormatError keeps its code and details, a system error its code and path. */
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
