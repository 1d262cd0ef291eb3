import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packFolder } from '../../../electron/mods/pack.js';
import { mountInstall } from '../../../electron/vfs/index.js';
import { ModsService } from '../../../electron/services/mods-service.js';
import { runCli } from '../../helpers/run-cli.js';

/**
 * Quake-family games opened at the game's own folder: the base data folder (id1, baseq2, data, valve)
 * with an optional mod folder over it. Within a folder the game's rules (formats.md): a higher pak number
 * wins, and paks win over loose files (Daikatana: loose files win). The mod folder wins over the base.
 */
let work: string;
let quake: string;

async function put(base: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), content);
  }
}
async function pak(target: string, files: Record<string, string>, format: 'pak' | 'daikatana' = 'pak'): Promise<void> {
  const src = await mkdtemp(join(work, 'src-'));
  await put(src, files);
  await mkdir(dirname(target), { recursive: true });
  await packFolder({ dir: src, target, format });
  await rm(src, { recursive: true, force: true });
}
const text = (b: Uint8Array) => new TextDecoder().decode(b);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'modpak-gamedir-'));
  quake = join(work, 'quake');
  await put(quake, { 'quake.exe': 'MZ' });
  await pak(join(quake, 'id1', 'pak0.pak'), { 'maps/e1m1.bsp': 'base0', 'progs/player.mdl': 'base0', 'gfx/a.lmp': 'base0' });
  await pak(join(quake, 'id1', 'pak1.pak'), { 'maps/e1m1.bsp': 'base1' });
  await put(join(quake, 'id1'), { 'maps/e1m1.bsp': 'loose', 'readme.txt': 'only loose' });
  await pak(join(quake, 'mymod', 'pak0.pak'), { 'progs/player.mdl': 'mod0' });
  await put(join(quake, 'mymod'), { 'gfx/a.lmp': 'mod loose' });
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('a Quake game folder', () => {
  it('mounts id1: the higher pak number wins, paks win over loose files', async () => {
    const vfs = await mountInstall(quake);
    try {
      expect(vfs.choice).toEqual({ game: 'quake', source: 'detected', reason: 'found id1/' });
      expect(vfs.report().mounted.map((m) => m.archive)).toEqual(['id1/pak1.pak', 'id1/pak0.pak']);
      const map = vfs.resolve('maps/e1m1.bsp');
      expect([map.winner?.archive, ...map.shadowed.map((s) => s.archive)]).toEqual(['id1/pak1.pak', 'id1/pak0.pak', null]);
      expect(text(await vfs.read('maps/e1m1.bsp'))).toBe('base1');
      expect(text(await vfs.read('readme.txt'))).toBe('only loose');
      // quake.exe at the game folder's top is not game data.
      expect(vfs.resolve('quake.exe').winner).toBeNull();
    } finally {
      await vfs.close();
    }
  });

  it('--mod: the mod folder over id1, its paks and its loose files winning over the base', async () => {
    const vfs = await mountInstall(quake, { mod: 'mymod' });
    try {
      expect(vfs.report().mounted.map((m) => m.archive)).toEqual(['mymod/pak0.pak', 'id1/pak1.pak', 'id1/pak0.pak']);
      expect(text(await vfs.read('progs/player.mdl'))).toBe('mod0');
      expect(vfs.resolve('gfx/a.lmp').winner?.archive).toBeNull();
      expect(text(await vfs.read('gfx/a.lmp'))).toBe('mod loose');
      expect(text(await vfs.read('gfx/a.lmp', 'id1/pak0.pak'))).toBe('base0');
    } finally {
      await vfs.close();
    }
  });

  it('every mount command takes --mod; a missing mod folder is one line and exit 1', async () => {
    const archives = await runCli(['mount', 'archives', quake, '--mod', 'mymod', '--json']);
    expect(archives.code).toBe(0);
    expect(JSON.parse(archives.stdout).mounted.map((m: { archive: string }) => m.archive)).toEqual([
      'mymod/pak0.pak',
      'id1/pak1.pak',
      'id1/pak0.pak',
    ]);
    const resolved = await runCli(['mount', 'resolve', quake, 'progs/player.mdl', '--mod', 'mymod', '--json']);
    expect(JSON.parse(resolved.stdout).winner.archive).toBe('mymod/pak0.pak');
    const noMod = await runCli(['mount', 'resolve', quake, 'progs/player.mdl', '--json', '--game', 'quake']);
    expect(JSON.parse(noMod.stdout).winner.archive).toBe('id1/pak0.pak');
    const missing = await runCli(['mount', 'archives', quake, '--mod', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('no mod folder nope in');
  });

  it("impact: pak1.pak in the mod folder ranks first and wins over the mod's pak0.pak", async () => {
    const staged = join(work, 'staged', 'pak1.pak');
    await pak(staged, { 'progs/player.mdl': 'mod1', 'maps/new.bsp': 'new' });
    const impact = await new ModsService().impact(quake, staged, { mod: 'mymod' });
    expect(impact).toMatchObject({ archive: 'mymod/pak1.pak', stage: 'pak', rank: 1, replaces: null });
    expect(impact.wins.map((w) => [w.path, w.over]).sort()).toEqual([
      ['maps/new.bsp', null],
      ['progs/player.mdl', 'mymod/pak0.pak'],
    ]);
  });
});

describe('the other Quake-family game folders', () => {
  it('Quake 2 baseq2, Half-Life valve (--game halflife), Daikatana data (loose files win)', async () => {
    const q2 = join(work, 'quake2');
    await pak(join(q2, 'baseq2', 'pak0.pak'), { 'pics/a.pcx': 'q2' });
    await pak(join(q2, 'ctf', 'pak0.pak'), { 'pics/a.pcx': 'ctf' });
    const q2v = await mountInstall(q2, { mod: 'ctf' });
    expect([q2v.game, q2v.report().mounted.map((m) => m.archive)]).toEqual(['quake2', ['ctf/pak0.pak', 'baseq2/pak0.pak']]);
    await q2v.close();

    const hl = join(work, 'halflife');
    await pak(join(hl, 'valve', 'pak0.pak'), { 'models/a.mdl': 'hl' });
    await pak(join(hl, 'cstrike', 'pak0.pak'), { 'models/a.mdl': 'cs' });
    const hlv = await mountInstall(hl, { game: 'halflife', mod: 'cstrike' });
    expect([hlv.game, text(await hlv.read('models/a.mdl'))]).toEqual(['halflife', 'cs']);
    await hlv.close();
    const detected = await runCli(['mount', 'archives', hl, '--json']);
    expect(JSON.parse(detected.stdout).game).toBe('halflife');

    const dk = join(work, 'daikatana');
    await pak(join(dk, 'data', 'pak0.pak'), { 'maps/e1m1.bsp': 'dk pak' }, 'daikatana');
    await put(join(dk, 'data'), { 'maps/e1m1.bsp': 'dk loose' });
    const dkv = await mountInstall(dk);
    expect([dkv.game, dkv.resolve('maps/e1m1.bsp').winner?.archive, dkv.resolve('maps/e1m1.bsp').shadowed.map((s) => s.archive)]).toEqual([
      'daikatana',
      null,
      ['data/pak0.pak'],
    ]);
    await dkv.close();
  });
});
