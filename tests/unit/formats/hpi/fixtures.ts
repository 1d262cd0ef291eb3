/** Archives built from code for the HPI tests: PackFiles from bytes, and a writer/reader round trip in memory. */
import type { Archive, ChunkWorkers, PackFile, PackOptions } from '../../../../electron/formats/archive.js';
import { compressionWorkers } from '../../../../electron/mods/compress-pool.js';
import { MemorySink } from '../../../../electron/io/byte-sink.js';
import { MemorySource } from '../../../../electron/io/byte-source.js';
import { hpiEngine } from '../../../../electron/formats/hpi/index.js';
import { chunkViews, encodeFileChunksInto } from '../../../../electron/formats/hpi/chunks.js';
import type { ChunkMethod } from '../../../../electron/formats/hpi/sqsh.js';
import { prng } from '../../../helpers/prng.js';

export function packFile(path: string, bytes: Uint8Array | string): PackFile {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  return { path, size: data.length, read: async () => data };
}

export async function packToBytes(files: readonly PackFile[], options: PackOptions = {}): Promise<Uint8Array> {
  const sink = new MemorySink();
  await hpiEngine.pack!(files, sink, options);
  return sink.toBytes();
}

export async function openBytes(bytes: Uint8Array): Promise<Archive> {
  return hpiEngine.open(new MemorySource(bytes, 'test.hpi'));
}

/** Text-like, structured and random bytes, deterministic from the seed. */
export function sampleBytes(seed: number, size: number, kind: 'text' | 'runs' | 'noise' = 'text'): Uint8Array {
  const rand = prng(seed);
  const out = new Uint8Array(size);
  if (kind === 'noise') for (let i = 0; i < size; i++) out[i] = (rand() * 256) | 0;
  else if (kind === 'runs') {
    for (let i = 0; i < size;) {
      const len = 1 + ((rand() * 30) | 0);
      out.fill((rand() * 256) | 0, i, Math.min(size, i + len));
      i += len;
    }
  } else {
    const words = ['Armor=', 'MaxDamage=', 'UnitName=ARM', 'Weapon1=', '[UNITINFO]\r\n{\r\n', '}\r\n', 'Description=Fast Attack Kbot;\r\n'];
    let s = '';
    while (s.length < size) s += words[(rand() * words.length) | 0] + String((rand() * 1000) | 0) + ';\r\n';
    out.set(new TextEncoder().encode(s.slice(0, size)));
  }
  return out;
}

/** The files of a small mod: nested folders, all kinds of content, a zero-byte file, a multi-chunk file. */
export function modFiles(): PackFile[] {
  return [
    packFile('units/ARMFARK.FBI', sampleBytes(1, 1466)),
    packFile('anims/armfark_gadget.gaf', sampleBytes(2, 18504, 'runs')),
    packFile('features/corpses/armfark_dead.tdf', sampleBytes(3, 619)),
    packFile('sounds/noise.wav', sampleBytes(4, 70_000, 'noise')),
    packFile('empty.txt', new Uint8Array(0)),
    packFile('maps/big.tnt', sampleBytes(5, 200_000, 'runs')),
    packFile('units/ARMFLAK.FBI', sampleBytes(6, 900)),
  ];
}

export async function readAll(archive: Archive): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for (const e of archive.entries) if (!e.dir) out.set(e.path, await archive.read(e));
  return out;
}

/** Byte equality without vitest's element-by-element diffing (slow on large arrays); names the first difference. */
export function sameBytes(actual: Uint8Array | undefined, expected: Uint8Array): string {
  if (!actual) return 'missing';
  if (
    Buffer.from(actual.buffer, actual.byteOffset, actual.length).equals(Buffer.from(expected.buffer, expected.byteOffset, expected.length))
  )
    return 'same';
  let i = 0;
  while (i < Math.min(actual.length, expected.length) && actual[i] === expected[i]) i++;
  return `differ at ${i} (lengths ${actual.length} and ${expected.length})`;
}

/** A file's chunks as the pack pipeline lays them, each a view (null: the file is written stored). */
export function fileChunks(data: Uint8Array, method: ChunkMethod): Uint8Array[] | null {
  const laid = encodeFileChunksInto(data, method);
  return laid && chunkViews(laid);
}

/**
 * `PackOptions.startWorkers` for one pack, with `count` real compression workers already up, counting the
 * files handed to them. A pack does not wait for its workers to start, and one as small as a test's would
 * be done on the writer's thread before they were up.
 */
export async function workersUp(count: number): Promise<{ start: PackOptions['startWorkers']; handed: () => number }> {
  let handed = 0;
  const pool = await compressionWorkers(count)(1);
  if (!pool) throw new Error('no compression workers could start');
  const counted: ChunkWorkers = {
    get queued() {
      return pool.queued;
    },
    compress: (data, method, handOver) => {
      handed++;
      return pool.compress(data, method, handOver);
    },
    close: () => pool.close(),
  };
  return { start: async () => counted, handed: () => handed };
}
