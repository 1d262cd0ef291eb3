import { describe, expect, it } from 'vitest';
import { MemorySink } from '../../../../electron/io/byte-sink.js';
import { writeHpiV1 } from '../../../../electron/formats/hpi/v1-writer.js';
import { writeHpiV2 } from '../../../../electron/formats/hpi/v2-writer.js';
import { compressionWorkers, compressionWorkersAvailable } from '../../../../electron/mods/compress-pool.js';
import { modFiles, openBytes, packFile, readAll, sameBytes, sampleBytes } from './fixtures.js';

describe('HPI compression on worker threads', () => {
  it('starts workers here, and writes byte for byte what one thread writes (v1 and v2, every method)', async () => {
    expect(await compressionWorkersAvailable()).toBe(true);
    const files = modFiles();
    for (const method of ['lz77', 'zlib', 'none'] as const) {
      for (const write of [writeHpiV1, writeHpiV2]) {
        const one = new MemorySink();
        const many = new MemorySink();
        await write(files, one, { method, startWorkers: compressionWorkers(0) });
        await write(files, many, { method, startWorkers: compressionWorkers(2) });
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
      await write(files, mixed, { method: 'lz77', startWorkers: compressionWorkers(1) });
      expect(sameBytes(mixed.toBytes(), one.toBytes()), write.name).toBe('same');
    }
  });
});
