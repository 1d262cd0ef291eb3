import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * bin/code-cache.cjs: bin/modpak compiles its bundle with the V8 code cache kept beside it. A cache is
 * used only for the very bundle it was made from, a bad one costs nothing but time, and one is written
 * only where none could be used.
 */
const loader = fileURLToPath(new URL('../../../bin/code-cache.cjs', import.meta.url));

interface Load {
  cache: string;
  value: number;
  f3: number;
  twice: number;
}

/**
 * Loads the bundle in a node of its own, as bin/modpak does (V8 would find a script this process compiled
 * already in its own memory, and never look at the cache), then keeps the cache; returns what it saw.
 */
function load(file: string, cacheDir: string, nodeFlags: string[] = []): Load {
  const script = `
    const loaded = require(${JSON.stringify(loader)}).loadWithCodeCache(process.argv[1], process.argv[2]);
    const { value, f3, twice } = loaded.exports;
    loaded.keep();
    process.stdout.write(JSON.stringify({ cache: loaded.cache, value: value(), f3: f3(1), twice }));`;
  return JSON.parse(execFileSync(process.execPath, [...nodeFlags, '-e', script, file, cacheDir], { encoding: 'utf8' })) as Load;
}

/** A bundle big enough that V8 would rather use a cache than compile it. */
const bundle = (value: number) =>
  [
    `exports.value = () => ${value};`,
    ...Array.from({ length: 300 }, (_, i) => `exports.f${i} = (x) => x * ${i} + ${value};`),
    `exports.twice = require('node:path').basename(__filename).length * 2;`,
  ].join('\n');

async function scratch(run: (dir: string) => Promise<void>) {
  const dir = await mkdtemp(join(tmpdir(), 'modpak-code-cache-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the code cache of the CLI bundle', () => {
  it('is missing at first, written once the bundle has run, then used, and the module runs the same each time', () =>
    scratch(async (dir) => {
      const file = join(dir, 'bundle.cjs');
      const caches = join(dir, 'cache');
      await writeFile(file, bundle(7));
      expect(load(file, caches)).toEqual({ cache: 'missing', value: 7, f3: 10, twice: 'bundle.cjs'.length * 2 });
      const kept = await readdir(caches);
      expect(kept).toHaveLength(1);
      expect(kept[0]).toContain(process.versions.v8);
      const before = await readFile(join(caches, kept[0]!));
      expect(load(file, caches)).toEqual({ cache: 'used', value: 7, f3: 10, twice: 'bundle.cjs'.length * 2 });
      // A used cache is not written again.
      expect(await readFile(join(caches, kept[0]!))).toEqual(before);
    }));

  it('never runs the bytecode of another bundle, even one of the same length', () =>
    scratch(async (dir) => {
      const file = join(dir, 'bundle.cjs');
      const caches = join(dir, 'cache');
      await writeFile(file, bundle(1));
      await utimes(file, new Date(1_000_000), new Date(1_000_000));
      expect(load(file, caches).cache).toBe('missing');
      expect(load(file, caches).cache).toBe('used');
      // Rebuilt: same length, other code (V8 itself checks only the length), a later time.
      await writeFile(file, bundle(2));
      expect(load(file, caches)).toMatchObject({ cache: 'missing', value: 2, f3: 5 });
    }));

  it('keeps one cache per set of node flags (V8 refuses a cache made under others)', () =>
    scratch(async (dir) => {
      const file = join(dir, 'bundle.cjs');
      const caches = join(dir, 'cache');
      await writeFile(file, bundle(5));
      expect(load(file, caches).cache).toBe('missing');
      expect(load(file, caches, ['--stack-size=900']).cache).toBe('missing');
      expect(await readdir(caches)).toHaveLength(2);
      // Started either way in turns, each finds its own: neither rewrites the other's.
      expect(load(file, caches).cache).toBe('used');
      expect(load(file, caches, ['--stack-size=900']).cache).toBe('used');
      expect(load(file, caches).cache).toBe('used');
      // A preloaded module leaves V8's flags alone: it shares the cache of the flags beside it.
      await writeFile(join(dir, 'hook.cjs'), 'globalThis.hooked = true;');
      expect(load(file, caches, ['--require', join(dir, 'hook.cjs'), '--stack-size=900']).cache).toBe('used');
      expect(load(file, caches, [`--require=${join(dir, 'hook.cjs')}`]).cache).toBe('used');
      expect(await readdir(caches)).toHaveLength(2);
    }));

  it('refuses a damaged cache, runs the bundle all the same, and replaces the cache', () =>
    scratch(async (dir) => {
      const file = join(dir, 'bundle.cjs');
      const caches = join(dir, 'cache');
      await writeFile(file, bundle(3));
      load(file, caches);
      const [name] = await readdir(caches);
      const bytes = await readFile(join(caches, name!));
      bytes.fill(0x55, 64, 4096); // overwritten in the middle, as a bad block leaves it
      await writeFile(join(caches, name!), bytes);
      expect(load(file, caches)).toMatchObject({ cache: 'refused', value: 3 });
      expect(load(file, caches)).toMatchObject({ cache: 'used', value: 3 });
      await writeFile(join(caches, name!), bytes.subarray(0, 100)); // cut short, as a full disk leaves it
      expect(load(file, caches)).toMatchObject({ cache: 'refused', value: 3 });
      expect(await readdir(caches)).toEqual([name]); // no temporary file left behind
    }));

  it('keeps nothing, and fails nothing, where the cache folder cannot be made', () =>
    scratch(async (dir) => {
      const file = join(dir, 'bundle.cjs');
      await writeFile(file, bundle(4));
      await writeFile(join(dir, 'cache'), 'a file where the folder would be');
      expect(load(file, join(dir, 'cache'))).toMatchObject({ cache: 'missing', value: 4 });
      expect(await readdir(dir)).toEqual(['bundle.cjs', 'cache']);
    }));
});
