import { describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, samplesDir } from '../../../helpers/run-cli.js';
import { openArchive } from '../../../../electron/formats/index.js';
import { FormatError } from '../../../../shared/errors.js';

const dk = (name: string) => join(samplesDir, 'pak/daikatana', name);

describe('Daikatana samples', () => {
  it('the overlapping back-reference decodes byte by byte to "abababab"', async () => {
    const run = await runCli(['cat', dk('synthetic_overlap_backref.pak'), 'overlap.bmp']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('abababab');
    const list = JSON.parse((await runCli(['list', dk('synthetic_overlap_backref.pak'), '--json'])).stdout);
    expect(list).toEqual([{ path: 'overlap.bmp', size: 8, packedSize: 6, method: 'dk' }]);
  });

  it('every opcode incl. the 0xFE no-op; the unterminated stream and the cut-off literal fail clearly', async () => {
    const file = dk('trenchbroom_dkpak_rle.pak');
    const terminated = await runCli(['cat', file, 'terminated.bin']);
    expect(terminated.code).toBe(0);
    expect(terminated.stdoutBytes).toEqual(Buffer.from('AB\0\0\0CCCCAB', 'latin1'));
    expect((await runCli(['cat', file, 'plain.txt'])).stdout).toBe('hello');

    const unterminated = await runCli(['cat', file, 'unterminated.bin']);
    expect(unterminated.code).toBe(1);
    expect(unterminated.stderr.trim().split('\n')).toEqual([
      `modpak: ${file}: Daikatana stream: no 0xFF end marker after the declared 1 bytes (opcode 0x0 at 2)`,
    ]);
    const corrupt = await runCli(['cat', file, 'corrupt.bin']);
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr.trim().split('\n')).toEqual([
      `modpak: ${file}: Daikatana stream: literal of 2 bytes at 0 is cut off: only 1 bytes follow`,
    ]);

    const verify = await runCli(['verify', file, '--json']);
    expect(verify.code).toBe(1);
    const result = JSON.parse(verify.stdout);
    expect(result).toMatchObject({ ok: false, files: 2, bytes: 16 });
    expect(result.errors.map((e: { path: string }) => e.path)).toEqual(['unterminated.bin', 'corrupt.bin']);
  });

  it('dup.txt and DUP.TXT are both listed; a lookup is case-insensitive and the first stored wins', async () => {
    const file = dk('trenchbroom_dkpak_duplicate_name.pak');
    const list = JSON.parse((await runCli(['list', file, '--json'])).stdout);
    expect(list.map((e: { path: string }) => e.path)).toEqual(['dup.txt', 'DUP.TXT']);
    expect((await runCli(['cat', file, 'DUP.TXT'])).stdout).toBe('first');
    expect((await runCli(['cat', file, 'Dup.Txt'])).stdout).toBe('first');
    const archive = await openArchive(file);
    try {
      expect(new TextDecoder().decode(await archive.read(archive.entries[1]!))).toBe('second content');
      expect(archive.warnings).toEqual(['DUP.TXT has the same name as dup.txt (lookups are case-insensitive): the first stored wins']);
    } finally {
      await archive.close();
    }
  });

  it('a directory past the end of the file fails with a clear message', async () => {
    const file = dk('trenchbroom_dkpak_truncated.pak');
    for (const args of [
      ['info', file],
      ['list', file],
      ['extract', file, '--target', join(tmpdir(), 'never-made')],
    ]) {
      const run = await runCli(args);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([`modpak: ${file}: Daikatana PAK: directory overflows its bounds: 12 + 72 > 12`]);
    }
    await expect(openArchive(file)).rejects.toBeInstanceOf(FormatError);
  });

  it("dkpak.exe's archive: our packer, fed the same inputs, writes streams that decode and are no larger", async () => {
    const original = JSON.parse((await runCli(['list', dk('dkpak_exe_user.pak'), '--json'])).stdout) as {
      path: string;
      size: number;
      packedSize: number;
      method: string;
    }[];
    expect(original.map((e) => [e.path, e.method])).toEqual([
      ['maps/random.bsp', 'stored'],
      ['notes.txt', 'stored'],
      ['textures/striped.tga', 'dk'],
      ['textures/zeros.bmp', 'dk'],
    ]);
    const work = await mkdtemp(join(tmpdir(), 'modpak-dk-'));
    try {
      const src = join(work, 'src');
      await mkdir(join(src, 'maps'), { recursive: true });
      await mkdir(join(src, 'textures'), { recursive: true });
      await copyFile(dk('dkpak_exe_user_inputs/random.bsp'), join(src, 'maps/random.bsp'));
      await copyFile(dk('dkpak_exe_user_inputs/striped.tga'), join(src, 'textures/striped.tga'));
      await copyFile(dk('dkpak_exe_user_inputs/zeros.bmp'), join(src, 'textures/zeros.bmp'));
      await writeFile(join(src, 'notes.txt'), (await runCli(['cat', dk('dkpak_exe_user.pak'), 'notes.txt'])).stdoutBytes);
      const target = join(work, 'mine.pak');
      expect((await runCli(['pack', src, '--target', target, '--format', 'daikatana'])).code).toBe(0);
      const mine = JSON.parse((await runCli(['list', target, '--json'])).stdout) as typeof original;
      expect(mine.map((e) => [e.path, e.size, e.method])).toEqual(original.map((e) => [e.path, e.size, e.method]));
      for (const [i, e] of mine.entries()) expect(e.packedSize, e.path).toBeLessThanOrEqual(original[i]!.packedSize);
      for (const e of original) {
        const ours = (await runCli(['cat', target, e.path])).stdoutBytes;
        const theirs = (await runCli(['cat', dk('dkpak_exe_user.pak'), e.path])).stdoutBytes;
        expect(ours.equals(theirs), e.path).toBe(true);
      }
      // Stored entries carry compressedLength = length, as dkpak.exe writes them.
      const bytes = new Uint8Array(await readFile(target));
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      const dirOffset = view.getInt32(4, true);
      for (let i = 0; i < 4; i++) {
        const at = dirOffset + i * 72 + 56;
        const [length, compressedLength, flag] = [view.getInt32(at + 4, true), view.getInt32(at + 8, true), view.getInt32(at + 12, true)];
        if (flag === 0) expect(compressedLength).toBe(length);
        else expect(compressedLength).toBeLessThan(length);
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
