/**
 * Compression on every core for the writers (HPI, Daikatana, Pangya): worker threads (one per other core)
 * that turn a file's bytes into its encoded form by a formats/file-codecs.ts method (HPI: SQSH chunks). The
 * writers take them through `PackOptions.startWorkers` and keep the
 * archive's order themselves (formats/compress-order.ts); small archives, and builds where no worker
 * can start, compress in the writer's thread alone, with the same bytes out.
 */
import { Worker } from 'node:worker_threads';
import { bundledWorker, workersBesideThisThread } from '../io/worker-bundle.js';
import type { ChunkHandOver, ChunkReply, ChunkWorkers, LaidChunks } from '../formats/archive.js';
import { fromThreadError, type ThreadError } from '../io/thread-errors.js';

export interface CompressRequest {
  id: number;
  data: Uint8Array;
  method: number;
  /** An array to lay the chunks in, moved to the worker (null: the worker makes one). */
  into: Uint8Array | null;
  /** Whether `data`'s buffer was moved to the worker; it then comes back in the reply. */
  lent: boolean;
}
/** `laid` is null when the file is best stored (see FileCodec.encodeInto); `spare` is `into` when the chunks are not in it. */
export type CompressReply =
  { id: number; data: Uint8Array | null; laid: LaidChunks | null; spare: Uint8Array | null } | { id: number; error: ThreadError };

interface Job {
  data: Uint8Array;
  resolve: (r: ChunkReply) => void;
  reject: (e: Error) => void;
}

/** Below this many bytes a pool costs more to start than it saves. */
const POOL_BYTES = 16 << 20;

const workerScript = () => bundledWorker(new URL('./compress-worker.ts', import.meta.url));

class Pool implements ChunkWorkers {
  private next = 0;
  private readonly waiting = new Map<number, Job>();
  private constructor(private readonly workers: Worker[]) {
    for (const w of workers) {
      w.on('message', (m: CompressReply) => {
        const job = this.waiting.get(m.id);
        if (!job) return;
        this.waiting.delete(m.id);
        if ('error' in m) job.reject(fromThreadError(m.error));
        else job.resolve({ data: m.data ?? job.data, laid: m.laid, spare: m.spare ?? undefined });
      });
      w.on('error', (err) => this.failAll(err));
      // A worker that stops without an error (killed, out of memory) must not leave its files waiting forever.
      w.on('exit', (code) => this.failAll(new Error(`a compression worker stopped (exit code ${code})`)));
    }
  }

  static async start(count: number): Promise<Pool | null> {
    try {
      const script = await workerScript();
      // A small young generation, as bin/modpak gives the main thread: each file's bytes arrive as a copy
      // and leave as chunks, and a default-sized one carries tens of megabytes of them dead.
      const workers = Array.from({ length: count }, () => new Worker(script, { resourceLimits: { maxYoungGenerationSizeMb: 3 } }));
      await Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((resolve, reject) => {
              w.once('online', resolve);
              w.once('error', reject);
            }),
        ),
      );
      return new Pool(workers);
    } catch {
      return null;
    }
  }

  private failAll(err: Error): void {
    for (const job of this.waiting.values()) job.reject(err);
    this.waiting.clear();
  }

  /** Files sent to the workers and not yet back. */
  get queued(): number {
    return this.waiting.size;
  }

  compress(data: Uint8Array, method: number, handOver: ChunkHandOver = {}): Promise<ChunkReply> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const worker = this.workers[id % this.workers.length];
      if (!worker) return reject(new Error('the compression pool has no workers'));
      const into = handOver.into ?? null;
      const lent = handOver.lend === true;
      const moved: ArrayBuffer[] = [];
      if (into) moved.push(into.buffer as ArrayBuffer);
      if (lent) moved.push(data.buffer as ArrayBuffer);
      worker.postMessage({ id, data, method, into, lent } satisfies CompressRequest, moved);
      this.waiting.set(id, { data, resolve, reject });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/**
 * `PackOptions.startWorkers` for packing on every core: `workers` threads beside the writer's (default:
 * one per other core when the files add up to 16 MiB or more; 0 = the writer's thread alone).
 */
export function compressionWorkers(workers?: number): (totalBytes: number) => Promise<ChunkWorkers | null> {
  return async (totalBytes) => {
    const count = workers ?? (totalBytes >= POOL_BYTES ? workersBesideThisThread() : 0);
    return count > 0 ? Pool.start(count) : null;
  };
}

/** Whether compression workers can start here (not without a prebuilt worker bundle or esbuild to make one). */
export async function compressionWorkersAvailable(): Promise<boolean> {
  const pool = await Pool.start(1);
  await pool?.close();
  return pool !== null;
}
