/**
 * A writer's files (HPI, Quake-family PAK, Pangya), read and compressed in order and handed back in order, so the writer still
 * lays the archive out file by file; the window of files in flight is bounded, so memory stays at a few
 * files. Threads are not this layer's: where the caller supplies `PackOptions.startWorkers` (packing on
 * every core, mods/compress-pool.ts), files go to those workers while they have work queued, and this
 * thread compresses the next file itself whenever they have enough; otherwise this thread compresses
 * alone, with the same code and the same bytes.
 */
import type { ChunkWorkers, LaidChunks, PackFile, PackOptions } from './archive.js';
import { FileScratch } from './archive.js';
import { fail } from '../../shared/errors.js';
import { chunkViews } from './hpi/chunks.js';
import { fileCodec } from './file-codecs.js';

/**
 * This thread compresses the next file itself while the workers have this many bytes queued: enough that
 * they never run dry while this thread is busy with a file of its own (the largest take ~100 ms), little
 * enough that both halves finish together.
 */
const HELP_WHEN_QUEUED_BYTES = 1 << 20;
/** Or this many files: small files fill the window (64) long before 1 MiB is queued, and this thread would wait. */
const HELP_WHEN_QUEUED_FILES = 8;
/** With a chunk cache, the workers start once this many bytes missed it (a rebuild's few changed files compress here). */
const START_AFTER_MISSED_BYTES = 1 << 20;
const WINDOW_FILES = 64;
const WINDOW_BYTES = 8 << 20;
/** Arrays over this size are not kept for reuse (a rare large file should not hold its memory to the end). */
const KEEP_BYTES_MAX = 4 << 20;

export interface Compressed<T> {
  item: T;
  data: Uint8Array;
  /** The file's chunks; null when it is written stored (method 0, or chunks that would not be smaller). */
  chunks: Uint8Array[] | null;
  /** Whether `data` is this layer's own array (its scratch or a read buffer): the writer may change it in place; it is reused after the writer's next call. */
  owned: boolean;
}

interface Pending<T> {
  item: T;
  size: number;
  /** The file's bytes (while lent to a worker, an empty view: the reply brings them back). */
  data: Uint8Array;
  /** Whether `data` lies in one of this layer's read buffers (so it may be lent, and is reused after). */
  own: boolean;
  chunks: Uint8Array[] | null;
  /** The array the chunks lie in, when it is this layer's to reuse. */
  laid: LaidChunks | null;
  /** Set while the file is with a worker. */
  job: Promise<void> | null;
  ready: boolean;
}

/** Power of two at least `size` (at least 4 KiB). */
function capacityFor(size: number): number {
  let capacity = 4096;
  while (capacity < size) capacity *= 2;
  return capacity;
}

/**
 * Arrays for files' bytes, reused once the writer is done with a file: a pack reads hundreds of megabytes,
 * and fresh arrays are memory outside the JavaScript heap that the collector frees only after tens of
 * megabytes have piled up. Sizes are rounded up to a power of two; arrays over 4 MiB are not kept.
 */
class ReadBuffers {
  private readonly free = new Map<number, Uint8Array[]>();
  get(size: number): Uint8Array | undefined {
    if (size > KEEP_BYTES_MAX) return undefined;
    const capacity = capacityFor(size);
    return this.free.get(capacity)?.pop() ?? new Uint8Array(capacity);
  }
  put(data: Uint8Array): void {
    const whole = new Uint8Array(data.buffer);
    if (data.byteOffset !== 0 || whole.length > KEEP_BYTES_MAX || (whole.length & (whole.length - 1)) !== 0) return;
    const list = this.free.get(whole.length) ?? [];
    if (list.length < WINDOW_FILES) list.push(whole);
    this.free.set(whole.length, list);
  }
}

/**
 * Arrays the chunks are laid in, reused from file to file for the same reason, and handed to the workers
 * with each job, so a file's chunks cost no allocation on either thread. At most a window's worth are
 * kept; when full, a larger array takes the place of the smallest.
 */
class ChunkArrays {
  private readonly free: Uint8Array[] = [];
  /** The smallest kept array that holds `bound` bytes, else a new one. */
  take(bound: number): Uint8Array {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const length = this.free[i]!.length;
      if (length >= bound && (best < 0 || length < this.free[best]!.length)) best = i;
    }
    if (best < 0) return new Uint8Array(capacityFor(bound));
    const [array] = this.free.splice(best, 1);
    return array!;
  }
  put(array: Uint8Array): void {
    if (array.length > KEEP_BYTES_MAX || array.byteOffset !== 0 || array.length === 0) return;
    if (this.free.length < WINDOW_FILES) {
      this.free.push(array);
      return;
    }
    let smallest = 0;
    for (let i = 1; i < this.free.length; i++) if (this.free[i]!.length < this.free[smallest]!.length) smallest = i;
    if (this.free[smallest]!.length < array.length) this.free[smallest] = array;
  }
}

/**
 * The workers of `PackOptions.startWorkers`, started without holding this thread up: it compresses files
 * itself while they start (0.05-0.15 s) and hands them files once `ready`.
 */
class StartingWorkers {
  ready: ChunkWorkers | null = null;
  booting = false;
  private started: Promise<ChunkWorkers | null> | null = null;
  constructor(private readonly startWorkers: PackOptions['startWorkers']) {}

  /** Start them (once) for a build with `bytes` left to compress; a start that fails leaves this thread alone. */
  start(bytes: number): void {
    if (this.started !== null || !this.startWorkers || bytes <= 0) return;
    this.booting = true;
    this.started = this.startWorkers(bytes)
      .catch(() => null)
      .then((workers) => {
        this.booting = false;
        return (this.ready = workers);
      });
  }

  async close(): Promise<void> {
    await (await this.started)?.close();
  }
}

/** One turn of the event loop, so the workers' replies (and the writes in flight) are taken in. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function* compressInOrder<T extends { file: PackFile }>(
  items: readonly T[],
  /** 0: stored; else a method of file-codecs.ts. */
  methodOf: (item: T) => number,
  options: Pick<PackOptions, 'startWorkers' | 'chunkCache'>,
): AsyncGenerator<Compressed<T>> {
  // Stored files need no workers: only the bytes to compress count.
  const total = items.reduce((n, i) => n + (methodOf(i) === 0 ? 0 : i.file.size), 0);
  const cache = options.chunkCache;
  // With a cache they start only once files miss it: a rebuild after one saved file compresses that file
  // here, without waiting on workers it has no use for.
  const workers = new StartingWorkers(options.startWorkers);
  if (!cache) workers.start(total);
  /** Bytes of the files to compress read so far, and of those the cache did not know. */
  let readBytes = 0;
  let missedBytes = 0;
  try {
    const pending: Pending<T>[] = [];
    let inFlight = 0;
    let sentBytes = 0;
    let doneBytes = 0;
    // A stored file read while nothing is pending is written before the next read: one array serves those.
    const scratch = new FileScratch();
    const buffers = new ReadBuffers();
    const chunkArrays = new ChunkArrays();
    // No chunks (null): the file is written stored, as its chunks would not be smaller.
    const laidOut = (entry: Pending<T>, laid: LaidChunks | null) => {
      entry.laid = laid;
      entry.chunks = laid && chunkViews(laid);
      cache?.set(entry.data, methodOf(entry.item), entry.chunks && entry.chunks.map((c) => c.slice()));
    };
    const take = async (): Promise<Pending<T>> => {
      const head = pending.shift()!;
      inFlight -= head.size;
      if (head.job) await head.job;
      return head;
    };
    // The file handed to the writer last: its arrays are free once the writer asks for the next.
    let handedOver: Pending<T> | null = null;
    const handOver = (entry: Pending<T>): Compressed<T> => {
      handedOver = entry;
      return { item: entry.item, data: entry.data, chunks: entry.chunks, owned: entry.own || scratch.holds(entry.data) };
    };
    const release = () => {
      if (handedOver?.own) buffers.put(handedOver.data);
      if (handedOver?.laid) chunkArrays.put(handedOver.laid.bytes);
      handedOver = null;
    };
    for (const item of items) {
      const method = methodOf(item);
      const size = item.file.size;
      // Only files read into our arrays (readSync) can use the pool's.
      const into = method === 0 && pending.length === 0 ? scratch.sized(size) : item.file.readSync ? buffers.get(size) : undefined;
      const data = item.file.readSync ? item.file.readSync(into) : await item.file.read();
      if (data.length !== size) fail('size-mismatch', `${item.file.path} changed while packing: ${data.length} bytes, expected ${size}`);
      // A PackFile may hand back an array of its own instead of reading into ours: that one is never reused or lent.
      const own = into !== undefined && data.buffer === into.buffer && !scratch.holds(data);
      const entry: Pending<T> = { item, size, data, own, chunks: null, laid: null, job: null, ready: true };
      if (method !== 0) {
        const known = cache?.get(data, method);
        if (known === undefined) {
          missedBytes += size;
          if (missedBytes >= START_AFTER_MISSED_BYTES) workers.start(total - readBytes);
        }
        readBytes += size;
        const pool = workers.ready;
        if (known !== undefined) entry.chunks = known && known.map((c) => c.slice());
        else if (pool !== null && sentBytes - doneBytes < HELP_WHEN_QUEUED_BYTES && pool.queued < HELP_WHEN_QUEUED_FILES) {
          sentBytes += size;
          entry.ready = false;
          // Our own array goes to the worker whole (moved, not copied); one a PackFile handed us is copied.
          entry.job = pool.compress(data, method, { into: chunkArrays.take(fileCodec(method).bound(size)), lend: own }).then((reply) => {
            doneBytes += size;
            entry.data = reply.data;
            if (reply.spare) chunkArrays.put(reply.spare);
            laidOut(entry, reply.laid);
            entry.ready = true;
          });
          entry.job.catch(() => {});
        } else {
          const codec = fileCodec(method);
          const into = chunkArrays.take(codec.bound(size));
          const laid = codec.encodeInto(data, into);
          // A stored file leaves the array unused: it serves the next file (1,575 files of the bench corpus
          // are stored, and each took a fresh one). A codec may lay its stream in a new view of the array.
          if (laid?.bytes.buffer !== into.buffer) chunkArrays.put(into);
          laidOut(entry, laid);
          // Let the workers' replies (or their start) in, so the next file goes to them if they are ready for it.
          if (workers.ready !== null || workers.booting) await turn();
        }
      }
      pending.push(entry);
      inFlight += size;
      // Hand over what is ready (the writer's writes overlap what follows), and wait when the window is full.
      while (pending.length > 0 && (pending[0]!.ready || pending.length >= WINDOW_FILES || inFlight >= WINDOW_BYTES)) {
        yield handOver(await take());
        release();
      }
    }
    while (pending.length > 0) {
      yield handOver(await take());
      release();
    }
  } finally {
    await workers.close();
  }
}
