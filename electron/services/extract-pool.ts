/**
 * Parallel extraction over worker threads, format-neutral: each worker opens the archive by path and
 * decodes entries by index (see extract-worker.ts). The main thread hands out small batches in stored
 * order, so memory stays bounded (one file in flight per worker) and both cores decode.
 */
import { Worker } from 'node:worker_threads';
import { bundledWorker, workersBesideThisThread } from '../io/worker-bundle.js';
import { FormatError, type FormatErrorCode, type FormatErrorDetails } from '../../shared/errors.js';

/** What became of one entry: written, refused (its name cannot be written safely), or failed to decode. */
export type EntryOutcome = { kind: 'file'; bytes: number } | { kind: 'refused'; reason: string } | { kind: 'failed'; message: string };

/** What a worker is started with. */
export interface WorkerSetup {
  path: string;
  /** The target folder: links below it are refused, not followed. */
  root: string;
  keepGoing: boolean;
}

export type WorkerRequest = { type: 'batch'; items: { index: number; out: string }[] } | { type: 'close' };
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'warning'; message: string }
  | { type: 'batch-done'; files: [index: number, outcome: EntryOutcome][] }
  | { type: 'error'; format: { code: FormatErrorCode; details: FormatErrorDetails } | null; message: string; code?: string; path?: string; entry?: string };

/** An entry that did not decode, which stops an extraction without keepGoing. */
export class EntryFailure extends Error {
  constructor(
    readonly path: string,
    readonly failure: FormatError,
  ) {
    super(failure.message);
  }
}

const workerScript = () => bundledWorker(new URL('./extract-worker.ts', import.meta.url));

/** Entries per message: enough to amortise messaging, small enough to balance the two workers. */
const BATCH_FILES = 32;
const BATCH_BYTES = 4 << 20;
/**
 * A small young generation makes each worker collect often, which frees the buffers of files already
 * written (their memory lives outside the JavaScript heap and is only released by a collection); with the
 * default the extracting process peaked about 60 MB higher on the bench corpus.
 */
const YOUNG_GENERATION_MB = 4;

export interface PoolJob {
  archivePath: string;
  root: string;
  keepGoing: boolean;
  items: { index: number; out: string; size: number }[];
  workers?: number;
  onFile: (index: number, outcome: EntryOutcome) => void;
  onWarning?: (message: string) => void;
  signal?: AbortSignal;
  /**
   * This thread takes batches too (once a worker has started): with one worker per remaining core every
   * core decodes, and the process carries one isolate less than with a worker per core.
   */
  local?: (items: { index: number; out: string }[]) => Promise<[index: number, outcome: EntryOutcome][]>;
}

function toError(reply: Extract<WorkerReply, { type: 'error' }>): Error {
  if (reply.format) {
    const failure = new FormatError(reply.format.code, reply.message, reply.format.details);
    return reply.entry !== undefined ? new EntryFailure(reply.entry, failure) : failure;
  }
  const err = new Error(reply.message) as NodeJS.ErrnoException;
  if (reply.code) err.code = reply.code;
  if (reply.path) err.path = reply.path;
  return err;
}

/**
 * Run the job on `workers` threads. Rejects with the first error (a FormatError stays one), after
 * stopping every worker. Throws `WorkerStartError` when no worker could start (the caller falls back).
 */
export async function extractWithWorkers(job: PoolJob): Promise<void> {
  const count = Math.max(1, Math.min(job.workers ?? workersBesideThisThread(), job.items.length));
  const batches: { index: number; out: string }[][] = [];
  let current: { index: number; out: string }[] = [];
  let bytes = 0;
  for (const item of job.items) {
    current.push({ index: item.index, out: item.out });
    bytes += item.size;
    if (current.length >= BATCH_FILES || bytes >= BATCH_BYTES) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
  }
  if (current.length > 0) batches.push(current);

  let script: URL;
  try {
    script = await workerScript();
  } catch (err) {
    throw new WorkerStartError(err);
  }
  const workers: Worker[] = [];
  let next = 0;
  let started = 0;
  await new Promise<void>((resolve, reject) => {
    let finished = false;
    let idle = 0;
    // Without a local participant it counts as done from the start.
    let localDone = !job.local;
    let localStarted = false;
    const maybeDone = () => {
      if (idle === workers.length && localDone) {
        job.signal?.removeEventListener('abort', onAbort);
        stop();
      }
    };
    const runLocal = async () => {
      try {
        while (!finished && next < batches.length) {
          const done = await job.local!(batches[next++]!);
          if (finished) return;
          for (const [index, outcome] of done) job.onFile(index, outcome);
        }
        localDone = true;
        maybeDone();
      } catch (err) {
        stop(err as Error);
      }
    };
    const stop = (err?: Error) => {
      if (finished) return;
      finished = true;
      for (const w of workers) void w.terminate();
      if (err) reject(err);
      else resolve();
    };
    const onAbort = () => stop(job.signal?.reason instanceof Error ? job.signal.reason : new Error('cancelled'));
    job.signal?.addEventListener('abort', onAbort, { once: true });
    const feed = (w: Worker) => {
      if (finished) return;
      if (next < batches.length) w.postMessage({ type: 'batch', items: batches[next++]! } satisfies WorkerRequest);
      else {
        w.postMessage({ type: 'close' } satisfies WorkerRequest);
        idle++;
        maybeDone();
      }
    };
    for (let i = 0; i < count; i++) {
      const w = new Worker(script, { workerData: { path: job.archivePath, root: job.root, keepGoing: job.keepGoing } satisfies WorkerSetup, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
      workers.push(w);
      w.on('message', (m: WorkerReply) => {
        if (m.type === 'ready') {
          started++;
          feed(w);
          if (job.local && !localStarted) {
            localStarted = true;
            void runLocal();
          }
        } else if (m.type === 'warning') job.onWarning?.(m.message);
        else if (m.type === 'batch-done') {
          for (const [index, outcome] of m.files) job.onFile(index, outcome);
          feed(w);
        }
        else stop(toError(m));
      });
      w.on('error', (err) => stop(started === 0 ? new WorkerStartError(err) : err));
      w.on('exit', (code) => {
        if (!finished && code !== 0) stop(started === 0 ? new WorkerStartError(new Error(`worker exited with ${code}`)) : new Error(`extraction worker exited with ${code}`));
      });
    }
  });
}

/** No worker thread could start (no worker bundle and no esbuild to make one, or a thread limit): extract in-process. */
export class WorkerStartError extends Error {
  constructor(override readonly cause: unknown) {
    super(`extraction workers could not start: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}
