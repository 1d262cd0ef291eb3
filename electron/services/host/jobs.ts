import { HostError } from './errors.js';

/**
 * Long calls (extract, verify, export) run as jobs: the renderer names them with a `jobId`, progress
 * events carry it, and `jobs.cancel` aborts the job's signal. Calls without a jobId get an internal one,
 * so every call can still be stopped when the host shuts down.
 */
export class JobRegistry {
  private readonly running = new Map<string, AbortController>();
  private counter = 0;

  start(jobId: string | undefined): { id: string; signal: AbortSignal; finish(): void } {
    const id = jobId ?? `internal-${++this.counter}`;
    if (this.running.has(id)) throw new HostError('bad-request', `job ${id} is already running`);
    const controller = new AbortController();
    this.running.set(id, controller);
    return {
      id,
      signal: controller.signal,
      finish: () => {
        if (this.running.get(id) === controller) this.running.delete(id);
      },
    };
  }

  /** Abort a running job; false when there is no such job (it finished, or never started). */
  cancel(jobId: string): boolean {
    const controller = this.running.get(jobId);
    if (!controller) return false;
    controller.abort(new DOMException('cancelled', 'AbortError'));
    return true;
  }

  cancelAll(): void {
    for (const id of [...this.running.keys()]) this.cancel(id);
  }

  get size(): number {
    return this.running.size;
  }
}

/**
 * A progress reporter that sends at most one event per `intervalMs`, but always the first and the last,
 * so a 60,000-file extraction does not flood the renderer.
 */
export function throttledProgress(send: (done: number, total: number, label?: string) => void, intervalMs = 50) {
  let last = -Infinity;
  return (done: number, total: number, label?: string) => {
    const now = performance.now();
    if (done !== 0 && done < total && now - last < intervalMs) return;
    last = now;
    send(done, total, label);
  };
}
