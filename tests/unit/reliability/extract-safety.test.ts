import { describe, expect, it } from 'vitest';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { extractArchive } from '../../../electron/services/archive-extract.js';
import { staticFile } from '../../../electron/services/host/static.js';
import { runCli } from '../../helpers/run-cli.js';
import { put, quakePak, withScratch } from './build.js';
import { packFile, packToBytes } from '../formats/hpi/fixtures.js';

describe('extraction and symbolic links (item 7)', () => {
  it('refuses to write through a link already in the target, in this thread and on workers', async () => {
    for (const workers of [0, 1]) {
      await withScratch(async (dir) => {
        const outside = join(dir, 'outside');
        const target = join(dir, 'target');
        await mkdir(outside);
        await mkdir(target);
        await symlink(outside, join(target, 'maps'));
        await writeFile(join(outside, 'victim.txt'), 'original');
        await symlink(join(outside, 'victim.txt'), join(target, 'readme.txt'));
        const pak = await put(
          join(dir, 'a.pak'),
          quakePak([
            { name: 'maps/e1m1.bsp', data: 'map' },
            { name: 'readme.txt', data: 'overwritten' },
            { name: 'ok/x.txt', data: 'fine' },
          ]),
        );
        const warnings: string[] = [];
        const result = await extractArchive(pak, target, { workers, onWarning: (m) => warnings.push(m) });
        expect(result.refused.sort()).toEqual(['maps/e1m1.bsp', 'readme.txt']);
        expect(result.files).toBe(1);
        expect(await readdir(outside)).toEqual(['victim.txt']);
        expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('original');
        expect(await readFile(join(target, 'ok/x.txt'), 'utf8')).toBe('fine');
        expect(warnings.join('\n')).toMatch(/symbolic link/);
      });
    }
  });

  it('mount flatten into a new folder under a link to the install is refused (nearest existing parent resolved)', async () => {
    await withScratch(async (dir) => {
      const root = join(dir, 'q');
      await mkdir(join(root, 'id1'), { recursive: true });
      await put(join(root, 'id1', 'pak0.pak'), quakePak([{ name: 'maps/a.bsp', data: 'A' }]));
      await symlink(join(root, 'id1'), join(dir, 'l'));
      const run = await runCli(['mount', 'flatten', join(root, 'id1'), join(dir, 'l', 'new'), '--game', 'quake']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/inside the install/);
      expect((await readdir(join(root, 'id1'))).sort()).toEqual(['pak0.pak']);
    });
  });

  it('the static server serves only real paths inside its folder', async () => {
    await withScratch(async (dir) => {
      const served = join(dir, 'renderer');
      await mkdir(served);
      await put(join(served, 'index.html'), '<html>');
      await put(join(dir, 'secret.txt'), 'secret');
      await mkdir(join(dir, 'private'));
      await put(join(dir, 'private', 'key'), 'k');
      await symlink(join(dir, 'secret.txt'), join(served, 'leak.txt'));
      await symlink(join(dir, 'private'), join(served, 'dir'));
      expect((await staticFile(served, '/index.html'))?.bytes.toString()).toBe('<html>');
      expect(await staticFile(served, '/leak.txt')).toBeNull();
      expect(await staticFile(served, '/dir/key')).toBeNull();
    });
  });
});

describe('a file and a folder of one name, a broken entry (items 9 and 15)', () => {
  it('refuses the name and extracts the rest, naming it', async () => {
    await withScratch(async (dir) => {
      const pak = await put(
        join(dir, 'a.pak'),
        quakePak([
          { name: 'units', data: 'a file' },
          { name: 'units/armcom.fbi', data: 'x' },
          { name: 'z.txt', data: 'z' },
        ]),
      );
      const run = await runCli(['extract', pak, '-t', join(dir, 'out')]);
      expect(run.code).toBe(0);
      // Which of the two is refused depends on which is written first; the other and z.txt are written.
      expect(run.stderr).toMatch(/refused to extract "units(\/armcom\.fbi)?": a file and a folder share this name/);
      expect(run.stderr).toMatch(/extracted 2 files .*; 1 refused/);
      expect(await readFile(join(dir, 'out', 'z.txt'), 'utf8')).toBe('z');
    });
  });
});

/** An HPI v1 (no cipher, zlib) whose second file's chunk payload is destroyed (bytes after the zlib header). */
async function hpiWithBrokenEntry(): Promise<Uint8Array> {
  const bytes = await packToBytes(
    [packFile('a.txt', 'first file '.repeat(20)), packFile('b.wav', 'broken one '.repeat(20)), packFile('c.txt', 'third file '.repeat(20))],
    { method: 'zlib', key: 0 },
  );
  const sqsh = (from: number) => Buffer.from(bytes).indexOf('SQSH', from);
  const second = sqsh(sqsh(0) + 1);
  bytes.fill(0xff, second + 19 + 2, second + 19 + 12);
  return bytes;
}

describe('a partly broken archive (item 15)', () => {
  it('stops at the broken entry with one line saying what was written; --keep-going extracts every good entry', async () => {
    await withScratch(async (dir) => {
      const hpi = await put(join(dir, 'mod.hpi'), await hpiWithBrokenEntry());
      const stopped = await runCli(['extract', hpi, '-t', join(dir, 'a'), '--threads', '1']);
      expect(stopped.code).toBe(1);
      // Warnings (the broken chunk's checksum) come first; the error is the one closing line.
      const last = stopped.stderr.trim().split('\n').pop()!;
      const written = (await readdir(join(dir, 'a'))).sort();
      expect(written).not.toContain('b.wav');
      expect(last).toMatch(
        new RegExp(
          `^modpak: .*mod\\.hpi: b\\.wav: zlib chunk at \\d+ does not inflate: .*\\(stopped after ${written.length} files? written; --keep-going extracts every good entry\\)$`,
        ),
      );
      const kept = await runCli(['extract', hpi, '-t', join(dir, 'b'), '--keep-going']);
      expect(kept.code).toBe(1);
      expect(kept.stderr).toMatch(/extracted 2 files \(440 bytes\) to .*; 1 failed/);
      expect(kept.stderr).toMatch(/modpak: .*mod\.hpi: 1 file did not decode: b\.wav/);
      expect((await readdir(join(dir, 'b'))).sort()).toEqual(['a.txt', 'c.txt']);
    });
  });
});
