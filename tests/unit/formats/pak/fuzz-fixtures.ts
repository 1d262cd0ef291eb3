import { MemorySink } from '../../../../electron/io/byte-sink.js';
import { engineFor } from '../../../../electron/formats/index.js';
import type { PackFile } from '../../../../electron/formats/archive.js';
import { prng } from '../../../helpers/prng.js';

/** A small valid archive of `format` with stored and (for Daikatana) compressed entries, built by our writer. */
export async function fuzzSeedArchive(format: 'pak' | 'sin' | 'daikatana', seed = 3): Promise<Uint8Array> {
  const rand = prng(seed);
  const runs = (n: number) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n;) {
      const len = 1 + Math.floor(rand() * 30);
      out.fill(rand() < 0.3 ? 0 : (rand() * 256) | 0, i, i + len);
      i += len;
    }
    return out;
  };
  const text = new TextEncoder().encode('worldspawn { "message" "The Slipgate Complex" }\n'.repeat(8));
  const entries: [string, Uint8Array][] = [
    ['maps/start.bsp', runs(700)],
    ['textures/wall.pcx', runs(400)],
    ['scripts/progs.txt', text],
    ['gfx/pal.tga', Uint8Array.from(text.subarray(0, 120)).reverse()],
    ['empty.wal', new Uint8Array(0)],
  ];
  const files: PackFile[] = entries.map(([path, bytes]) => ({ path, size: bytes.length, read: async () => bytes }));
  const sink = new MemorySink();
  await engineFor(format).pack!(files, sink, {});
  return sink.toBytes();
}
