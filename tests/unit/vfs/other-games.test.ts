import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packBytes, utf8, writeArchive, writeHpi } from '../../../electron/demo/writer.js';
import { mountInstall } from '../../../electron/vfs/index.js';
import { samplesDir } from '../../helpers/run-cli.js';

let base: string;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const expected = async () =>
  JSON.parse(await readFile(join(samplesDir, 'expected.json'), 'utf8')) as Record<string, Record<string, string>>;
const providers = (r: { winner: { archive: string | null } | null; shadowed: readonly { archive: string | null }[] }) => [
  r.winner?.archive,
  ...r.shadowed.map((s) => s.archive),
];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'modpak-games-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('Quake: pak0, pak1, … up to the first missing number; paks beat loose files', () => {
  it('TrenchBroom pak0/pak1 fixtures (an upper-case .PAK): pak1 overrides pak0', async () => {
    const dir = join(base, 'quake', 'mod1');
    await mkdir(dir, { recursive: true });
    const quake = join(samplesDir, 'pak/quake');
    await copyFile(join(quake, 'trenchbroom_gfs_mod1_pak0.pak'), join(dir, 'pak0.pak'));
    await copyFile(join(quake, 'trenchbroom_gfs_mod1_pak1.PAK'), join(dir, 'PAK1.PAK'));
    await copyFile(join(quake, 'trenchbroom_gfs_id1_pak0.pak'), join(dir, 'pak3.pak'));
    await writeFile(join(dir, 'mod1_pak0_2.txt'), 'a loose copy: loses to the paks in Quake');
    await writeFile(join(dir, 'loose_only.txt'), 'only loose');
    const vfs = await mountInstall(dir);
    try {
      expect(vfs.choice).toEqual({ game: 'quake', source: 'detected', reason: 'found 3 pakN.pak files' });
      expect(vfs.report().mounted).toEqual([
        { archive: 'PAK1.PAK', root: 'install', stage: 'pak', files: 1 },
        { archive: 'pak0.pak', root: 'install', stage: 'pak', files: 3 },
      ]);
      expect(vfs.report().ignored).toEqual([
        { archive: 'pak3.pak', root: 'install', reason: 'after the first missing number (pak2.pak): quake stops there' },
      ]);
      const sums = await expected();
      const r = vfs.resolve('MOD1_PAK0_2.TXT');
      expect(providers(r)).toEqual(['PAK1.PAK', 'pak0.pak', null]);
      expect(sha(await vfs.read('mod1_pak0_2.txt'))).toBe(sums['pak/quake/trenchbroom_gfs_mod1_pak1.PAK']!['mod1_pak0_2.txt']);
      expect(sha(await vfs.read('mod1_pak0_2.txt', 'pak0.pak'))).toBe(sums['pak/quake/trenchbroom_gfs_mod1_pak0.pak']!['mod1_pak0_2.txt']);
      expect(sha(await vfs.read('mod1_pak0_1.txt'))).toBe(sums['pak/quake/trenchbroom_gfs_mod1_pak0.pak']!['mod1_pak0_1.txt']);
      expect(vfs.resolve('id1_pak0_1.txt').winner).toBeNull();
      expect(vfs.resolve('loose_only.txt').winner).toMatchObject({ archive: null });
    } finally {
      await vfs.close();
    }
  });
});

const pakFiles = (tag: string) => [
  { path: 'maps/shared.bsp', data: utf8(`shared from ${tag}`) },
  { path: `progs/${tag}.mdl`, data: utf8(tag) },
];

describe('Quake 2: pak0–pak9 with gaps; paks beat loose files', () => {
  it('a higher number wins, gaps allowed, pak10 ignored', async () => {
    const dir = join(base, 'baseq2');
    for (const n of [0, 2, 9, 10]) await writeArchive(join(dir, `pak${n}.pak`), await packBytes('pak', pakFiles(`pak${n}`), {}));
    await mkdir(join(dir, 'maps'), { recursive: true });
    await writeFile(join(dir, 'maps', 'shared.bsp'), 'loose');
    const vfs = await mountInstall(dir);
    try {
      expect(vfs.choice.game).toBe('quake2');
      expect(vfs.report().mounted.map((m) => m.archive)).toEqual(['pak9.pak', 'pak2.pak', 'pak0.pak']);
      expect(vfs.report().ignored).toEqual([{ archive: 'pak10.pak', root: 'install', reason: 'quake2 loads only pak0 to pak9' }]);
      expect(providers(vfs.resolve('maps/SHARED.bsp'))).toEqual(['pak9.pak', 'pak2.pak', 'pak0.pak', null]);
      expect(new TextDecoder().decode(await vfs.read('maps/shared.bsp'))).toBe('shared from pak9');
    } finally {
      await vfs.close();
    }
  });
});

describe('Daikatana: pak0–pak9; loose files beat paks', () => {
  it('a higher number wins and the loose file wins over both', async () => {
    const dir = join(base, 'data');
    for (const n of [0, 3]) await writeArchive(join(dir, `pak${n}.pak`), await packBytes('daikatana', pakFiles(`pak${n}`), {}));
    await mkdir(join(dir, 'maps'), { recursive: true });
    await writeFile(join(dir, 'maps', 'shared.bsp'), 'loose');
    const vfs = await mountInstall(dir);
    try {
      expect(vfs.choice).toEqual({ game: 'daikatana', source: 'detected', reason: 'pak0.pak is a Daikatana PAK' });
      expect(vfs.report().mounted.map((m) => m.archive)).toEqual(['pak3.pak', 'pak0.pak']);
      expect(providers(vfs.resolve('maps/shared.bsp'))).toEqual([null, 'pak3.pak', 'pak0.pak']);
      expect(new TextDecoder().decode(await vfs.read('progs/pak3.mdl'))).toBe('pak3');
    } finally {
      await vfs.close();
    }
  });

  it('a Quake pak in a Daikatana folder is not mounted', async () => {
    const dir = join(base, 'dk-wrong');
    await writeArchive(join(dir, 'pak0.pak'), await packBytes('daikatana', pakFiles('dk'), {}));
    await writeArchive(join(dir, 'pak1.pak'), await packBytes('pak', pakFiles('q1'), {}));
    const vfs = await mountInstall(dir, { game: 'daikatana' });
    try {
      expect(vfs.report().mounted.map((m) => m.archive)).toEqual(['pak0.pak']);
      expect(vfs.report().ignored.map((i) => i.archive)).toEqual(['pak1.pak']);
    } finally {
      await vfs.close();
    }
  });
});

describe('TA: Kingdoms overlay', () => {
  it('every archive by extension then name, a later one overriding an earlier one; loose files win', async () => {
    const dir = join(base, 'Kingdoms');
    const file = (path: string, text: string) => ({ path, data: utf8(text) });
    await writeHpi(join(dir, 'data.hpi'), [
      file('gamedata/sidedata.tdf', 'data'),
      file('anims/a.gaf', 'data anim'),
      file('units/x.txt', 'data'),
    ]);
    await writeHpi(join(dir, 'IPData.hpi'), [file('gamedata/sidedata.tdf', 'ipdata'), file('units/x.txt', 'ipdata')]);
    await writeHpi(join(dir, 'aaa.ccx'), [file('anims/a.gaf', 'ccx anim')]);
    await writeHpi(join(dir, 'zz.hpi'), [file('units/v2.txt', 'a v2 archive'), file('gamedata/sidedata.tdf', 'v2')], { version: 2 });
    await writeFile(join(dir, 'broken.hpi'), 'not an archive');
    await mkdir(join(dir, 'units'), { recursive: true });
    await writeFile(join(dir, 'units', 'x.txt'), 'loose');
    await writeFile(join(dir, 'Kingdoms.exe'), 'stand-in');
    const vfs = await mountInstall(dir);
    try {
      expect(vfs.choice).toEqual({ game: 'tak', source: 'detected', reason: 'found Kingdoms.exe' });
      expect(vfs.report().mounted).toEqual([
        { archive: 'zz.hpi', root: 'install', stage: 'overlay', files: 2 },
        { archive: 'IPData.hpi', root: 'install', stage: 'overlay', files: 2 },
        { archive: 'data.hpi', root: 'install', stage: 'overlay', files: 3 },
        { archive: 'aaa.ccx', root: 'install', stage: 'overlay', files: 1 },
      ]);
      expect(vfs.report().ignored).toEqual([{ archive: 'broken.hpi', root: 'install', reason: 'not recognised as HPI' }]);
      expect(providers(vfs.resolve('gamedata/sidedata.tdf'))).toEqual(['zz.hpi', 'IPData.hpi', 'data.hpi']);
      expect(new TextDecoder().decode(await vfs.read('units/V2.TXT'))).toBe('a v2 archive');
      expect(providers(vfs.resolve('anims/a.gaf'))).toEqual(['data.hpi', 'aaa.ccx']);
      expect(providers(vfs.resolve('units/x.txt'))).toEqual([null, 'IPData.hpi', 'data.hpi']);
    } finally {
      await vfs.close();
    }
  });
});
