/**
 * Parallel extraction over worker threads, format-neutral: each worker opens the archive by path and
 * decodes entries by index (see extract-worker.ts). The main thread hands out small batches, each
 * thread's from a run of its own (batch-runs.ts), so memory stays bounded (a few batches in flight per
 * worker) and both cores decode.
 */
import type { Worker } from 'node:worker_threads';
import { bundledWorker, workersBesideThisThread } from '../io/worker-bundle.js';
import { FormatError } from '../../shared/errors.js';
import { fromThreadError, type ThreadError } from '../io/thread-errors.js';
import { batchEnds, BatchRuns } from './batch-runs.js';

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

export type WorkerRequest =
  | { type: 'batch'; items: { index: number; out: string }[] }
  /** Positions [from, to) of the job's `indices`, for a worker whose prelude holds all it needs about them. */
  | { type: 'range'; from: number; to: number }
  | { type: 'close' };
export type WorkerReply =
  | { type: 'ready' }
  /**
   * A range done: `bytes[k]` is what position from + k wrote, or -1 when its outcome (refused, failed) is
   * in `others`, by position. No object per file crosses between the threads.
   */
  | { type: 'range-done'; from: number; bytes: Float64Array; others: [position: number, outcome: EntryOutcome][] }
  | { type: 'warning'; message: string; index?: number }
  | { type: 'batch-done'; files: [index: number, outcome: EntryOutcome][] }
  | ({ type: 'error'; entry?: string } & ThreadError);

/** An entry that did not decode, which stops an extraction without keepGoing. */
export class EntryFailure extends Error {
  constructor(
    readonly path: string,
    readonly failure: FormatError,
  ) {
    super(failure.message);
  }
}

/** The format-neutral worker: it opens the archive itself and decodes entries by index. */
export const workerScript = () => bundledWorker(new URL('./extract-worker.ts', import.meta.url));
/** A worker's bundle, made (once per process) when first asked for. */
export type WorkerScript = () => Promise<URL>;

/**
 * Batches sent to a worker before it answers. This thread decodes batches of its own between replies, so
 * with one batch at a time a worker sat idle until this thread finished its batch (a quarter of its time);
 * with two, still 5-10 % on a busy machine, where this thread answers late.
 */
const BATCHES_HELD = 3;
/**
 * A small young generation makes each worker collect often, which frees the buffers of files already
 * written (their memory lives outside the JavaScript heap and is only released by a collection); with the
 * default the extracting process peaked about 60 MB higher on the bench corpus. 3 MB is 1 MB a semi-space
 * (V8 rounds a semi-space up to a power of two: 4 MB gave 2 MB semi-spaces, 10-15 MB more peak on zlib).
 */
const YOUNG_GENERATION_MB = 3;

export interface PoolJob {
  archivePath: string;
  root: string;
  keepGoing: boolean;
  verify?: boolean;
  /** The entries to decode, by index, in the order to hand them out. */
  indices: readonly number[];
  /** An entry's decoded size (to size the batches). */
  sizeOf: (index: number) => number;
  /**
   * Where an entry is written (verify: nowhere), by its index and its position in `indices`. Asked for
   * as each batch is handed out, so a 30,000-file plan holds no 30,000 full paths.
   */
  outOf?: (index: number, position: number) => string;
  workers?: number;
  onFile: (index: number, outcome: EntryOutcome) => void;
  /** A warning, with the entry it is about when the worker knows it (verify). */
  onWarning?: (message: string, index?: number) => void;
  signal?: AbortSignal;
  /**
   * This thread takes batches too, as positions [from, to) of `indices`: with one worker per remaining
   * core every core decodes, and the process carries one isolate less than with a worker per core.
   */
  local?: (from: number, to: number) => Promise<[index: number, outcome: EntryOutcome][]>;
  /** Workers already started for this job's archive and settings (see EarlyWorkers): used before any new one. */
  early?: EarlyWorkers;
  /** The worker to run (default: the format-neutral one). */
  script?: WorkerScript;
  /** A message each worker gets before its first batch (what a format's own worker needs to know). */
  prelude?: unknown;
  /** The workers know the entries by their position in `indices` (from the prelude): batches go to them as ranges. */
  ranges?: boolean;
}

/** The handlers a started worker's events go to, once a job takes it. */
interface WorkerHandlers {
  message(m: WorkerReply): void;
  error(err: Error): void;
  exit(code: number): void;
}

/** A started worker whose events wait, in order, until a job attaches its handlers. */
interface SpawnedWorker {
  worker: Worker;
  attach(handlers: WorkerHandlers): void;
}

/** node:worker_threads is loaded with the first worker: an extraction in this thread alone never loads it. */
function spawnWorker(url: URL, setup: WorkerSetup): SpawnedWorker {
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(url, { workerData: setup, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
  const waiting: (() => void)[] = [];
  let handlers: WorkerHandlers | null = null;
  const deliver = (event: () => void) => (handlers ? event() : waiting.push(event));
  worker.on('message', (m: WorkerReply) => deliver(() => handlers!.message(m)));
  worker.on('error', (err) => deliver(() => handlers!.error(err)));
  worker.on('exit', (code) => deliver(() => handlers!.exit(code)));
  return {
    worker,
    attach(h) {
      handlers = h;
      for (const event of waiting.splice(0)) event();
    },
  };
}

/**
 * Workers started before the job is known, so that their start (a thread, the bundle, the archive's own
 * directory) runs beside this thread's reading of the directory instead of after it. A job with the same
 * setup takes them (`early`); `close` ends the ones no job took.
 */
export class EarlyWorkers {
  private spawned: SpawnedWorker[] = [];
  private closed = false;
  /** Whether `ready` has settled: the workers are then taken without waiting (see `takeStarted`). */
  private settled = false;
  readonly ready: Promise<void>;

  constructor(
    readonly setup: WorkerSetup,
    count: number,
    readonly script: WorkerScript = workerScript,
  ) {
    this.ready = script()
      .then(
        (url) => {
          for (let i = 0; i < count && !this.closed; i++) this.spawned.push(spawnWorker(url, setup));
        },
        () => undefined, // the job finds no early workers and meets the same failure itself
      )
      .finally(() => {
        this.settled = true;
      });
  }

  /** Up to `count` of the started workers, for a job with the same setup; the rest are ended. */
  async take(count: number, setup: WorkerSetup, script: WorkerScript = workerScript): Promise<SpawnedWorker[]> {
    await this.ready;
    return this.takeStarted(count, setup, script)!;
  }

  /**
   * `take` at once, or null while the workers are still being started. A job that takes them so, before
   * this thread writes anything, sends them its plan before its own first file: taken through `take`'s
   * promise, the plan went out only after this thread had written several files, and the workers (ready
   * by then) waited 10-50 ms for it.
   */
  takeStarted(count: number, setup: WorkerSetup, script: WorkerScript = workerScript): SpawnedWorker[] | null {
    if (!this.settled) return null;
    const same =
      script === this.script &&
      setup.path === this.setup.path &&
      setup.root === this.setup.root &&
      setup.keepGoing === this.setup.keepGoing &&
      setup.verify === this.setup.verify;
    const taken = same ? this.spawned.splice(0, count) : [];
    this.end();
    return taken;
  }

  async close(): Promise<void> {
    // Set before the wait: workers whose bundle is still being made are then never started.
    this.closed = true;
    await this.ready;
    this.end();
  }

  /** No more workers are started, and those no job took are ended. */
  private end(): void {
    this.closed = true;
    for (const s of this.spawned.splice(0)) void s.worker.terminate();
  }
}

function toError(reply: Extract<WorkerReply, { type: 'error' }>): Error {
  const err = fromThreadError(reply);
  return err instanceof FormatError && reply.entry !== undefined ? new EntryFailure(reply.entry, err) : err;
}

/**
 * Run the job on `workers` threads. Rejects with the first error (a FormatError stays one), after
 * stopping every worker. Throws `WorkerStartError` when no worker could start (the caller falls back).
 */
export async function extractWithWorkers(job: PoolJob): Promise<void> {
  const { indices } = job;
  const count = Math.max(1, Math.min(job.workers ?? workersBesideThisThread(), indices.length));
  const ends = batchEnds(indices, job.sizeOf);
  const outOf = job.outOf ?? (() => '');
  const batch = (n: number): { index: number; out: string }[] => {
    const items: { index: number; out: string }[] = [];
    for (let i = n === 0 ? 0 : ends[n - 1]!; i < ends[n]!; i++) items.push({ index: indices[i]!, out: outOf(indices[i]!, i) });
    return items;
  };

  // With a participant in this thread, work starts at once: the workers join when their bundle is made
  // and they have opened the archive, and if they cannot start at all this thread does everything.
  const scriptOf = job.script ?? workerScript;
  const script = scriptOf();
  // Its failure is met where it is used (startFailed); with every worker started early it is never used.
  script.catch(() => undefined);
  if (!job.local) {
    try {
      await script;
    } catch (err) {
      throw new WorkerStartError(err);
    }
  }
  const setup: WorkerSetup = { path: job.archivePath, root: job.root, keepGoing: job.keepGoing, verify: job.verify };
  const workers: Worker[] = [];
  // This thread (when it takes part) is run 0, the workers the next ones, in the order they are taken.
  const firstWorkerRun = job.local ? 1 : 0;
  const runs = new BatchRuns(ends.length, firstWorkerRun + count);
  let started = 0;
  await new Promise<void>((resolve, reject) => {
    let finished = false;
    /** Workers holding a batch. */
    let busy = 0;
    let localDone = !job.local;
    const maybeDone = () => {
      if (runs.empty && busy === 0 && localDone) stop();
    };
    const runLocal = async () => {
      try {
        while (!finished) {
          const n = runs.take(0);
          if (n < 0) break;
          const done = await job.local!(n === 0 ? 0 : ends[n - 1]!, ends[n]!);
          if (finished) return;
          deliver(job, done);
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
    /** Batches each worker holds: its next one is queued while it works on the current, so it never waits on this thread. */
    const held = new Map<Worker, number>();
    const runOf = new Map<Worker, number>();
    const feed = (w: Worker) => {
      if (finished) return;
      let holds = held.get(w) ?? 0;
      while (holds < BATCHES_HELD) {
        const n = runs.take(runOf.get(w)!);
        if (n < 0) break;
        w.postMessage(
          (job.ranges
            ? { type: 'range', from: n === 0 ? 0 : ends[n - 1]!, to: ends[n]! }
            : { type: 'batch', items: batch(n) }) satisfies WorkerRequest,
        );
        busy++;
        holds++;
      }
      held.set(w, holds);
      if (holds === 0) {
        held.delete(w);
        w.postMessage({ type: 'close' } satisfies WorkerRequest);
        maybeDone();
      }
    };
    const rangeDone = ({ from, bytes, others }: Extract<WorkerReply, { type: 'range-done' }>) => {
      let other = 0;
      for (let k = 0; k < bytes.length; k++) {
        const written = bytes[k]!;
        if (written >= 0) job.onFile(indices[from + k]!, { kind: 'file', bytes: written });
        else if (others[other]?.[0] === from + k) job.onFile(indices[from + k]!, others[other++]![1]);
        else return stop(new Error(`extraction worker gave no outcome for entry ${indices[from + k]}`));
      }
    };
    /** A worker that never started: this thread carries on without it, or (alone) the caller falls back. */
    const startFailed = (err: unknown) => {
      if (job.local) maybeDone();
      else if (started === 0) stop(new WorkerStartError(err));
      else stop(err instanceof Error ? err : new Error(String(err)));
    };
    const use = ({ worker: w, attach }: SpawnedWorker) => {
      runOf.set(w, firstWorkerRun + workers.length);
      workers.push(w);
      // Posted before any batch, so the worker has it first (a port delivers in order).
      if (job.prelude !== undefined) w.postMessage(job.prelude);
      let ready = false;
      attach({
        message: (m) => {
          if (m.type === 'ready') {
            ready = true;
            started++;
            feed(w);
          } else if (m.type === 'warning') job.onWarning?.(m.message, m.index);
          else if (m.type === 'batch-done' || m.type === 'range-done') {
            busy--;
            held.set(w, (held.get(w) ?? 1) - 1);
            if (m.type === 'batch-done') for (const [index, outcome] of m.files) job.onFile(index, outcome);
            else rangeDone(m);
            feed(w);
          } else stop(toError(m));
        },
        error: (err) => (ready ? stop(err) : startFailed(err)),
        exit: (code) => {
          if (finished || code === 0) return;
          if (ready) stop(new Error(`extraction worker exited with ${code}`));
          else startFailed(new Error(`worker exited with ${code}`));
        },
      });
    };
    const startWorkers = (url: URL, already: number) => {
      for (let i = already; i < count && !finished; i++) use(spawnWorker(url, setup));
    };
    const adopt = (taken: SpawnedWorker[]) => {
      if (finished) {
        for (const s of taken) void s.worker.terminate();
        return;
      }
      for (const s of taken) use(s);
      if (taken.length >= count) return;
      script.then((url) => {
        if (!finished) startWorkers(url, taken.length);
      }, startFailed);
    };
    // Workers already started get their plan before this thread's first file.
    const takenNow = job.early?.takeStarted(count, setup, scriptOf) ?? null;
    if (takenNow) adopt(takenNow);
    if (job.local) void runLocal();
    if (!takenNow) void (job.early ? job.early.take(count, setup, scriptOf) : Promise.resolve([])).then(adopt);
  });
}

/**
 * A batch of this thread's outcomes, handed on. Kept out of the loop that takes the batches: with the
 * per-file loop inside it, that loop grew hot enough for the optimising compiler, which compiled it (with
 * all it inlines) three times in one extraction, as the run's end and the taking of another thread's work
 * each met code it had not seen.
 */
function deliver(job: PoolJob, done: [index: number, outcome: EntryOutcome][]): void {
  for (const [index, outcome] of done) job.onFile(index, outcome);
}

/** No worker thread could start (no worker bundle and no esbuild to make one, or a thread limit): extract in-process. */
export class WorkerStartError extends Error {
  constructor(override readonly cause: unknown) {
    super(`extraction workers could not start: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}
