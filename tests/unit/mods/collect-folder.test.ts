import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectFolder, FolderFile } from '../../../electron/mods/pack.js';
import { openBytes, packFile, packToBytes, readAll, sameBytes, sampleBytes } from '../formats/hpi/fixtures.js';

describe('the folder walk', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'modpak-walk-'));
    for (const [path, text] of [
      ['UNITS/armcom.fbi', 'one'],
      ['Units/ARMCOM.FBI', 'two'],
      ['Units/deep/x.tdf', 'three'],
      ['top.txt', 'four'],
      ['target.hpi', 'old archive'],
    ] as const) {
      await mkdir(join(dir, path, '..'), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    await writeFile(join(dir, `.target.hpi.${process.pid}-0a0b0c0d0e0f.tmp`), 'half-written');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('gives each file its merged archive path and its own place on disk, read both ways', async () => {
    const warnings: string[] = [];
    const files = await collectFolder(dir, (m) => warnings.push(m), join(dir, 'target.hpi'));
    // UNITS sorts before Units: its spelling names the merged folder, while each file is read where it is.
    expect(files.map((f) => [f.path, f.source, f.size])).toEqual([
      ['UNITS/armcom.fbi', join(dir, 'UNITS', 'armcom.fbi'), 3],
      ['UNITS/ARMCOM.FBI', join(dir, 'Units', 'ARMCOM.FBI'), 3],
      ['UNITS/deep/x.tdf', join(dir, 'Units', 'deep', 'x.tdf'), 5],
      ['top.txt', join(dir, 'top.txt'), 4],
    ]);
    expect(files.every((f) => f instanceof FolderFile)).toBe(true);
    expect(warnings).toEqual([
      'UNITS/ARMCOM.FBI and UNITS/armcom.fbi differ only in case: both are stored, the game reads the one packed last',
    ]);
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    expect(await Promise.all(files.map(async (f) => text(await f.read())))).toEqual(['one', 'two', 'three', 'four']);
    const scratch = new Uint8Array(16);
    expect(files.map((f) => text(f.readSync(scratch)))).toEqual(['one', 'two', 'three', 'four']);
  });

  it('packs what it walked, byte for byte', async () => {
    const archive = await openBytes(await packToBytes(await collectFolder(dir, undefined, join(dir, 'target.hpi'))));
    const read = await readAll(archive);
    expect([...read.keys()]).toEqual(['UNITS/armcom.fbi', 'UNITS/ARMCOM.FBI', 'UNITS/deep/x.tdf', 'top.txt']);
    expect(new TextDecoder().decode(read.get('UNITS/deep/x.tdf'))).toBe('three');
  });
});

describe('the HPI v1 directory layout', () => {
  it('grows past its first 64 KiB: 2,000 files in 40 folders, names of 40 characters, all read back', async () => {
    const files = Array.from({ length: 2000 }, (_, i) =>
      packFile(`folder-${String(i % 40).padStart(33, '0')}/file-${String(i).padStart(31, '0')}.tdf`, sampleBytes(i, 20 + (i % 50))),
    );
    const bytes = await packToBytes(files, { method: 'none' });
    // More than 64 KiB of directory: the header's DirectorySize, past the 20-byte header.
    expect(new DataView(bytes.buffer).getUint32(8, true)).toBeGreaterThan(1 << 16);
    const read = await readAll(await openBytes(bytes));
    expect(read.size).toBe(2000);
    for (let i = 0; i < files.length; i += 97) {
      const f = files[i]!;
      expect(sameBytes(read.get(f.path), sampleBytes(i, 20 + (i % 50)))).toBe('same');
    }
  });
});
