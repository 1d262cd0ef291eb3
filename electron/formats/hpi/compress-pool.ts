/**
 * Compression on every core for the HPI writers. Files are read ahead in order, compressed by worker
 * threads (one per other core) and handed back in order, so the writer still lays the archive out file by
 * file; the window of files in flight is bounded, so memory stays at a few files. This thread reads,
 * enciphers and writes, which leaves most of its core idle, so it compresses a file itself whenever the
 * workers are behind. Small archives, and builds where no worker can start, compress in this thread
 * alone, with the same code and the same bytes out.
 */
import { Worker } from 'node:worker_threads';
import { bundledWorker, workersBesideThisThread } from '../../io/worker-bundle.js';
import type { ChunkCache, PackFile } from '../archive.js';
import { createHash } from 'node:crypto';
import { fail } from '../../../shared/errors.js';
import { encodeFileChunks } from './chunks.js';
import { readAhead } from './read-ahead.js';
import type { ChunkMethod } from './sqsh.js';

export interface CompressRequest {
  id: number;
  data: Uint8Array;
  method: ChunkMethod;
}
export type CompressReply = { id: number; chunks: Uint8Array[] } | { id: number; error: string };

/** Below this many bytes a pool costs more to start than it saves. */
const POOL_BYTES = 16 << 20;
/**
 * This thread compresses the next file itself once this many are queued to the workers. Measured on the
 * bench corpus (2 cores): one worker with this thread helping packs as fast as two workers did (9.8-11.0 s
 * against 10.5-11.3 s) and peaks about 40 MB lower (170 against 213 MB), one isolate fewer. Helping
 * sooner (from 1-3 queued) was slower: this thread then delays its own reads and writes.
 */
const HELP_WHEN_QUEUED = 8;
const WINDOW_FILES = 12;
const WINDOW_BYTES = 8 << 20;

const workerScript = () => bundledWorker(new URL('./compress-worker.ts', import.meta.url));

class Pool {
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (c: Uint8Array[]) => void; reject: (e: Error) => void }>();
  private constructor(private readonly workers: Worker[]) {
    for (const w of workers) {
      w.on('message', (m: CompressReply) => {
        const job = this.waiting.get(m.id);
        if (!job) return;
        this.waiting.delete(m.id);
        if ('error' in m) job.reject(new Error(m.error));
        else job.resolve(m.chunks);
      });
      w.on('error', (err) => this.failAll(err));
    }
  }

  static async start(count: number): Promise<Pool | null> {
    try {
      const script = await workerScript();
      const workers = Array.from({ length: count }, () => new Worker(script));
      await Promise.all(workers.map((w) => new Promise<void>((resolve, reject) => {
        w.once('online', resolve);
        w.once('error', reject);
      })));
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

  compress(data: Uint8Array, method: ChunkMethod): Promise<Uint8Array[]> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.workers[id % this.workers.length]!.postMessage({ id, data, method } satisfies CompressRequest);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

export interface Compressed<T> {
  item: T;
  data: Uint8Array;
  /** The file's chunks; null when it is written stored (method 0). */
  chunks: Uint8Array[] | null;
}

/**
 * The items' files, read and compressed ahead, in order. `workers`: how many worker threads compress
 * beside this one (default: one per other core when the files add up to 16 MiB or more; 0 = this thread
 * alone).
 */
export async function* compressInOrder<T extends { file: PackFile }>(
  items: readonly T[],
  methodOf: (item: T) => ChunkMethod,
  workers?: number,
  cache?: ChunkCache,
): AsyncGenerator<Compressed<T>> {
  const total = items.reduce((n, i) => n + i.file.size, 0);
  const count = workers ?? (total >= POOL_BYTES ? workersBesideThisThread() : 0);
  const pool = count > 0 ? await Pool.start(count) : null;
  try {
    const pending: { item: T; data: Uint8Array; chunks: Promise<Uint8Array[] | null>; size: number }[] = [];
    let inFlight = 0;
    const take = async () => {
      const head = pending.shift()!;
      inFlight -= head.size;
      return { item: head.item, data: head.data, chunks: await head.chunks };
    };
    for await (const { item, data } of readAhead(items)) {
      if (data.length !== item.file.size) fail('size-mismatch', `${item.file.path} changed while packing: ${data.length} bytes, expected ${item.file.size}`);
      const method = methodOf(item);
      const here = pool === null || pool.queued >= HELP_WHEN_QUEUED;
      const chunks = method === 0 ? Promise.resolve(null) : compressCached(data, method, cache, (d, m) => (here ? Promise.resolve(encodeFileChunks(d, m)) : pool.compress(d, m)));
      chunks.catch(() => {});
      pending.push({ item, data, chunks, size: data.length });
      inFlight += data.length;
      while (pending.length >= WINDOW_FILES || inFlight >= WINDOW_BYTES) yield await take();
    }
    while (pending.length > 0) yield await take();
  } finally {
    await pool?.close();
  }
}

/**
 * Chunks from the cache when the same bytes were compressed the same way before, else compressed and
 * remembered. Writers encipher chunks in place, so the cache keeps its own copies and hands out copies.
 */
function compressCached(data: Uint8Array, method: ChunkMethod, cache: ChunkCache | undefined, compress: (d: Uint8Array, m: ChunkMethod) => Promise<Uint8Array[]>): Promise<Uint8Array[]> {
  if (!cache) return compress(data, method);
  const key = `${method}:${data.length}:${createHash('sha1').update(data).digest('base64')}`;
  const known = cache.get(key);
  if (known) return Promise.resolve(known.map((c) => c.slice()));
  return compress(data, method).then((chunks) => {
    cache.set(key, chunks.map((c) => c.slice()));
    return chunks;
  });
}

/** Whether compression workers can start here (not without a prebuilt worker bundle or esbuild to make one). */
export async function compressionWorkersAvailable(): Promise<boolean> {
  const pool = await Pool.start(1);
  await pool?.close();
  return pool !== null;
}
