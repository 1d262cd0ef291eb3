import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  encodeTaText,
  openWorkspace,
  overrideIntoWorkspace,
  placeInWorkspace,
  readRecord,
  readWorkspaceText,
  workspaceFiles,
  workspacePath,
  writeWorkspaceText,
} from '../../../electron/mods/workspace.js';
import { orderLike } from '../../../electron/mods/pack.js';
import { decodeTdf } from '../../../shared/tdf/parse.js';
import { FormatError } from '../../../shared/errors.js';

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'modpak-ws-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('workspace files', () => {
  it('opens (creating the folder), records the install, and lists only the mod files', async () => {
    const dir = join(work, 'mod');
    const opened = await openWorkspace(dir, join(work, 'install'));
    expect(opened.files).toEqual([]);
    expect(await readRecord(dir)).toEqual({ version: 1, root: join(work, 'install') });
    // The record lives beside the folder, so the folder holds only the mod.
    expect(await readdir(work)).toEqual(expect.arrayContaining(['.mod.modpak.json', 'mod']));
    expect(await readdir(dir)).toEqual([]);
    await mkdir(join(dir, 'units'));
    await writeFile(join(dir, 'units', 'ARMCOM.FBI'), '[UNITINFO]{}');
    await writeFile(join(dir, 'units', '.ARMCOM.FBI.swp'), 'swap');
    await writeFile(join(dir, 'units', 'ARMCOM.FBI~'), 'backup');
    // A save in flight: its temporary file is renamed over the name a moment later, never part of the mod.
    await writeFile(join(dir, 'units', `.ARMCOM.FBI.${process.pid}-0123456789ab.tmp`), 'half a save');
    // A modder's own file that merely looks similar stays.
    await writeFile(join(dir, 'units', '.notes.tmp'), 'mine');
    expect((await workspaceFiles(dir)).map((f) => f.path)).toEqual(['units/.notes.tmp', 'units/ARMCOM.FBI']);
    await rm(join(dir, 'units', '.notes.tmp'));
    expect((await openWorkspace(dir, join(work, 'install'))).files).toEqual(['units/ARMCOM.FBI']);
  });

  it('refuses paths that climb out of the folder, absolute paths and the record itself', () => {
    for (const bad of ['../x.tdf', '/etc/passwd', 'C:/x', 'units/../../x', 'units/.ARMCOM.FBI.swp']) {
      expect(() => workspacePath(work, bad), bad).toThrow(FormatError);
    }
    expect(workspacePath(work, 'units\\ARMCOM.FBI')).toBe(join(work, 'units', 'ARMCOM.FBI'));
  });

  it('saves text as Windows-1252 bytes, round-tripping every byte the game files can hold', async () => {
    const bytes = new Uint8Array(256).map((_, i) => i);
    const text = decodeTdf(bytes);
    expect(encodeTaText(text)).toEqual(bytes);
    const saved = await writeWorkspaceText(work, 'units/ARMCOM.FBI', '[UNITINFO]\r\n{\r\n\tName=Commandant ç €;\r\n}\r\n');
    expect(saved).toMatchObject({ path: 'units/ARMCOM.FBI', bytes: 41 });
    expect(saved.hash).toBe(
      createHash('sha256')
        .update(await readFile(join(work, 'units', 'ARMCOM.FBI')))
        .digest('hex'),
    );
    const raw = await readFile(join(work, 'units', 'ARMCOM.FBI'));
    expect(raw.includes(0xe7)).toBe(true);
    expect(raw.includes(0x80)).toBe(true);
    expect((await readWorkspaceText(work, 'units/ARMCOM.FBI')).text).toContain('Commandant ç €');
    expect(() => encodeTaText('ok\nbad ☃')).toThrow(/line 2: "☃" cannot be stored/);
    expect(await readdir(join(work, 'units'))).toEqual(['ARMCOM.FBI']);
  });

  it('reuses the spelling of folders and files already there', async () => {
    await mkdir(join(work, 'Units'));
    await writeFile(join(work, 'Units', 'armcom.fbi'), 'x');
    expect(await placeInWorkspace(work, 'UNITS/ARMCOM.FBI')).toEqual({ abs: join(work, 'Units', 'armcom.fbi'), rel: 'Units/armcom.fbi' });
    expect((await placeInWorkspace(work, 'units/CORCOM.FBI')).rel).toBe('Units/CORCOM.FBI');
  });

  it('overrides by copying the given bytes, and never overwrites a file already in the workspace', async () => {
    const base = { archive: 'totala1.hpi', entry: 'units/ARMCOM.FBI', bytes: new TextEncoder().encode('[UNITINFO]{MaxDamage=3000;}') };
    expect(await overrideIntoWorkspace(work, 'units/ARMCOM.FBI', base)).toEqual({ path: 'units/ARMCOM.FBI', from: 'totala1.hpi' });
    expect(await readFile(join(work, 'units/ARMCOM.FBI'), 'utf8')).toBe('[UNITINFO]{MaxDamage=3000;}');
    await writeFile(join(work, 'units/ARMCOM.FBI'), 'edited');
    await expect(overrideIntoWorkspace(work, 'UNITS/armcom.fbi', base)).rejects.toThrow(/already in the workspace/);
    expect(await readFile(join(work, 'units/ARMCOM.FBI'), 'utf8')).toBe('edited');
    await expect(overrideIntoWorkspace(work, 'units/NOPE.FBI', null)).rejects.toThrow(/has no file units\/NOPE\.FBI/);
  });

  it('orders files by a recorded stored order, case-insensitively, new files after', () => {
    const f = (path: string) => ({ path, size: 0, read: async () => new Uint8Array() });
    const files = [f('a.txt'), f('units/B.FBI'), f('units/c.fbi'), f('z.txt')];
    expect(orderLike(files, ['UNITS/C.FBI', 'gone.txt', 'units/b.fbi']).map((x) => x.path)).toEqual([
      'units/c.fbi',
      'units/B.FBI',
      'a.txt',
      'z.txt',
    ]);
  });
});

describe('an archive opened as a workspace', () => {
  it('leaves the folder as it was when the archive turns out corrupt part-way', async () => {
    const { packFolder } = await import('../../../electron/mods/pack.js');
    const { FormatError: Err } = await import('../../../shared/errors.js');
    const { workspaceFromArchive } = await import('../../../electron/services/mods-service.js');
    const src = join(work, 'src');
    await mkdir(join(src, 'units'), { recursive: true });
    for (let i = 0; i < 6; i++) await writeFile(join(src, 'units', `U${i}.FBI`), `[UNITINFO]{UnitName=U${i};}`.repeat(50));
    const archive = join(work, 'mod.ufo');
    await packFolder({ dir: src, target: archive, key: 0 });
    // Damage the data of the last files (the directory still reads, so extraction starts and then fails).
    const bytes = await readFile(archive);
    bytes.fill(0x55, bytes.length - 300, bytes.length - 40);
    await writeFile(archive, bytes);
    const dir = join(work, 'empty');
    await mkdir(dir);
    const failure = await workspaceFromArchive(archive, dir).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Err);
    expect(await readdir(dir)).toEqual([]);
    expect(await readRecord(dir)).toBeNull();
    await expect(workspaceFromArchive(archive, join(work, 'fresh'))).rejects.toBeInstanceOf(Err);
    expect((await readdir(work)).includes('fresh')).toBe(false);
  });
});
