import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from '../../../helpers/run-cli.js';
import { filesUnder } from '../../../helpers/files.js';
import { prng } from '../../../helpers/prng.js';
import { dkOps } from '../daikatana/dk-ops.js';

/** A folder through `modpak pack --format pak|sin|daikatana` and back through list, extract, cat, verify, info. */

let work: string;
let src: string;
const files = new Map<string, Uint8Array>();

function add(path: string, bytes: Uint8Array): void {
  files.set(path, bytes);
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'modpak-pakrt-'));
  src = join(work, 'src');
  const rand = prng(11);
  const noise = (n: number) => Uint8Array.from({ length: n }, () => (rand() * 256) | 0);
  const runs = (n: number) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n;) {
      const len = 1 + Math.floor(rand() * 50);
      out.fill(rand() < 0.4 ? 0 : (rand() * 256) | 0, i, i + len);
      i += len;
    }
    return out;
  };
  const text = (s: string) => new TextEncoder().encode(s);
  add('autoexec.cfg', text('bind w +forward\n'.repeat(20)));
  add('empty.txt', new Uint8Array(0));
  add('gfx/palette.lmp', noise(768));
  add('maps/e1m1.bsp', runs(40_000));
  add('maps/noise.bsp', noise(3000));
  add('pics/title.PCX', runs(9000));
  add('sound/ambience/wind.wav', runs(5000));
  add('textures/base/wall.wal', runs(4096));
  add('textures/sky.tga', runs(12_000));
  add('textures/ui.bmp', new Uint8Array(2000));
  for (const [path, bytes] of files) {
    await mkdir(dirname(join(src, path)), { recursive: true });
    await writeFile(join(src, path), bytes);
  }
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const totalBytes = () => [...files.values()].reduce((n, b) => n + b.length, 0);

describe.each(['pak', 'sin', 'daikatana'] as const)('round trip through modpak pack --format %s', (format) => {
  let target: string;
  beforeAll(async () => {
    target = join(work, `out-${format}.pak`);
    const run = await runCli(['pack', src, '--target', target, '--format', format]);
    expect(run.stderr).not.toMatch(/^modpak:/m);
    expect(run.code).toBe(0);
  });

  it('lists every file in the folder walk order with its size', async () => {
    const list = JSON.parse((await runCli(['list', target, '--json'])).stdout) as {
      path: string;
      size: number;
      packedSize: number;
      method: string;
    }[];
    expect(list.map((e) => e.path)).toEqual([...files.keys()].sort());
    for (const e of list) expect(e.size, e.path).toBe(files.get(e.path)!.length);
    const compressed = list.filter((e) => e.method === 'dk').map((e) => e.path);
    if (format !== 'daikatana') {
      expect(compressed).toEqual([]);
      for (const e of list) expect(e.packedSize).toBe(e.size);
    } else {
      // Only the engine's compressible types, and only when it shrinks: noise.bsp stays stored.
      expect(compressed).toEqual(['maps/e1m1.bsp', 'pics/title.PCX', 'textures/base/wall.wal', 'textures/sky.tga', 'textures/ui.bmp']);
      for (const e of list.filter((e) => e.method === 'dk')) expect(e.packedSize).toBeLessThan(e.size);
    }
  });

  it('extracts the same bytes, cats one, verifies and reports info', async () => {
    const out = join(work, `x-${format}`);
    expect((await runCli(['extract', target, '--target', out])).code).toBe(0);
    const got = await filesUnder(out);
    expect(got).toEqual([...files.keys()].sort());
    for (const rel of got) expect(new Uint8Array(await readFile(join(out, rel))), rel).toEqual(files.get(rel));
    const cat = await runCli(['cat', target, 'TEXTURES/SKY.TGA']);
    expect(new Uint8Array(cat.stdoutBytes)).toEqual(files.get('textures/sky.tga'));
    const verify = JSON.parse((await runCli(['verify', target, '--json'])).stdout);
    expect(verify).toMatchObject({ ok: true, files: files.size, bytes: totalBytes(), errors: [] });
    const info = JSON.parse((await runCli(['info', target, '--json'])).stdout);
    expect(info).toMatchObject({ format, files: files.size, dirs: 0, bytes: totalBytes() });
    // 10 Quake entries also read as 5 SiN ones (see recognition.test.ts): reported, not chosen.
    expect(info.alsoMatches).toEqual(format === 'pak' ? ['sin'] : undefined);
  });

  it('lays the archive out as the format says: header, data, directory at the end', async () => {
    const bytes = new Uint8Array(await readFile(target));
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const entrySize = { pak: 64, sin: 128, daikatana: 72 }[format];
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe(format === 'sin' ? 'SPAK' : 'PACK');
    expect(view.getInt32(8, true)).toBe(files.size * entrySize);
    expect(view.getInt32(4, true) + files.size * entrySize).toBe(bytes.length);
    if (format === 'daikatana') {
      // Every compressed stream: back-references never longer than their distance, and it ends with 0xFF.
      const dirOffset = view.getInt32(4, true);
      for (let i = 0; i < files.size; i++) {
        const at = dirOffset + i * 72 + 56;
        if (view.getInt32(at + 12, true) !== 1) continue;
        const stream = bytes.subarray(view.getInt32(at, true), view.getInt32(at, true) + view.getInt32(at + 8, true));
        const ops = [...dkOps(stream)];
        expect(ops.at(-1)!.kind).toBe('end');
        for (const op of ops) if (op.kind === 'copy') expect(op.length).toBeLessThanOrEqual(op.distance);
      }
    }
  });
});

describe('writers refuse names longer than their field', () => {
  const cases = [
    { format: 'pak', label: 'Quake PAK', max: 55 },
    { format: 'sin', label: 'SiN PAK', max: 119 },
    { format: 'daikatana', label: 'Daikatana PAK', max: 55 },
  ] as const;

  it.each(cases)('$format: $max bytes fit, one more is refused with a clear error and no file', async ({ format, label, max }) => {
    const dir = join(work, `names-${format}`);
    const fits = `maps/${'n'.repeat(max - 'maps/'.length - 4)}.bsp`;
    expect(fits.length).toBe(max);
    await mkdir(join(dir, 'maps'), { recursive: true });
    await writeFile(join(dir, fits), 'ok');
    const okTarget = join(work, `names-ok-${format}.pak`);
    expect((await runCli(['pack', dir, '--target', okTarget, '--format', format])).code).toBe(0);
    expect((await runCli(['cat', okTarget, fits])).stdout).toBe('ok');

    const tooLong = `maps/${'n'.repeat(max - 'maps/'.length - 3)}.bsp`;
    await writeFile(join(dir, tooLong), 'no');
    const target = join(work, `names-bad-${format}.pak`);
    const run = await runCli(['pack', dir, '--target', target, '--format', format]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      `modpak: ${target}: cannot write ${label}: "${tooLong}" is ${max + 1} bytes long; ${label} names hold at most ${max} (a ${max + 1}-byte field with its NUL)`,
    ]);
    await expect(stat(target)).rejects.toThrow();
    expect((await readdir(work)).filter((n) => n.includes(`names-bad-${format}`))).toEqual([]);
  });

  it('refuses a name outside latin1', async () => {
    const dir = join(work, 'names-unicode');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'карта.bsp'), 'x');
    const run = await runCli(['pack', dir, '--target', join(work, 'unicode.pak'), '--format', 'pak']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot write Quake PAK: "карта.bsp" has a character outside latin1/);
  });
});
