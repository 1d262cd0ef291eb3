import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportWorkspace } from '../../../electron/mods/export.js';
import { writeRecord } from '../../../electron/mods/workspace.js';
import { archiveInfo, listArchive, catEntry } from '../../../electron/services/archive-service.js';
import { ARMCOM_FBI, WEAPONS_TDF } from './fixture.js';

let work: string;
let dir: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'modpak-export-'));
  dir = join(work, 'mod');
  await mkdir(join(dir, 'units'), { recursive: true });
  await mkdir(join(dir, 'weapons'));
  await writeFile(join(dir, 'units', 'ARMCOM.FBI'), ARMCOM_FBI);
  await writeFile(join(dir, 'weapons', 'WEAPONS.TDF'), WEAPONS_TDF);
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

const tmpLeft = async (folder: string) => (await readdir(folder)).filter((n) => n.endsWith('.tmp'));

describe('exportWorkspace', () => {
  it('writes a .ufo that TA 3.1c mounts: v1, LZ77 chunks, Cavedog trailer; editor litter left out', async () => {
    await writeFile(join(dir, 'units', '.ARMCOM.FBI.swp'), 'swap');
    await writeFile(join(dir, 'units', 'ARMCOM.FBI~'), 'backup');
    const target = join(work, 'mymod.ufo');
    const result = await exportWorkspace({ dir, target });
    expect(result).toMatchObject({ target, files: 2, bytes: ARMCOM_FBI.length + WEAPONS_TDF.length });
    const info = await archiveInfo(target);
    expect(info).toMatchObject({ format: 'hpi', version: 1, files: 2, taMount: { ok: true } });
    expect(info).toMatchObject({ trailer: expect.stringMatching(/Copyright \d{4} Cavedog Entertainment$/) });
    const entries = (await listArchive(target)).filter((e) => !e.dir);
    expect(entries.map((e) => [e.path, e.method])).toEqual([
      ['units/ARMCOM.FBI', 'lz77'],
      ['weapons/WEAPONS.TDF', 'lz77'],
    ]);
    expect(Buffer.from(await catEntry(target, 'units/ARMCOM.FBI')).toString('latin1')).toBe(ARMCOM_FBI);
  });

  it('keeps the order recorded for the workspace, new files after it', async () => {
    await writeFile(join(dir, 'zzz.txt'), 'new');
    await writeRecord(dir, { version: 1, order: ['weapons/weapons.tdf', 'UNITS/ARMCOM.FBI'] });
    const target = join(work, 'ordered.ufo');
    await exportWorkspace({ dir, target });
    expect((await listArchive(target)).filter((e) => !e.dir).map((e) => e.path)).toEqual([
      'weapons/WEAPONS.TDF',
      'units/ARMCOM.FBI',
      'zzz.txt',
    ]);
  });

  it('packs in place without packing its own target', async () => {
    const target = join(dir, 'mymod.ufo');
    await exportWorkspace({ dir, target });
    const again = await exportWorkspace({ dir, target });
    expect(again.files).toBe(2);
    expect((await listArchive(target)).filter((e) => !e.dir).map((e) => e.path)).not.toContain('mymod.ufo');
  });

  it('a failed export leaves the previous archive byte for byte and no temporary file', async () => {
    const target = join(work, 'mymod.ufo');
    await exportWorkspace({ dir, target });
    const before = await readFile(target);
    // A name HPI cannot store (outside Windows-1252) makes the writer fail part-way.
    await writeFile(join(dir, 'units', 'SNOW☃.FBI'), '[UNITINFO]{}');
    await expect(exportWorkspace({ dir, target })).rejects.toThrow(/cannot store the name .*☃/);
    expect(await readFile(target)).toEqual(before);
    expect(await tmpLeft(work)).toEqual([]);
  });

  it('a cancelled export leaves the previous archive and no temporary file', async () => {
    const target = join(work, 'mymod.ufo');
    await exportWorkspace({ dir, target });
    const before = await readFile(target);
    for (let i = 0; i < 40; i++) await writeFile(join(dir, 'units', `U${i}.FBI`), ARMCOM_FBI.repeat(20));
    const controller = new AbortController();
    let seen = 0;
    const cancelled = exportWorkspace({
      dir,
      target,
      signal: controller.signal,
      onProgress: (done) => {
        seen = done;
        if (done === 5) controller.abort(new Error('cancelled by the user'));
      },
    });
    await expect(cancelled).rejects.toThrow(/cancelled by the user/);
    expect(seen).toBe(5);
    expect(await readFile(target)).toEqual(before);
    expect(await tmpLeft(work)).toEqual([]);
  });

  it('creates the folder the target goes in', async () => {
    const target = join(work, 'new', 'folder', 'mymod.ufo');
    expect((await exportWorkspace({ dir, target })).files).toBe(2);
    expect((await archiveInfo(target)).files).toBe(2);
  });

  it('refuses a target whose format it cannot tell', async () => {
    await expect(exportWorkspace({ dir, target: join(work, 'mymod.zip') })).rejects.toThrow(/cannot tell the archive format/);
  });
});
