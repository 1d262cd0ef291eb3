/**
 * The HPI writers' files, read ahead in order and compressed, handed back in order, so the writer still
 * lays the archive out file by file; the window of files in flight is bounded, so memory stays at a few
 * files. Threads are not this layer's: where the caller supplies `PackOptions.startWorkers` (packing on
 * every core, mods/compress-pool.ts), files go to those workers, and this thread compresses a file itself
 * whenever they are behind; otherwise this thread compresses alone, with the same code and the same bytes.
 */
import type { ChunkWorkers, PackFile, PackOptions } from '../archive.js';
import { fail } from '../../../shared/errors.js';
import { encodeFileChunks } from './chunks.js';
import { readAhead } from './read-ahead.js';
import type { ChunkMethod } from './sqsh.js';

/**
 * This thread compresses the next file itself once this many are queued to the workers. Measured on the
 * bench corpus (2 cores): one worker with this thread helping packs as fast as two workers did (9.8-11.0 s
 * against 10.5-11.3 s) and peaks about 40 MB lower (170 against 213 MB), one isolate fewer. Helping
 * sooner (from 1-3 queued) was slower: this thread then delays its own reads and writes.
 */
const HELP_WHEN_QUEUED = 8;
const WINDOW_FILES = 12;
const WINDOW_BYTES = 8 << 20;

export interface Compressed<T> {
  item: T;
  data: Uint8Array;
  /** The file's chunks; null when it is written stored (method 0). */
  chunks: Uint8Array[] | null;
}

export async function* compressInOrder<T extends { file: PackFile }>(
  items: readonly T[],
  methodOf: (item: T) => ChunkMethod,
  options: Pick<PackOptions, 'startWorkers' | 'chunkCache'>,
): AsyncGenerator<Compressed<T>> {
  const total = items.reduce((n, i) => n + i.file.size, 0);
  const pool: ChunkWorkers | null = options.startWorkers ? await options.startWorkers(total) : null;
  const cache = options.chunkCache;
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
      const compress = (): Promise<Uint8Array[]> => (here ? Promise.resolve(encodeFileChunks(data, method)) : pool.compress(data, method));
      const chunks = method === 0 ? Promise.resolve(null) : compressCached(data, method, cache, compress);
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
function compressCached(data: Uint8Array, method: ChunkMethod, cache: PackOptions['chunkCache'], compress: () => Promise<Uint8Array[]>): Promise<Uint8Array[]> {
  if (!cache) return compress();
  const known = cache.get(data, method);
  if (known) return Promise.resolve(known.map((c) => c.slice()));
  return compress().then((chunks) => {
    cache.set(data, method, chunks.map((c) => c.slice()));
    return chunks;
  });
}
