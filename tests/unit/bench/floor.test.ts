import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floorInput, floorProgram } from '../../../bench/floor/input.js';
import { filesUnder } from '../../helpers/files.js';
import { prng } from '../../helpers/prng.js';

// The bench sets modpak's extraction beside this program: a floor that wrote other bytes, or fewer files,
// would be a figure about nothing.
describe("the bench's floor for a zlib extraction", () => {
  let dir: string;
  const files = new Map<string, Uint8Array>();
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'modpak-floor-'));
    const rand = prng(7);
    const sizes = { 'units/a.fbi': 1200, 'units/empty.tdf': 0, 'textures/big.gaf': 200_000, 'sounds/deep/b.wav': 65_536, 'top.txt': 9 };
    for (const [path, size] of Object.entries(sizes)) {
      // Half random, half runs: chunks that deflate and chunks that do not.
      const bytes = Uint8Array.from({ length: size }, (_, i) => (i % 2 ? Math.floor(rand() * 256) : i & 0xf0));
      files.set(path, bytes);
      await mkdir(join(dir, 'tree', path, '..'), { recursive: true });
      await writeFile(join(dir, 'tree', path), bytes);
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([1, 2])('writes every file of the tree, byte for byte, on %i thread(s)', async (threads) => {
    const input = await floorInput(join(dir, 'tree'), dir);
    const plan = JSON.parse(await readFile(`${input}.json`, 'utf8')) as [string, number[]][];
    // 200,000 bytes are four chunks; an empty file is one empty chunk.
    expect(Object.fromEntries(plan.map(([path, sizes]) => [path, sizes.length / 2]))).toMatchObject({
      'textures/big.gaf': 4,
      'units/empty.tdf': 1,
      'sounds/deep/b.wav': 1,
    });
    const out = join(dir, `out-${threads}`);
    execFileSync(process.execPath, [await floorProgram(dir), input, out, String(threads)]);
    expect(await filesUnder(out)).toEqual([...files.keys()].sort());
    for (const [path, bytes] of files) expect(new Uint8Array(await readFile(join(out, path)))).toEqual(bytes);
  });
});
