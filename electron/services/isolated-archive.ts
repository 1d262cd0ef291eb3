/**
 * Archive work on hostile data (opening, listing and verifying an archive the user picked) run where a
 * failure cannot take the host down: a worker thread with its own heap limit and a time limit. Out of
 * memory, a crash or the time running out ends the worker only and answers an error; the studio's
 * process (Electron's main process, `modpak serve`) goes on. Where no worker can start (no bundle and no
 * esbuild), the work runs in this thread as before.
 */
import { Worker } from 'node:worker_threads';
import type { ArchiveListing } from '../../shared/contract.js';
import { fromThreadError, type ThreadError } from '../io/thread-errors.js';
import { bundledWorker } from '../io/worker-bundle.js';
import { archiveInfo, listArchive, type ProgressFn } from './archive-service.js';
import { verifyArchive, type VerifyResult } from './archive-verify.js';

export type ArchiveTask = { kind: 'open'; path: string } | { kind: 'verify'; path: string };
export type ArchiveTaskReply =
  { type: 'done'; result: unknown } | { type: 'progress'; done: number; total: number; label?: string } | ({ type: 'error' } & ThreadError);

export interface IsolationLimits {
  /** The worker's old-generation heap, in MB. */
  heapMb: number;
  /** How long opening (and listing) may take. */
  openMs: number;
  /** How long verifying may take (it decodes every entry). */
  verifyMs: number;
}

export const DEFAULT_ISOLATION: IsolationLimits = { heapMb: 512, openMs: 120_000, verifyMs: 30 * 60_000 };

/** The isolated work failed in a way that says nothing about the data's format: out of memory, out of time, a crash. */
export class IsolationError extends Error {}

const workerScript = () => bundledWorker(new URL('./archive-task-worker.ts', import.meta.url));

async function runTask<T>(
  task: ArchiveTask,
  limits: IsolationLimits,
  inProcess: () => Promise<T>,
  onProgress?: ProgressFn,
  signal?: AbortSignal,
): Promise<T> {
  let script: URL;
  try {
    script = await workerScript();
  } catch {
    return inProcess();
  }
  signal?.throwIfAborted();
  const timeoutMs = task.kind === 'open' ? limits.openMs : limits.verifyMs;
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(script, {
      workerData: task,
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: Math.min(16, limits.heapMb) },
    });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new IsolationError(
              `${task.path}: took longer than ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}; stopped`,
            ),
          ),
        ),
      timeoutMs,
    );
    const onAbort = () => finish(() => reject(signal?.reason instanceof Error ? signal.reason : new Error('cancelled')));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: ArchiveTaskReply) => {
      if (m.type === 'progress') {
        try {
          onProgress?.(m.done, m.total, m.label);
        } catch (err) {
          finish(() => reject(err));
        }
      } else if (m.type === 'done') finish(() => resolve(m.result as T));
      else finish(() => reject(fromThreadError(m)));
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const why =
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `needs more than the ${limits.heapMb} MB allowed to read it`
          : `reading it failed: ${err.message}`;
      finish(() => reject(new IsolationError(`${task.path}: ${why}; the archive was not opened`)));
    });
    worker.on('exit', (code) =>
      finish(() => reject(new IsolationError(`${task.path}: the reader stopped (exit ${code}) before answering`))),
    );
  });
}

/** archive.open: the archive's info and entries, read in a worker. */
export function openArchiveIsolated(
  path: string,
  limits: IsolationLimits = DEFAULT_ISOLATION,
  signal?: AbortSignal,
): Promise<ArchiveListing> {
  return runTask<ArchiveListing>(
    { kind: 'open', path },
    limits,
    async () => ({ path, info: await archiveInfo(path), entries: await listArchive(path) }),
    undefined,
    signal,
  );
}

/** archive.verify: every entry decoded and checked, in a worker, with progress. */
export function verifyArchiveIsolated(
  path: string,
  limits: IsolationLimits = DEFAULT_ISOLATION,
  onProgress?: ProgressFn,
  signal?: AbortSignal,
): Promise<VerifyResult> {
  return runTask<VerifyResult>({ kind: 'verify', path }, limits, () => verifyArchive(path, onProgress), onProgress, signal);
}
