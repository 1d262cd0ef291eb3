import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floorInput, floorProgram, type FloorPlan } from '../../../bench/floor/input.js';
import { filesUnder } from '../../helpers/files.js';
import { prng } from '../../helpers/prng.js';

// The bench sets modpak's extraction beside this program: a floor that wrote other bytes, or fewer files,
// would be a figure about nothing.
describe("the bench's floor for an extraction", () => {
  let dir: string;
  const files = new Map<string, Uint8Array>();
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'modpak-floor-'));
    const rand = prng(7);
    const sizes = { 'units/a.fbi': 1200, 'units/empty.tdf': 0, 'textures/big.gaf': 200_000, 'sounds/deep/b.wav': 65_536, 'top.txt': 9 };
    for (const [path, size] of Object.entries({ ...sizes, 'sounds/noise.wav': 100_000 })) {
      // Half random, half runs: chunks that compress and chunks that do not; noise, which LZ77 cannot shrink.
      const noise = path.includes('noise');
      const bytes = Uint8Array.from({ length: size }, (_, i) => (noise || i % 2 ? Math.floor(rand() * 256) : i & 0xf0));
      files.set(path, bytes);
      await mkdir(join(dir, 'tree', path, '..'), { recursive: true });
      await writeFile(join(dir, 'tree', path), bytes);
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([
    ['zlib', 1],
    ['zlib', 2],
    ['lz77', 1],
    ['lz77', 2],
  ] as const)('writes every file of the tree from %s chunks, byte for byte, on %i thread(s)', async (codec, threads) => {
    const input = await floorInput(join(dir, 'tree'), dir, codec);
    const plan = JSON.parse(await readFile(`${input}.json`, 'utf8')) as FloorPlan;
    // 200,000 bytes are four chunks; an empty file is one empty chunk.
    expect(Object.fromEntries(plan.map(([path, sizes]) => [path, sizes.length / 2]))).toMatchObject({
      'textures/big.gaf': 4,
      'units/empty.tdf': 1,
      'sounds/deep/b.wav': 1,
    });
    // As the packers do, LZ77 keeps the noise as it is; zlib compresses every file.
    const stored = plan.filter(([, , kept]) => kept === 1).map(([path]) => path);
    expect(stored).toEqual(codec === 'lz77' ? ['sounds/noise.wav'] : []);
    const out = join(dir, `out-${codec}-${threads}`);
    execFileSync(process.execPath, [await floorProgram(dir), input, out, String(threads), codec]);
    expect(await filesUnder(out)).toEqual([...files.keys()].sort());
    for (const [path, bytes] of files) expect(new Uint8Array(await readFile(join(out, path)))).toEqual(bytes);
  });
});
