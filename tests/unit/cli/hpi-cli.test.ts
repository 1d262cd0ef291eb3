import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, samplesDir } from '../../helpers/run-cli.js';
import { filesUnder } from '../../helpers/files.js';
import { modFiles, packFile, packToBytes } from '../formats/hpi/fixtures.js';

let work: string;
let src: string;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'hpi-cli-'));
  src = join(work, 'src');
  for (const f of modFiles()) {
    await mkdir(join(src, f.path, '..'), { recursive: true });
    await writeFile(join(src, f.path), await f.read());
  }
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('modpak pack/list/extract/cat/verify with HPI', () => {
  const variants: [string, string[], Record<string, unknown>][] = [
    [
      'default (LZ77, key 0x7D, trailer)',
      [],
      { version: 1, key: 0x7d, trailer: 'Copyright 1997 Cavedog Entertainment', taMount: { ok: true } },
    ],
    ['--method zlib', ['--method', 'zlib'], { version: 1, key: 0x7d }],
    ['--method none --key 0', ['--method', 'none', '--key', '0'], { version: 1, key: 0 }],
    ['--key 0x33', ['--key', '0x33'], { version: 1, key: 0x33 }],
    [
      '--no-trailer',
      ['--no-trailer'],
      { version: 1, trailer: null, taMount: { ok: false, reason: expect.stringMatching(/no Cavedog trailer/) } },
    ],
    ['--format hpi2', ['--format', 'hpi2'], { version: 2, last78: false, taMount: { ok: false, reason: expect.stringMatching(/v2/) } }],
    ['--format hpi2 --method lz77', ['--format', 'hpi2', '--method', 'lz77'], { version: 2 }],
  ];
  for (const [label, args, info] of variants) {
    it(`round-trips ${label}`, async () => {
      const target = join(work, `${label.replace(/[^a-z0-9]+/gi, '_')}.ufo`);
      const packed = await runCli(['pack', src, '--target', target, ...args]);
      expect(packed.stderr).toMatch(/^packed 7 files/);
      expect(packed.code).toBe(0);
      const i = await runCli(['info', target, '--json']);
      expect(JSON.parse(i.stdout)).toMatchObject({ format: 'hpi', files: 7, bytes: modFiles().reduce((n, f) => n + f.size, 0), ...info });
      const list = JSON.parse((await runCli(['list', target, '--json'])).stdout) as {
        path: string;
        size: number;
        packedSize: number;
        method: string;
        dir?: true;
      }[];
      const files = list.filter((e) => !e.dir);
      expect(files.map((e) => e.path).sort()).toEqual(
        modFiles()
          .map((f) => f.path)
          .sort(),
      );
      for (const e of list)
        expect(Object.keys(e).sort()).toEqual(
          e.dir ? ['dir', 'method', 'packedSize', 'path', 'size'] : ['method', 'packedSize', 'path', 'size'],
        );
      expect(list.find((e) => e.path === 'units')).toMatchObject({ dir: true, method: 'dir', size: 0 });
      const out = join(work, `out-${label.replace(/[^a-z0-9]+/gi, '_')}`);
      expect((await runCli(['extract', target, '-t', out])).code).toBe(0);
      for (const f of modFiles()) expect(sha(await readFile(join(out, f.path))), f.path).toBe(sha(await f.read()));
      const cat = await runCli(['cat', target, 'UNITS/armfark.fbi']);
      expect(sha(cat.stdoutBytes)).toBe(sha(await modFiles()[0]!.read()));
      const verify = await runCli(['verify', target, '--json']);
      expect(verify.code).toBe(0);
      expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true, files: 7, errors: [], warnings: [] });
    });
  }

  it('refuses --key 0xFF with one clear line and leaves no file behind', async () => {
    const target = join(work, 'ff.ufo');
    const r = await runCli(['pack', src, '--target', target, '--key', '255']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      `modpak: ${target}: HeaderKey 0xFF is refused: TA reads such archives as unenciphered while other tools decipher them; pick another key (0 = no cipher)`,
    ]);
    await expect(stat(target)).rejects.toThrow();
    expect((await readdir(work)).filter((n) => n.includes('ff.ufo'))).toEqual([]);
  });

  it('info --json: taMount explains bytes after the trailer', async () => {
    const target = join(work, 'tail.ufo');
    await runCli(['pack', src, '--target', target]);
    await writeFile(target, Buffer.concat([await readFile(target), Buffer.from('\r\n')]));
    expect(JSON.parse((await runCli(['info', target, '--json'])).stdout).taMount).toEqual({
      ok: false,
      reason: expect.stringMatching(/^2 bytes follow the Cavedog trailer/),
    });
  });

  it('extracts every sample archive to the expected SHA-256s', async () => {
    const expected = JSON.parse(await readFile(join(samplesDir, 'expected.json'), 'utf8')) as Record<string, Record<string, string>>;
    for (const name of Object.keys(expected).filter((k) => k.startsWith('hpi/'))) {
      const out = join(work, 'samples', name);
      const r = await runCli(['extract', join(samplesDir, name), '-t', out]);
      expect(r.code, r.stderr).toBe(0);
      const got: Record<string, string> = {};
      for (const rel of await filesUnder(out)) got[rel] = sha(await readFile(join(out, rel)));
      expect(got).toEqual(expected[name]);
    }
  });

  it("--order-from keeps an existing archive's stored order, new paths after", async () => {
    const old = join(work, 'old.hpi');
    const order = ['units/ARMFLAK.FBI', 'maps/big.tnt', 'units/ARMFARK.FBI', 'anims/armfark_gadget.gaf'];
    await writeFile(old, await packToBytes(order.map((p) => packFile(p, 'old'))));
    const target = join(work, 'ordered.hpi');
    expect((await runCli(['pack', src, '--target', target, '--order-from', old])).code).toBe(0);
    const files = (JSON.parse((await runCli(['list', target, '--json'])).stdout) as { path: string; dir?: true }[])
      .filter((e) => !e.dir)
      .map((e) => e.path);
    // Stored order is the tree's depth-first order: folders appear where their first file did.
    expect(files).toEqual([
      'units/ARMFLAK.FBI',
      'units/ARMFARK.FBI',
      'maps/big.tnt',
      'anims/armfark_gadget.gaf',
      'empty.txt',
      'features/corpses/armfark_dead.tdf',
      'sounds/noise.wav',
    ]);
  });

  it('merges folders differing only in case; files differing only in case are both stored, with a warning', async () => {
    const dir = join(work, 'cases');
    await mkdir(join(dir, 'Units'), { recursive: true });
    await mkdir(join(dir, 'units'), { recursive: true });
    await writeFile(join(dir, 'Units', 'A.FBI'), 'a');
    await writeFile(join(dir, 'units', 'B.FBI'), 'b');
    await writeFile(join(dir, 'units', 'b.fbi'), 'c');
    const target = join(work, 'cases.ufo');
    const r = await runCli(['pack', dir, '--target', target]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/modpak: warning: Units\/b\.fbi and Units\/B\.FBI differ only in case/);
    const list = (JSON.parse((await runCli(['list', target, '--json'])).stdout) as { path: string }[]).map((e) => e.path);
    expect(list).toEqual(['Units', 'Units/A.FBI', 'Units/B.FBI', 'Units/b.fbi']);
  });

  it('refuses to extract names that climb out of the target, and extracts the rest', async () => {
    const target = join(work, 'evil.hpi');
    await writeFile(
      target,
      await packToBytes([
        packFile('good/ok.txt', 'fine'),
        packFile('../evil.txt', 'x'),
        packFile('good/..\\..\\evil2.txt', 'y'),
        packFile('C:evil3.txt', 'z'),
        packFile('b.txt', 'fine too'),
      ]),
    );
    const listed = (JSON.parse((await runCli(['list', target, '--json'])).stdout) as { path: string }[]).map((e) => e.path);
    expect(listed).toContain('../evil.txt');
    const out = join(work, 'evil-out', 'inside');
    const r = await runCli(['extract', target, '-t', out]);
    expect(r.code).toBe(0);
    expect(r.stderr.match(/refused to extract/g)).toHaveLength(3);
    expect(await filesUnder(join(work, 'evil-out'))).toEqual(['inside/b.txt', 'inside/good/ok.txt']);
  });
});
