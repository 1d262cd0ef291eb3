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
  /** Decode and count only (`verify`): nothing is written, a decoding failure is a 'failed' outcome. */
  verify?: boolean;
}

export type WorkerRequest = { type: 'batch'; items: { index: number; out: string }[] } | { type: 'close' };
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'warning'; message: string; index?: number }
  | { type: 'batch-done'; files: [index: number, outcome: EntryOutcome][] }
  | {
      type: 'error';
      format: { code: FormatErrorCode; details: FormatErrorDetails } | null;
      message: string;
      code?: string;
      path?: string;
      entry?: string;
    };

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
  verify?: boolean;
  items: { index: number; out: string; size: number }[];
  workers?: number;
  onFile: (index: number, outcome: EntryOutcome) => void;
  /** A warning, with the entry it is about when the worker knows it (verify). */
  onWarning?: (message: string, index?: number) => void;
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

  // With a participant in this thread, work starts at once: the workers join when their bundle is made
  // and they have opened the archive, and if they cannot start at all this thread does everything.
  const script = workerScript();
  if (!job.local) {
    try {
      await script;
    } catch (err) {
      throw new WorkerStartError(err);
    }
  }
  const workers: Worker[] = [];
  let next = 0;
  let started = 0;
  await new Promise<void>((resolve, reject) => {
    let finished = false;
    /** Workers holding a batch. */
    let busy = 0;
    let localDone = !job.local;
    const maybeDone = () => {
      if (next >= batches.length && busy === 0 && localDone) stop();
    };
    const runLocal = async () => {
      try {
        while (!finished && next < batches.length) {
          const done = await job.local!(batches[next++]!);
          if (finished) return;
          for (const [index, outcome] of done) job.onFile(index, outcome);
          // Reads served from the read-ahead block and synchronous writes never leave the microtask
          // queue: without a turn of the event loop here the workers' replies would wait, unfed, until
          // this thread had taken every batch.
          await new Promise((resolve) => setImmediate(resolve));
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
      job.signal?.removeEventListener('abort', onAbort);
      for (const w of workers) void w.terminate();
      if (err) reject(err);
      else resolve();
    };
    const onAbort = () => stop(job.signal?.reason instanceof Error ? job.signal.reason : new Error('cancelled'));
    job.signal?.addEventListener('abort', onAbort, { once: true });
    const feed = (w: Worker) => {
      if (finished) return;
      if (next < batches.length) {
        w.postMessage({ type: 'batch', items: batches[next++]! } satisfies WorkerRequest);
        busy++;
      } else {
        w.postMessage({ type: 'close' } satisfies WorkerRequest);
        maybeDone();
      }
    };
    /** A worker that never started: this thread carries on without it, or (alone) the caller falls back. */
    const startFailed = (err: unknown) => {
      if (job.local) maybeDone();
      else if (started === 0) stop(new WorkerStartError(err));
      else stop(err instanceof Error ? err : new Error(String(err)));
    };
    const startWorkers = (url: URL) => {
      for (let i = 0; i < count && !finished; i++) {
        const w = new Worker(url, {
          workerData: { path: job.archivePath, root: job.root, keepGoing: job.keepGoing, verify: job.verify } satisfies WorkerSetup,
          resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
        });
        workers.push(w);
        let ready = false;
        w.on('message', (m: WorkerReply) => {
          if (m.type === 'ready') {
            ready = true;
            started++;
            feed(w);
          } else if (m.type === 'warning') job.onWarning?.(m.message, m.index);
          else if (m.type === 'batch-done') {
            busy--;
            for (const [index, outcome] of m.files) job.onFile(index, outcome);
            feed(w);
          } else stop(toError(m));
        });
        w.on('error', (err) => (ready ? stop(err) : startFailed(err)));
        w.on('exit', (code) => {
          if (finished || code === 0) return;
          if (ready) stop(new Error(`extraction worker exited with ${code}`));
          else startFailed(new Error(`worker exited with ${code}`));
        });
      }
    };
    if (job.local) void runLocal();
    script.then((url) => {
      if (!finished) startWorkers(url);
    }, startFailed);
  });
}

/** No worker thread could start (no worker bundle and no esbuild to make one, or a thread limit): extract in-process. */
export class WorkerStartError extends Error {
  constructor(override readonly cause: unknown) {
    super(`extraction workers could not start: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}
