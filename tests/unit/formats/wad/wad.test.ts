import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, samplesDir } from '../../../helpers/run-cli.js';
import { filesUnder } from '../../../helpers/files.js';
import { lumpBytes, readDirectory } from './wad-directory.js';

/** WAD2 and WAD3 through the CLI: listing, extraction, verification, packing and bad directories. */

const samples = [
  { file: 'quake-assets/quake/cr8_czg.wad', version: 'wad2', magic: 'WAD2', miptexType: 0x44 },
  { file: 'quake-assets/halflife/hl.wad', version: 'wad3', magic: 'WAD3', miptexType: 0x43 },
] as const;

async function withTemp<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'modpak-wad-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe.each(samples)('$file', ({ file, version, magic, miptexType }) => {
  const path = join(samplesDir, file);

  it('lists the lumps in stored order with their names, sizes and types, as the directory states', async () => {
    const bytes = new Uint8Array(await readFile(path));
    const dir = readDirectory(bytes);
    expect(dir.magic).toBe(magic);
    expect(dir.lumps.length).toBeGreaterThan(1);
    const run = await runCli(['list', path, '--json']);
    expect(run.code).toBe(0);
    const listed = JSON.parse(run.stdout) as { path: string; size: number; type: string }[];
    expect(listed.map((e) => [e.path, e.size])).toEqual(dir.lumps.map((l) => [l.name, l.size]));
    // Every lump of these samples is a miptex, by its type byte.
    expect(dir.lumps.every((l) => l.type === miptexType)).toBe(true);
    expect(listed.every((e) => e.type === 'miptex')).toBe(true);
    const info = JSON.parse((await runCli(['info', path, '--json'])).stdout);
    expect(info).toMatchObject({ format: 'wad', version: magic, files: dir.lumps.length, lumpTypes: { miptex: dir.lumps.length } });
    const verify = await runCli(['verify', path]);
    expect(verify.code).toBe(0);
  });

  it('extracts and packs back lump for lump (names, bytes, types); a WAD written here packs back byte for byte', async () => {
    await withTemp(async (tmp) => {
      const original = new Uint8Array(await readFile(path));
      const dir = readDirectory(original);
      expect((await runCli(['extract', path, '--target', join(tmp, 'a')])).code).toBe(0);
      const extracted = await filesUnder(join(tmp, 'a'));
      expect(extracted).toEqual(dir.lumps.map((l) => l.name).sort());
      for (const lump of dir.lumps)
        expect(new Uint8Array(await readFile(join(tmp, 'a', lump.name))), lump.name).toEqual(lumpBytes(original, lump));

      const packed = join(tmp, 'a.wad');
      const pack = await runCli(['pack', join(tmp, 'a'), '--target', packed, '--format', version]);
      expect(pack.code, pack.stderr).toBe(0);
      const written = new Uint8Array(await readFile(packed));
      const rewritten = readDirectory(written);
      expect(rewritten.magic).toBe(magic);
      const byName = new Map(rewritten.lumps.map((l) => [l.name, l]));
      for (const lump of dir.lumps) {
        const copy = byName.get(lump.name)!;
        expect(copy.type, lump.name).toBe(lump.type);
        expect(lumpBytes(written, copy), lump.name).toEqual(lumpBytes(original, lump));
      }

      expect((await runCli(['extract', packed, '--target', join(tmp, 'b')])).code).toBe(0);
      expect((await runCli(['pack', join(tmp, 'b'), '--target', join(tmp, 'b.wad'), '--format', version])).code).toBe(0);
      expect(new Uint8Array(await readFile(join(tmp, 'b.wad')))).toEqual(written);
      // Kept in the order given (the folder's sorted order), each lump on a 4-byte boundary.
      expect(rewritten.lumps.map((l) => l.name)).toEqual(dir.lumps.map((l) => l.name).sort());
      expect(rewritten.lumps.every((l) => l.offset % 4 === 0)).toBe(true);

      // In the sample's own order, the rewrite is the sample byte for byte: these were written with the same layout.
      const ordered = join(tmp, 'ordered.wad');
      expect((await runCli(['pack', join(tmp, 'a'), '--target', ordered, '--format', version, '--order-from', path])).code).toBe(0);
      expect(new Uint8Array(await readFile(ordered))).toEqual(original);
    });
  });
});

describe('broken WADs', () => {
  const cases: [string, (bytes: Uint8Array, view: DataView, dir: number) => void, RegExp][] = [
    ['a lump past the end', (b, v, dir) => v.setInt32(dir, b.length - 10, true), /lies outside the file/],
    ['a negative size', (_b, v, dir) => v.setInt32(dir + 4, -5, true), /negative/],
    ['a directory past the end', (b, v) => v.setInt32(8, b.length, true), /directory .* overflows/],
    ['a huge lump count', (_b, v) => v.setInt32(4, 0x7fffffff, true), /overflows/],
    ['a negative lump count', (_b, v) => v.setInt32(4, -1, true), /negative/],
    ['an empty name', (b, _v, dir) => b.fill(0, dir + 16, dir + 32), /name is empty/],
  ];

  it.each(cases)('%s: one line naming the file, exit 1', async (_label, damage, message) => {
    await withTemp(async (tmp) => {
      const bytes = new Uint8Array(await readFile(join(samplesDir, samples[1].file)));
      const view = new DataView(bytes.buffer);
      damage(bytes, view, view.getInt32(8, true));
      const file = join(tmp, 'broken.wad');
      await writeFile(file, bytes);
      for (const args of [
        ['list', file],
        ['extract', file, '--target', join(tmp, 'out')],
        ['info', file],
      ]) {
        const run = await runCli(args);
        expect(run.code, args[0]).toBe(1);
        const lines = run.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(new RegExp(`^modpak: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
        expect(lines[0]).toMatch(message);
      }
    });
  });

  it('refuses to pack a lump name longer than 15 characters, or a folder inside the folder', async () => {
    await withTemp(async (tmp) => {
      await writeFile(join(tmp, 'a_name_of_16_chr'), new Uint8Array(8));
      let run = await runCli(['pack', tmp, '--target', join(tmp, '..', 'x-long.wad'), '--format', 'wad2']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/at most 15/);
      await rm(join(tmp, 'a_name_of_16_chr'));
      await import('node:fs/promises').then((fs) => fs.mkdir(join(tmp, 'sub')));
      await writeFile(join(tmp, 'sub', 'lump'), new Uint8Array(8));
      run = await runCli(['pack', tmp, '--target', join(tmp, '..', 'x-sub.wad'), '--format', 'wad2']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/no folders/);
    });
  });
});
