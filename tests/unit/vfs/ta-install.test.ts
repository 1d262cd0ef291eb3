import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoInstall } from '../../../electron/demo/demo-install.js';
import { writeHpi } from '../../../electron/demo/writer.js';
import { unitFbi } from '../../../electron/demo/content.js';
import { mountInstall, type MountedInstall } from '../../../electron/vfs/index.js';

let base: string;
let root: string;
let vfs: MountedInstall;
const text = (b: Uint8Array) => new TextDecoder().decode(b);

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'modpak-vfs-'));
  root = await generateDemoInstall(join(base, 'TA'));
  vfs = await mountInstall(root);
});
afterAll(async () => {
  await vfs?.close();
  await rm(base, { recursive: true, force: true });
});

describe('TA 3.1c mount order on a generated install', () => {
  it('detects TA and mounts rev31.gp3 → ccx → ufo (upper-case order) → ten hpi slots → disc', () => {
    expect(vfs.choice).toEqual({ game: 'ta', source: 'detected', reason: 'found rev31.gp3' });
    const report = vfs.report();
    expect(report.mounted.map((m) => `${m.stage}:${m.archive}`)).toEqual([
      'gp3:rev31.gp3',
      'ccx:btdata.ccx',
      'ufo:AFark.ufo',
      'ufo:zeta.ufo',
      'ufo:_extra.ufo',
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `hpi:tactics${n}.hpi`),
      'hpi:totala1.hpi',
      'hpi:totala2.hpi',
      'disc:totala3.hpi',
      'disc:totala4.hpi',
      'disc:worlds.hpi',
    ]);
    expect(report.mounted.every((m) => m.root === 'install')).toBe(true);
    expect(report.mounted.find((m) => m.archive === 'totala1.hpi')?.files).toBe(16);
  });

  it('ignores what the game ignores, with the reason, and invalid archives take no slot', () => {
    const ignored = Object.fromEntries(vfs.report().ignored.map((i) => [i.archive, i.reason]));
    expect(Object.keys(ignored).sort()).toEqual(['Backup/old.hpi', 'ccbeta.hpi', 'kingdoms.hpi', 'patched.hpi', 'rev30.gp3'].sort());
    expect(ignored['rev30.gp3']).toMatch(/only rev31\.gp3/);
    expect(ignored['ccbeta.hpi']).toMatch(/trailer/);
    expect(ignored['patched.hpi']).toMatch(/15 bytes follow the Cavedog trailer/);
    expect(ignored['kingdoms.hpi']).toMatch(/HPI v2/);
    expect(ignored['Backup/old.hpi']).toMatch(/subfolder/);
    // ccbeta, kingdoms and patched.hpi sort before tactics1.hpi, yet totala2.hpi still holds the tenth slot.
    expect(vfs.report().mounted.filter((m) => m.stage === 'hpi')).toHaveLength(10);
  });

  it('a trailer with another year still mounts (the year is not compared)', async () => {
    const bytes = await readFile(join(root, 'tactics8.hpi'));
    expect(bytes.subarray(bytes.length - 36).toString('latin1')).toBe('Copyright 1998 Cavedog Entertainment');
    expect(vfs.report().mounted.some((m) => m.archive === 'tactics8.hpi' && m.stage === 'hpi')).toBe(true);
  });

  it('--no-disc leaves the archives past the ten slots out', async () => {
    const noDisc = await mountInstall(root, { game: 'ta', noDisc: true });
    try {
      expect(noDisc.report().mounted.map((m) => m.archive)).not.toContain('totala3.hpi');
      expect(
        noDisc
          .report()
          .ignored.filter((i) => /past the ten/.test(i.reason))
          .map((i) => i.archive),
      ).toEqual(['totala3.hpi', 'totala4.hpi', 'worlds.hpi']);
      expect(noDisc.resolve('maps/Great Divide.ota').winner).toBeNull();
    } finally {
      await noDisc.close();
    }
  });

  it('a separate disc folder: its .hpi come last, and the install ones past ten slots stay out', async () => {
    const disc = join(base, 'CD');
    await writeHpi(join(disc, 'totala3.hpi'), [
      { path: 'units/DISCUNIT.fbi', data: unitFbi('DISCUNIT', 'From the disc') },
      { path: 'units/CORAK.fbi', data: unitFbi('CORAK', 'disc copy') },
    ]);
    await writeHpi(join(disc, 'broken.hpi'), [{ path: 'x.txt', data: new Uint8Array([1]) }], { trailer: false });
    await writeFile(join(disc, 'setup.exe'), 'not an archive');
    const withDisc = await mountInstall(root, { disc });
    try {
      const report = withDisc.report();
      expect(report.mounted.slice(-1)).toEqual([{ archive: 'totala3.hpi', root: 'disc', stage: 'disc', files: 2 }]);
      expect(report.mounted.filter((m) => m.stage === 'disc')).toHaveLength(1);
      expect(report.ignored).toContainEqual({ archive: 'broken.hpi', root: 'disc', reason: expect.stringMatching(/trailer/) });
      expect(report.ignored).toContainEqual({
        archive: 'worlds.hpi',
        root: 'install',
        reason: 'past the ten *.hpi slots and the disc is another folder',
      });
      expect(withDisc.resolve('units/DISCUNIT.fbi').winner?.archive).toBe('totala3.hpi');
      expect(withDisc.resolve('units/CORAK.fbi').shadowed.map((s) => s.archive)).toEqual(['totala3.hpi']);
    } finally {
      await withDisc.close();
    }
    // The install folder named as the disc is the default: nothing is mounted twice.
    const same = await mountInstall(root, { disc: root });
    try {
      expect(same.report().mounted.map((m) => m.archive)).toEqual(vfs.report().mounted.map((m) => m.archive));
    } finally {
      await same.close();
    }
  });
});

describe('path winners on a generated install', () => {
  it('loose files beat every archive', async () => {
    const r = vfs.resolve('UNITS/corcom.FBI');
    expect(r.winner).toMatchObject({ archive: null, entry: 'units/CORCOM.fbi', method: 'loose' });
    expect(r.shadowed.map((s) => s.archive)).toEqual(['totala1.hpi']);
    expect(text(await vfs.read('units/corcom.fbi'))).toContain('Loose commander');
    expect(text(await vfs.read('units/corcom.fbi', 'totala1.hpi'))).toContain('Name=Commander;');
  });

  it('rev31.gp3 overrides totala1.hpi; zeta.ufo beats _extra.ufo', async () => {
    expect(vfs.resolve('units/armcom.fbi').winner?.archive).toBe('rev31.gp3');
    expect(vfs.resolve('units/armcom.fbi').shadowed.map((s) => s.archive)).toEqual(['totala1.hpi']);
    const mods = vfs.resolve('gamedata/mods.txt');
    expect([mods.winner?.archive, ...mods.shadowed.map((s) => s.archive)]).toEqual(['zeta.ufo', '_extra.ufo']);
    expect(text(await vfs.read('gamedata/mods.txt'))).toMatch(/^zeta\.ufo wins/);
  });

  it('paths from ignored archives and archives in subfolders never resolve; the backup itself is a loose file', () => {
    expect(vfs.resolve('units/CCBETA.fbi').winner).toBeNull();
    expect(vfs.resolve('units/PATCHED.fbi').winner).toBeNull();
    expect(vfs.resolve('units/KINGDOM.fbi').winner).toBeNull();
    expect(vfs.resolve('Backup/old.hpi').winner).toMatchObject({ archive: null });
  });

  it('previewable media come through intact', async () => {
    const pcx = await vfs.read('bitmaps/logo.pcx');
    expect([pcx[0], pcx[1], pcx[2], pcx[3]]).toEqual([0x0a, 5, 1, 8]);
    expect(pcx[pcx.length - 769]).toBe(0x0c);
    const wav = await vfs.read('sounds/beep.wav');
    expect(Buffer.from(wav.subarray(0, 4)).toString()).toBe('RIFF');
    expect(Buffer.from(wav.subarray(8, 12)).toString()).toBe('WAVE');
  });
});

describe('definition winners on a generated install', () => {
  it('units: loose first, then mount order; units/old is not read', async () => {
    const rows = await vfs.defs('units');
    const by = Object.fromEntries(rows.map((r) => [r.name, r]));
    // The loose CORCOM.fbi hides totala1.hpi's copy of that path; rev31.gp3's ARMCOM.fbi hides
    // totala1.hpi's (rev30.gp3 is never mounted): both are hidden by path, not by name.
    expect(rows[0]).toEqual({
      name: 'CORCOM',
      file: 'units/CORCOM.fbi',
      archive: null,
      shadowed: [{ file: 'units/CORCOM.fbi', archive: 'totala1.hpi', hiddenBy: 'path' }],
    });
    expect(by.ARMCOM).toEqual({
      name: 'ARMCOM',
      file: 'units/ARMCOM.fbi',
      archive: 'rev31.gp3',
      shadowed: [{ file: 'units/ARMCOM.fbi', archive: 'totala1.hpi', hiddenBy: 'path' }],
    });
    expect(by.CORZETA).toEqual({
      name: 'CORZETA',
      file: 'units/CORZETA.fbi',
      archive: 'zeta.ufo',
      shadowed: [{ file: 'units/ZETADUP.fbi', archive: '_extra.ufo', hiddenBy: 'name' }],
    });
    expect(by.ARMOLD).toBeUndefined();
    expect(by.CCBETA).toBeUndefined();
    expect(by.CORAK).toMatchObject({
      archive: 'totala2.hpi',
      shadowed: [{ file: 'units/CORAK.fbi', archive: 'totala3.hpi', hiddenBy: 'path' }],
    });
  });

  it('features: recursive, stored order decides between two files of one archive', async () => {
    const by = Object.fromEntries((await vfs.defs('features')).map((r) => [r.name, r]));
    expect(by.CarScar05).toEqual({
      name: 'CarScar05',
      file: 'features/urban/cars2.tdf',
      archive: 'totala1.hpi',
      shadowed: [{ file: 'features/urban/cars.tdf', archive: 'totala1.hpi', hiddenBy: 'name' }],
    });
    expect(by.Rock1).toMatchObject({ file: 'features/ccx/rocks.tdf', archive: 'btdata.ccx' });
    // totala2.hpi's features/trees.tdf is hidden by totala1.hpi's file of that path: it never loads.
    expect(by.Tree1).toEqual({
      name: 'Tree1',
      file: 'features/trees.tdf',
      archive: 'totala1.hpi',
      shadowed: [
        { file: 'features/forest.tdf', archive: 'totala2.hpi', hiddenBy: 'name' },
        { file: 'features/trees.tdf', archive: 'totala2.hpi', hiddenBy: 'path' },
      ],
    });
  });

  it('weapons: top level only; a mod overrides by name', async () => {
    const by = Object.fromEntries((await vfs.defs('weapons')).map((r) => [r.name, r]));
    expect(by.ARM_LIGHTLASER).toEqual({
      name: 'ARM_LIGHTLASER',
      file: 'weapons/zeta.tdf',
      archive: 'zeta.ufo',
      shadowed: [{ file: 'weapons/weapons.tdf', archive: 'totala1.hpi', hiddenBy: 'name' }],
    });
    expect(by.OLD_LASER).toBeUndefined();
    expect(Object.keys(by).sort()).toEqual(['ARM_LIGHTLASER', 'CORE_LIGHTLASER', 'FARK_WELDER']);
  });
});

describe('a hypothetical archive (the export impact)', () => {
  it('a new .hpi ranks by name and pushes the last slot holder to the disc stage', async () => {
    const extra = join(base, 'aaa.hpi');
    await writeHpi(extra, [
      { path: 'units/ARMCOM.fbi', data: unitFbi('ARMCOM', 'hpi mod') },
      { path: 'units/NEWUNIT.fbi', data: unitFbi('NEWUNIT', 'New') },
    ]);
    const what = await mountInstall(root, { extra });
    try {
      expect(what.placement).toEqual({
        archive: 'aaa.hpi',
        stage: 'hpi',
        rank: 5,
        pushesOut: 'totala2.hpi',
        replaces: null,
        reason: 'mounted',
      });
      expect(what.resolve('units/ARMCOM.fbi').winner?.archive).toBe('rev31.gp3');
      expect(what.resolve('units/NEWUNIT.fbi').winner?.archive).toBe('aaa.hpi');
      expect(what.report().mounted.find((m) => m.archive === 'totala2.hpi')?.stage).toBe('disc');
    } finally {
      await what.close();
    }
  });

  it('a .ufo replacing one of the same name ranks in the ufo stage; a broken one is not mounted', async () => {
    await mkdir(join(base, 'mods'), { recursive: true });
    const ufo = join(base, 'mods', 'ZETA.UFO');
    await writeHpi(ufo, [{ path: 'units/Z2.fbi', data: unitFbi('Z2', 'z') }]);
    const what = await mountInstall(root, { extra: ufo });
    try {
      expect(what.placement).toMatchObject({ archive: 'ZETA.UFO', stage: 'ufo', rank: 3, pushesOut: null, replaces: 'zeta.ufo' });
      expect(what.resolve('gamedata/mods.txt').winner?.archive).toBe('_extra.ufo');
    } finally {
      await what.close();
    }
    const broken = join(base, 'mods', 'broken.ufo');
    await writeHpi(broken, [{ path: 'a.txt', data: new Uint8Array([1]) }], { trailer: false });
    const none = await mountInstall(root, { extra: broken });
    try {
      expect(none.placement).toMatchObject({ stage: null, rank: -1, reason: expect.stringMatching(/trailer/) });
    } finally {
      await none.close();
    }
  });
});
