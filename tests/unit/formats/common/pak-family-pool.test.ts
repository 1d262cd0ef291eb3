import { describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySink } from '../../../../electron/io/byte-sink.js';
import { MemorySource } from '../../../../electron/io/byte-source.js';
import type { PackFile, PackOptions } from '../../../../electron/formats/archive.js';
import { daikatanaEngine } from '../../../../electron/formats/daikatana/index.js';
import { pangyaEngine } from '../../../../electron/formats/pangya/index.js';
import { dkCompress } from '../../../../electron/formats/daikatana/encode.js';
import { lz77Encode } from '../../../../electron/formats/pangya/lz77-encode.js';
import { compressionWorkers } from '../../../../electron/mods/compress-pool.js';
import { collectFolder } from '../../../../electron/mods/pack.js';
import { packFile, readAll, sameBytes, sampleBytes, workersUp } from '../hpi/fixtures.js';

/**
 * Daikatana and Pangya packing on the compression workers: the archive must not show which thread
 * compressed what, and every file must read back exactly.
 */

type Engine = typeof daikatanaEngine;
const cases: { name: string; engine: Engine; options: PackOptions; ext: string }[] = [
  { name: 'Daikatana', engine: daikatanaEngine, options: {}, ext: 'pcx' },
  { name: 'Pangya LZ77', engine: pangyaEngine, options: { method: 'lz77' }, ext: 'dds' },
  { name: 'Pangya LZ77 type 3', engine: pangyaEngine, options: { method: 'lz77x', cipher: 'xtea', region: 'kr' }, ext: 'dds' },
];

function mixedFiles(ext: string): PackFile[] {
  // Runs and text shrink; noise does not and is stored; Daikatana stores .wav whatever it holds.
  return Array.from({ length: 40 }, (_, i) => {
    const kind = i % 5 === 2 ? 'noise' : i % 3 === 0 ? 'runs' : 'text';
    const path = `${i % 2 ? 'maps' : 'textures/sky'}/file${i}.${i % 7 === 6 ? 'wav' : ext}`;
    return packFile(path, sampleBytes(300 + i, i === 11 ? 0 : 3_000 + i * 1_511, kind));
  });
}

async function pack(engine: Engine, files: readonly PackFile[], options: PackOptions): Promise<Uint8Array> {
  const sink = new MemorySink();
  await engine.pack!(files, sink, options);
  return sink.toBytes();
}

async function expectReadBack(engine: Engine, bytes: Uint8Array, files: readonly PackFile[]): Promise<void> {
  const archive = await engine.open(new MemorySource(bytes, 'test.pak'));
  try {
    const got = await readAll(archive);
    for (const f of files) expect(sameBytes(got.get(f.path), await f.read()), f.path).toBe('same');
  } finally {
    await archive.close();
  }
}

describe('PAK-family compression on worker threads', () => {
  for (const c of cases) {
    it(`${c.name}: workers write byte for byte what one thread writes`, async () => {
      const files = mixedFiles(c.ext);
      const one = await pack(c.engine, files, { ...c.options, startWorkers: compressionWorkers(0) });
      for (const count of [1, 2]) {
        const workers = await workersUp(count);
        const many = await pack(c.engine, files, { ...c.options, startWorkers: workers.start });
        expect(workers.handed(), `${count} workers`).toBeGreaterThan(0);
        expect(sameBytes(many, one), `${count} workers`).toBe('same');
      }
      await expectReadBack(c.engine, one, files);
    });
  }

  it('compresses a file as the one-thread codec does, and stores what would not shrink', async () => {
    const files = mixedFiles('pcx');
    const workers = await workersUp(2);
    const bytes = await pack(daikatanaEngine, files, { startWorkers: workers.start });
    expect(workers.handed()).toBeGreaterThan(0);
    const archive = await daikatanaEngine.open(new MemorySource(bytes, 'test.pak'));
    try {
      const sizes = new Map(archive.entries.map((e) => [e.path, e.packedSize]));
      for (const f of files) {
        const data = await f.read();
        const packed = f.path.endsWith('.pcx') && data.length > 0 ? dkCompress(data).length : data.length;
        expect(sizes.get(f.path), f.path).toBe(Math.min(packed, data.length));
      }
    } finally {
      await archive.close();
    }
    const noise = sampleBytes(9, 20_000, 'noise');
    expect(lz77Encode(noise, 1).length).toBeGreaterThanOrEqual(noise.length);
    const one = await workersUp(1);
    const pangya = await pack(pangyaEngine, [packFile('noise.dds', noise), packFile('more-noise.dds', noise)], {
      method: 'lz77',
      startWorkers: one.start,
    });
    expect(one.handed()).toBeGreaterThan(0);
    const entry = (await pangyaEngine.open(new MemorySource(pangya, 'test.pak'))).entries.find((e) => e.path === 'noise.dds');
    expect(entry?.packedSize).toBe(noise.length);
  });

  it('files read from disk (lent to the workers whole) come out the same', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modpak-pak-pool-'));
    try {
      const sources = mixedFiles('pcx');
      for (const f of sources) {
        await mkdir(join(dir, f.path, '..'), { recursive: true });
        await writeFile(join(dir, f.path), await f.read());
      }
      const files = await collectFolder(dir);
      for (const c of cases) {
        const one = await pack(c.engine, files, { ...c.options, startWorkers: compressionWorkers(0) });
        const workers = await workersUp(2);
        const many = await pack(c.engine, files, { ...c.options, startWorkers: workers.start });
        expect(workers.handed(), c.name).toBeGreaterThan(0);
        expect(sameBytes(many, one), c.name).toBe('same');
        await expectReadBack(c.engine, many, files);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
