import { describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySink } from '../../../../electron/io/byte-sink.js';
import type { ChunkHandOver, ChunkReply, ChunkWorkers, LaidChunks } from '../../../../electron/formats/archive.js';
import { chunkViews, encodeFileChunksInto, fileChunksBound, laidEndToEnd } from '../../../../electron/formats/hpi/chunks.js';
import { writeHpiV1 } from '../../../../electron/formats/hpi/v1-writer.js';
import { writeHpiV2 } from '../../../../electron/formats/hpi/v2-writer.js';
import { CHUNK_SIZE, encodeChunk, type ChunkMethod } from '../../../../electron/formats/hpi/sqsh.js';
import { compressionWorkers, compressionWorkersAvailable } from '../../../../electron/mods/compress-pool.js';
import { collectFolder } from '../../../../electron/mods/pack.js';
import { RebuildChunkCache } from '../../../../electron/mods/chunk-cache.js';
import { modFiles, openBytes, packFile, readAll, sameBytes, sampleBytes, workersUp } from './fixtures.js';

describe('HPI compression on worker threads', () => {
  it('starts workers here, and writes byte for byte what one thread writes (v1 and v2, every method)', async () => {
    expect(await compressionWorkersAvailable()).toBe(true);
    const files = modFiles();
    for (const method of ['lz77', 'zlib', 'none'] as const) {
      for (const write of [writeHpiV1, writeHpiV2]) {
        const one = new MemorySink();
        const many = new MemorySink();
        await write(files, one, { method, startWorkers: compressionWorkers(0) });
        const workers = await workersUp(2);
        await write(files, many, { method, startWorkers: workers.start });
        // Files stored as they are (method none) need no workers.
        if (method !== 'none') expect(workers.handed(), `${write.name} ${method}`).toBeGreaterThan(0);
        expect(sameBytes(many.toBytes(), one.toBytes()), `${write.name} ${method}`).toBe('same');
        const got = await readAll(await openBytes(many.toBytes()));
        for (const f of files) expect(sameBytes(got.get(f.path), await f.read())).toBe('same');
      }
    }
  });

  it('writes the same bytes when this thread helps a backlogged worker (more files queued than one worker keeps up with)', async () => {
    // Forty files against one worker: reads outrun compression, the queue passes the point where this
    // thread compresses files itself, and the archive must not show who compressed what.
    const files = Array.from({ length: 40 }, (_, i) =>
      packFile(`units/unit${i}.fbi`, sampleBytes(100 + i, 40_000 + i * 997, i % 3 === 0 ? 'runs' : 'text')),
    );
    for (const write of [writeHpiV1, writeHpiV2]) {
      const one = new MemorySink();
      const mixed = new MemorySink();
      await write(files, one, { method: 'lz77' });
      const workers = await workersUp(1);
      await write(files, mixed, { method: 'lz77', startWorkers: workers.start });
      // Both threads compressed: this one took files while the worker had 8 queued.
      expect(workers.handed(), write.name).toBeGreaterThan(0);
      expect(workers.handed(), write.name).toBeLessThan(files.length);
      expect(sameBytes(mixed.toBytes(), one.toBytes()), write.name).toBe('same');
    }
  });
});

describe('starting the workers', () => {
  it('is not waited for: files are compressed on this thread until the workers are up', async () => {
    const files = modFiles();
    const one = new MemorySink();
    await writeHpiV1(files, one, { method: 'lz77' });
    // Workers that come up only once every file has been written: a writer that waited for them would never finish.
    const workers = await workersUp(2);
    let up: () => void = () => {};
    const ready = new Promise<void>((resolve) => (up = resolve));
    const late = new MemorySink();
    await writeHpiV1(files, late, {
      method: 'lz77',
      startWorkers: async () => ready.then(() => workers.start!(0)),
      onProgress: (done, total) => done === total && up(),
    });
    expect(workers.handed()).toBe(0);
    expect(sameBytes(late.toBytes(), one.toBytes())).toBe('same');
  }, 15_000);

  it('with a chunk cache, only once files miss it: a rebuild after one small change compresses it here', async () => {
    const files = (fbi: string) => [
      packFile('units/ARMCOM.FBI', fbi),
      ...Array.from({ length: 6 }, (_, i) => packFile(`anims/part${i}.gaf`, sampleBytes(40 + i, 300_000, 'runs'))),
    ];
    const cache = new RebuildChunkCache();
    const starts: number[] = [];
    const startWorkers = (bytes: number) => {
      starts.push(bytes);
      return workersUp(1).then((w) => w.start!(bytes));
    };
    const first = new MemorySink();
    await writeHpiV1(files('MaxDamage=1;'), first, { method: 'lz77', chunkCache: cache.nextBuild(), startWorkers });
    // The first build missed the cache throughout: the workers started once 1 MiB had missed it, for what was left.
    expect(starts).toHaveLength(1);
    expect(starts[0]).toBeLessThan(6 * 300_000);
    const second = new MemorySink();
    await writeHpiV1(files('MaxDamage=2;'), second, { method: 'lz77', chunkCache: cache.nextBuild(), startWorkers });
    expect(starts).toHaveLength(1);
    expect(cache.hits).toBe(6);
    const fresh = new MemorySink();
    await writeHpiV1(files('MaxDamage=2;'), fresh, { method: 'lz77' });
    expect(sameBytes(second.toBytes(), fresh.toBytes())).toBe('same');
  });
});

describe('chunk arrays of stored files', () => {
  it('come back from a real worker when the file is stored, or its chunks did not fit', async () => {
    const pool = await compressionWorkers(1)(0);
    if (!pool) throw new Error('no compression worker could start');
    try {
      const noise = sampleBytes(7, 100_000, 'noise');
      const stored = await pool.compress(noise, 1, { into: new Uint8Array(fileChunksBound(noise.length)) });
      expect(stored.laid).toBeNull();
      expect(stored.spare?.length).toBe(fileChunksBound(noise.length));
      const text = sampleBytes(8, 100_000, 'text');
      const grown = await pool.compress(text, 1, { into: new Uint8Array(10) });
      expect(grown.spare?.length).toBe(10);
      const fitted = await pool.compress(text, 1, { into: new Uint8Array(fileChunksBound(text.length)) });
      expect(fitted.laid?.bytes.length).toBe(fileChunksBound(text.length));
      expect(fitted.spare).toBeUndefined();
    } finally {
      await pool.close();
    }
  });

  it('serve the next files, on the workers and on this thread: 300 stored files take no array each', async () => {
    // Workers that keep what they are handed (no transfer), so the arrays' identities can be counted.
    const handed = new Set<Uint8Array>();
    let asked = 0;
    const workers: ChunkWorkers = {
      // Busy every other time it is asked: then this thread compresses the file itself.
      get queued() {
        return (asked++ % 2) * 8;
      },
      async compress(data, method, handOver = {}) {
        if (handOver.into) handed.add(handOver.into);
        const laid = encodeFileChunksInto(data, method as ChunkMethod, handOver.into);
        return { data, laid, spare: handOver.into && laid?.bytes !== handOver.into ? handOver.into : undefined };
      },
      async close() {},
    };
    const files = Array.from({ length: 300 }, (_, i) => packFile(`noise/${i}.bin`, sampleBytes(300 + i, 5_000 + i * 10, 'noise')));
    const sink = new MemorySink();
    await writeHpiV1(files, sink, { method: 'lz77', startWorkers: async () => workers });
    expect(handed.size).toBeLessThan(20);
    expect(asked).toBeGreaterThan(250);
    const got = await readAll(await openBytes(sink.toBytes()));
    for (const f of files) expect(sameBytes(got.get(f.path), await f.read())).toBe('same');
  });
});

describe('chunks laid in one reused array', () => {
  it('are the chunks encodeChunk makes of each 64 KiB, in an array given or a new one, for both methods', () => {
    const data = sampleBytes(5, 200_000, 'text');
    for (const method of [1, 2] as ChunkMethod[]) {
      const expected: Uint8Array[] = [];
      for (let at = 0; at < data.length; at += CHUNK_SIZE) expected.push(encodeChunk(data.subarray(at, at + CHUNK_SIZE), method, true));
      const fresh = laidOf(encodeFileChunksInto(data, method));
      expect(chunkViews(fresh)).toEqual(expected);
      // Reused: an array holding the bound is written in place, one too small is replaced.
      const roomy = new Uint8Array(300_000).fill(0xaa);
      const reused = laidOf(encodeFileChunksInto(data, method, roomy));
      expect(reused.bytes).toBe(roomy);
      expect(chunkViews(reused)).toEqual(expected);
      const small = new Uint8Array(100);
      expect(laidOf(encodeFileChunksInto(data, method, small)).bytes).not.toBe(small);
      expect(laidEndToEnd(chunkViews(reused))).toEqual(reused.bytes.subarray(0, reused.ends.at(-1)));
    }
    expect(laidEndToEnd([new Uint8Array(4), new Uint8Array(4)])).toBeNull();
  });

  it('are none for an LZ77 file that does not shrink (it is stored), but zlib still lays them', () => {
    const noise = sampleBytes(6, 150_000, 'noise');
    expect(encodeFileChunksInto(noise, 1)).toBeNull();
    expect(encodeFileChunksInto(noise, 1, new Uint8Array(300_000))).toBeNull();
    const zlib: Uint8Array[] = [];
    for (let at = 0; at < noise.length; at += CHUNK_SIZE) zlib.push(encodeChunk(noise.subarray(at, at + CHUNK_SIZE), 2, true));
    expect(chunkViews(laidOf(encodeFileChunksInto(noise, 2)))).toEqual(zlib);
  });
});

function laidOf(laid: LaidChunks | null): LaidChunks {
  if (laid === null) throw new Error('expected chunks, got a stored file');
  return laid;
}

/** Workers in this thread that move what they are handed, as a real pool does (the sender's views read as empty). */
class MovingWorkers implements ChunkWorkers {
  outstanding = 0;
  most = 0;
  lent = 0;
  private backlog: (() => void)[] = [];
  constructor(private readonly failOn?: number) {}
  get queued(): number {
    return this.outstanding;
  }
  compress(data: Uint8Array, method: number, handOver: ChunkHandOver = {}): Promise<ChunkReply> {
    const moved: ArrayBuffer[] = [];
    if (handOver.into) moved.push(handOver.into.buffer as ArrayBuffer);
    if (handOver.lend) moved.push(data.buffer as ArrayBuffer);
    if (handOver.lend) this.lent++;
    const job = structuredClone({ data, into: handOver.into }, { transfer: moved });
    if (handOver.lend) expect(data.length).toBe(0);
    this.outstanding++;
    this.most = Math.max(this.most, this.outstanding);
    return new Promise((resolve, reject) => {
      // Replies come late and in a burst, so files pile up behind the first.
      this.backlog.push(() => {
        this.outstanding--;
        if (this.failOn !== undefined && job.data.length === this.failOn) return reject(new Error('the worker gave up'));
        const laid = encodeFileChunksInto(job.data, method as ChunkMethod, job.into);
        const spare = job.into && laid?.bytes !== job.into ? job.into : undefined;
        const moved = [job.data.buffer as ArrayBuffer];
        if (laid) moved.push(laid.bytes.buffer as ArrayBuffer);
        if (spare) moved.push(spare.buffer as ArrayBuffer);
        resolve(structuredClone({ data: job.data, laid, spare }, { transfer: moved }));
      });
      if (this.backlog.length >= 8) for (const reply of this.backlog.splice(0)) setImmediate(reply);
      else setTimeout(() => this.backlog.splice(0).forEach((reply) => reply()), 5);
    });
  }
  async close(): Promise<void> {}
}

async function folderOfFiles(count: number): Promise<{ dir: string; sizes: number[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'modpak-pool-'));
  await mkdir(join(dir, 'units'));
  const sizes: number[] = [];
  for (let i = 0; i < count; i++) {
    const size = 2_000 + ((i * 7919) % 40_000);
    sizes.push(size);
    // Every fifth file is noise, which LZ77 packing stores: that path goes through the workers too.
    const kind = i % 5 === 2 ? 'noise' : i % 4 === 0 ? 'runs' : 'text';
    await writeFile(join(dir, 'units', `unit${String(i).padStart(3, '0')}.fbi`), sampleBytes(200 + i, size, kind));
  }
  return { dir, sizes };
}

describe('files read from disk, lent to the workers whole', () => {
  it('writes byte for byte what one thread writes, on real workers and on ones that move what they get', async () => {
    const { dir } = await folderOfFiles(70);
    try {
      const files = await collectFolder(dir);
      for (const method of ['lz77', 'zlib'] as const) {
        for (const write of [writeHpiV1, writeHpiV2]) {
          const one = new MemorySink();
          await write(files, one, { method, startWorkers: compressionWorkers(0) });
          const real = new MemorySink();
          const workers = await workersUp(1);
          await write(files, real, { method, startWorkers: workers.start });
          expect(workers.handed(), `${write.name} ${method}, worker threads`).toBeGreaterThan(0);
          expect(sameBytes(real.toBytes(), one.toBytes()), `${write.name} ${method}, worker threads`).toBe('same');
          const moving = new MovingWorkers();
          const moved = new MemorySink();
          await write(files, moved, { method, startWorkers: async () => moving });
          expect(sameBytes(moved.toBytes(), one.toBytes()), `${write.name} ${method}, moved`).toBe('same');
          // The bytes went over without a copy, and never more files than the window holds (64).
          expect(moving.lent).toBeGreaterThan(0);
          expect(moving.most).toBeLessThanOrEqual(64);
        }
      }
      const got = await readAll(await openBytes(await packWith(files, new MovingWorkers())));
      for (const f of files) expect(sameBytes(got.get(f.path), f.readSync!())).toBe('same');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails with the message of the worker when a file cannot be compressed', async () => {
    const { dir, sizes } = await folderOfFiles(30);
    try {
      const files = await collectFolder(dir);
      // One of the first files: those go to the worker before this thread starts helping (8 queued).
      await expect(packWith(files, new MovingWorkers(sizes[5]))).rejects.toThrow('the worker gave up');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

async function packWith(files: Parameters<typeof writeHpiV1>[0], workers: ChunkWorkers): Promise<Uint8Array> {
  const sink = new MemorySink();
  await writeHpiV1(files, sink, { method: 'lz77', startWorkers: async () => workers });
  return sink.toBytes();
}
