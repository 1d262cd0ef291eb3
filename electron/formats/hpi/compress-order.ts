/**
 * The HPI writers' files, read and compressed in order and handed back in order, so the writer still
 * lays the archive out file by file; the window of files in flight is bounded, so memory stays at a few
 * files. Threads are not this layer's: where the caller supplies `PackOptions.startWorkers` (packing on
 * every core, mods/compress-pool.ts), files go to those workers while they have work queued, and this
 * thread compresses the next file itself whenever they have enough; otherwise this thread compresses
 * alone, with the same code and the same bytes.
 */
import type { ChunkWorkers, PackFile, PackOptions } from '../archive.js';
import { FileScratch } from '../archive.js';
import { fail } from '../../../shared/errors.js';
import { encodeFileChunks } from './chunks.js';
import type { ChunkMethod } from './sqsh.js';

/**
 * This thread compresses the next file itself while the workers have this many bytes queued: enough that
 * they never run dry while this thread is busy with a file of its own (the largest take ~100 ms), little
 * enough that both halves finish together.
 */
const HELP_WHEN_QUEUED_BYTES = 1 << 20;
const WINDOW_FILES = 64;
const WINDOW_BYTES = 8 << 20;

export interface Compressed<T> {
  item: T;
  data: Uint8Array;
  /** The file's chunks; null when it is written stored (method 0, or chunks that would not be smaller). */
  chunks: Uint8Array[] | null;
  /** Whether `data` is this layer's scratch (the writer may change it in place; it is reused after the writer's next call). */
  scratch: boolean;
}

interface Pending<T> {
  item: T;
  data: Uint8Array;
  chunks: Uint8Array[] | null;
  /** Set while the file is with a worker. */
  job: Promise<Uint8Array[] | null> | null;
  ready: boolean;
}

/**
 * Arrays for files' bytes, reused once the writer is done with a file: a pack reads hundreds of megabytes,
 * and fresh arrays are memory outside the JavaScript heap that the collector frees only after tens of
 * megabytes have piled up. Sizes are rounded up to a power of two; arrays over 4 MiB are not kept.
 */
class ReadBuffers {
  private readonly free = new Map<number, Uint8Array[]>();
  get(size: number): Uint8Array | undefined {
    if (size > 4 << 20) return undefined;
    let capacity = 4096;
    while (capacity < size) capacity *= 2;
    return this.free.get(capacity)?.pop() ?? new Uint8Array(capacity);
  }
  put(data: Uint8Array): void {
    const whole = new Uint8Array(data.buffer);
    if (data.byteOffset !== 0 || whole.length > 4 << 20 || (whole.length & (whole.length - 1)) !== 0) return;
    const list = this.free.get(whole.length) ?? [];
    if (list.length < WINDOW_FILES) list.push(whole);
    this.free.set(whole.length, list);
  }
}

/** One turn of the event loop, so the workers' replies (and the writes in flight) are taken in. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function* compressInOrder<T extends { file: PackFile }>(
  items: readonly T[],
  methodOf: (item: T) => ChunkMethod,
  options: Pick<PackOptions, 'startWorkers' | 'chunkCache'>,
): AsyncGenerator<Compressed<T>> {
  // Stored files need no workers: only the bytes to compress count.
  const total = items.reduce((n, i) => n + (methodOf(i) === 0 ? 0 : i.file.size), 0);
  const pool: ChunkWorkers | null = options.startWorkers && total > 0 ? await options.startWorkers(total) : null;
  const cache = options.chunkCache;
  try {
    const pending: Pending<T>[] = [];
    let inFlight = 0;
    let sentBytes = 0;
    let doneBytes = 0;
    const take = async (): Promise<Compressed<T>> => {
      const head = pending.shift()!;
      inFlight -= head.data.length;
      return { item: head.item, data: head.data, chunks: head.job ? await head.job : head.chunks, scratch: scratch.holds(head.data) };
    };
    // A stored file read while nothing is pending is written before the next read: one array serves those.
    const scratch = new FileScratch();
    const buffers = new ReadBuffers();
    // The file handed to the writer last: its array is free once the writer asks for the next.
    let handedOver: Uint8Array | null = null;
    const release = () => {
      if (handedOver !== null && !scratch.holds(handedOver)) buffers.put(handedOver);
      handedOver = null;
    };
    for (const item of items) {
      const method = methodOf(item);
      // Only arrays of our own go back to the pool, so only files read into them (readSync) may be pooled.
      const into =
        method === 0 && pending.length === 0 ? scratch.sized(item.file.size) : item.file.readSync ? buffers.get(item.file.size) : undefined;
      const data = item.file.readSync ? item.file.readSync(into) : await item.file.read();
      if (data.length !== item.file.size)
        fail('size-mismatch', `${item.file.path} changed while packing: ${data.length} bytes, expected ${item.file.size}`);
      const entry: Pending<T> = { item, data, chunks: null, job: null, ready: true };
      if (method !== 0) {
        const known = cache?.get(data, method);
        if (known !== undefined) entry.chunks = known && known.map((c) => c.slice());
        else if (pool !== null && sentBytes - doneBytes < HELP_WHEN_QUEUED_BYTES) {
          sentBytes += data.length;
          entry.ready = false;
          entry.job = pool.compress(data, method).then((chunks) => {
            doneBytes += data.length;
            entry.ready = true;
            cache?.set(data, method, chunks && chunks.map((c) => c.slice()));
            return chunks;
          });
          entry.job.catch(() => {});
        } else {
          entry.chunks = encodeFileChunks(data, method);
          cache?.set(data, method, entry.chunks && entry.chunks.map((c) => c.slice()));
          // Let the workers' replies in, so the next file goes to them if they are ready for it.
          if (pool !== null) await turn();
        }
      }
      pending.push(entry);
      inFlight += data.length;
      // Hand over what is ready (the writer's writes overlap what follows), and wait when the window is full.
      while (pending.length > 0 && (pending[0]!.ready || pending.length >= WINDOW_FILES || inFlight >= WINDOW_BYTES)) {
        const next = await take();
        handedOver = next.data;
        yield next;
        release();
      }
    }
    while (pending.length > 0) {
      const next = await take();
      handedOver = next.data;
      yield next;
      release();
    }
  } finally {
    await pool?.close();
  }
}
