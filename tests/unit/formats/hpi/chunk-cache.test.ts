import { describe, expect, it } from 'vitest';
import type { PackOptions } from '../../../../electron/formats/archive.js';
import { RebuildChunkCache } from '../../../../electron/mods/chunk-cache.js';
import { packFile, packToBytes, sampleBytes } from './fixtures.js';

const files = (changed: string) => [
  packFile('units/ARMCOM.FBI', `[UNITINFO]{UnitName=ARMCOM;MaxDamage=${changed};}`),
  packFile('anims/big.gaf', sampleBytes(3, 150_000, 'runs')),
  packFile('objects3d/a.3do', sampleBytes(4, 20_000, 'text')),
  packFile('sounds/noise.wav', sampleBytes(5, 9_000, 'noise')),
];

describe('repacking with a chunk cache (watch and repack)', () => {
  for (const options of [{ version: 1, key: 0x7d }, { version: 1, key: 0, method: 'zlib' }, { version: 2 }] as PackOptions[]) {
    it(`gives the same bytes as a fresh pack, reusing unchanged files (${JSON.stringify(options)})`, async () => {
      const cache = new RebuildChunkCache();
      const first = await packToBytes(files('3000'), { ...options, chunkCache: cache.nextBuild() });
      expect(first).toEqual(await packToBytes(files('3000'), options));
      expect(cache.hits).toBe(0);
      // One file changed: the other three come from the cache, and the archive is what a fresh pack writes.
      const second = await packToBytes(files('4500'), { ...options, chunkCache: cache.nextBuild() });
      expect(cache.hits).toBe(3);
      expect(second).toEqual(await packToBytes(files('4500'), options));
      // Writers encipher chunks in place: the cached copies must have survived that untouched.
      const third = await packToBytes(files('4500'), { ...options, chunkCache: cache.nextBuild() });
      expect(cache.hits).toBe(4);
      expect(third).toEqual(second);
    });
  }

  it('holds one build worth of chunks: what the last build did not use is forgotten', async () => {
    const cache = new RebuildChunkCache();
    await packToBytes(files('1'), { chunkCache: cache.nextBuild() });
    await packToBytes([packFile('other.txt', 'x'.repeat(5000))], { chunkCache: cache.nextBuild() });
    await packToBytes(files('1'), { chunkCache: cache.nextBuild() });
    expect(cache.hits).toBe(0);
  });
});
