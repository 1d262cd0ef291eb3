/**
 * What an extraction makes of an error: one entry's outcome, or the message a worker sends back when
 * something goes wrong (see extract-pool.ts, which turns it back into an error).
 */
import { FormatError } from '../../shared/errors.js';
import { refusalReason } from '../io/folder-writer.js';
import { toThreadError } from '../io/thread-errors.js';
import type { EntryOutcome, WorkerReply } from './extract-pool.js';

/**
 * An error met writing one entry, as that entry's outcome: refused (the name cannot be written there), or
 * failed when the extraction keeps going past entries that do not decode; null when it stops the extraction.
 */
export function errorOutcome(err: unknown, keepGoing: boolean): EntryOutcome | null {
  const reason = refusalReason(err);
  if (reason !== null) return { kind: 'refused', reason };
  if (err instanceof FormatError && keepGoing) return { kind: 'failed', message: err.message };
  return null;
}

/** The error as a message: a FormatError keeps its code and details, a file-system error its code and path. */
export function errorReply(err: unknown, entry?: string): WorkerReply {
  return { type: 'error', ...toThreadError(err), entry };
}
