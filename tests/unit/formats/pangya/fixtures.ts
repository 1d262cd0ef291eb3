import { MemorySink } from '../../../../electron/io/byte-sink.js';
import type { PackFile, PackOptions } from '../../../../electron/formats/archive.js';
import { pangyaEngine } from '../../../../electron/formats/pangya/index.js';
import { prng } from '../../../helpers/prng.js';

/** Small generated inputs for Pangya tests: text, runs, noise, an empty file and a CP949 (Korean) name. */
export function fixtureFiles(seed = 7): { path: string; bytes: Uint8Array }[] {
  const rand = prng(seed);
  const text = new TextEncoder().encode('[UNITINFO]\r\n{\r\n\tName=Pangya;\r\n\tClub=Driver;\r\n}\r\n'.repeat(40));
  const noise = Uint8Array.from({ length: 1500 }, () => (rand() * 256) | 0);
  const runs = new Uint8Array(6000);
  for (let i = 0; i < runs.length; i++) runs[i] = Math.floor(i / 37) % 7;
  return [
    { path: 'data/readme.txt', bytes: text },
    { path: 'data/한글 이름.txt', bytes: new TextEncoder().encode('안녕하세요 팡야') },
    { path: 'data/sub/noise.bin', bytes: noise },
    { path: 'data/sub/runs.bin', bytes: runs },
    { path: 'data/sub/empty.dat', bytes: new Uint8Array(0) },
    { path: 'top.ini', bytes: new TextEncoder().encode('x=1\n') },
  ];
}

export function asPackFiles(files: { path: string; bytes: Uint8Array }[]): PackFile[] {
  return files.map((f) => ({ path: f.path, size: f.bytes.length, read: async () => f.bytes }));
}

/** A Pangya archive in memory, written by our writer. */
export async function buildArchive(options: PackOptions = {}, files = fixtureFiles()): Promise<Uint8Array> {
  const sink = new MemorySink();
  await pangyaEngine.pack!(asPackFiles(files), sink, options);
  return sink.toBytes();
}

export const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
