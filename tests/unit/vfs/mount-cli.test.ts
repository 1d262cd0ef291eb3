import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoInstall } from '../../../electron/demo/demo-install.js';
import { mountInstall } from '../../../electron/vfs/index.js';
import { runCli } from '../../helpers/run-cli.js';

let base: string;
let root: string;
const json = async (args: string[]) => {
  const run = await runCli(args);
  expect(run.stderr.replace(/^modpak: game: .*\n/, '')).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
};

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'modpak-mount-cli-'));
  root = await generateDemoInstall(join(base, 'TA'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('modpak mount (JSON shapes)', () => {
  it('archives --json: game, mounted in priority order with root/stage/files, ignored with reasons', async () => {
    const out = await json(['mount', 'archives', root, '--json']);
    expect(Object.keys(out).sort()).toEqual(['game', 'gameReason', 'gameSource', 'ignored', 'mounted']);
    expect(out.gameReason).toBe('found rev31.gp3');
    expect(out.game).toBe('ta');
    expect(out.gameSource).toBe('detected');
    expect(out.mounted[0]).toEqual({ archive: 'rev31.gp3', root: 'install', stage: 'gp3', files: 3 });
    expect(out.mounted.map((m: { stage: string }) => m.stage)).toEqual([
      'gp3',
      'ccx',
      'ufo',
      'ufo',
      'ufo',
      ...Array(10).fill('hpi'),
      'disc',
      'disc',
      'disc',
    ]);
    for (const i of out.ignored) expect(Object.keys(i).sort()).toEqual(['archive', 'reason', 'root']);
  });

  it('says on stderr which game it detected; --game skips detection', async () => {
    const detected = await runCli(['mount', 'stats', root]);
    expect(detected.stderr).toBe('modpak: game: ta (detected: found rev31.gp3; choose with --game)\n');
    const given = await runCli(['mount', 'stats', root, '--game', 'ta']);
    expect(given.stderr).toBe('');
    expect(given.stdout).toMatch(/^game\s+ta$/m);
  });

  it('resolve --json: winner and shadowed providers, archive null for loose', async () => {
    expect(await json(['mount', 'resolve', root, 'units/corcom.fbi', '--json', '--game', 'ta'])).toEqual({
      path: 'units/corcom.fbi',
      winner: { archive: null, entry: 'units/CORCOM.fbi', size: expect.any(Number), method: 'loose' },
      shadowed: [{ archive: 'totala1.hpi', entry: 'units/CORCOM.fbi', size: expect.any(Number), method: 'lz77' }],
    });
    const missing = await runCli(['mount', 'resolve', root, 'no/such.file', '--json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toEqual({ path: 'no/such.file', winner: null, shadowed: [] });
    const missingText = await runCli(['mount', 'resolve', root, 'no/such.file']);
    expect(missingText.code).toBe(1);
    expect(missingText.stderr).toContain(`modpak: ${root}: no file no/such.file in the install`);
    const textRun = await runCli(['mount', 'resolve', root, 'units/ARMCOM.fbi', '--game', 'ta']);
    expect(textRun.stdout).toMatch(/^winner: {3}rev31\.gp3: units\/ARMCOM\.fbi/m);
    expect(textRun.stdout).toMatch(/^shadowed: totala1\.hpi: units\/ARMCOM\.fbi/m);
  });

  it('defs --json: [{name, file, archive, shadowed: [{file, archive, hiddenBy}]}]', async () => {
    const rows = await json(['mount', 'defs', root, 'features', '--json']);
    expect(rows).toContainEqual({
      name: 'CarScar05',
      file: 'features/urban/cars2.tdf',
      archive: 'totala1.hpi',
      shadowed: [{ file: 'features/urban/cars.tdf', archive: 'totala1.hpi', hiddenBy: 'name' }],
    });
    // rev31.gp3's units/ARMCOM.fbi hides totala1.hpi's file of the same path: listed, labelled 'path'.
    const units = await json(['mount', 'defs', root, 'units', '--json']);
    expect(units.find((r: { name: string }) => r.name === 'ARMCOM').shadowed).toEqual([
      { file: 'units/ARMCOM.fbi', archive: 'totala1.hpi', hiddenBy: 'path' },
    ]);
    const text = await runCli(['mount', 'defs', root, 'units']);
    expect(text.stdout).toMatch(/ARMCOM +rev31\.gp3: units\/ARMCOM\.fbi\n +hides totala1\.hpi: units\/ARMCOM\.fbi \(by path\)/);
    for (const r of rows) expect(Object.keys(r).sort()).toEqual(['archive', 'file', 'name', 'shadowed']);
    const bad = await runCli(['mount', 'defs', root, 'maps']);
    expect(bad.code).toBe(2);
  });

  it('conflicts --json: paths and definitions with every provider in order', async () => {
    const out = await json(['mount', 'conflicts', root, '--json']);
    expect(out.paths).toContainEqual({
      path: 'gamedata/mods.txt',
      providers: [
        { archive: 'zeta.ufo', entry: 'gamedata/mods.txt', size: expect.any(Number), method: 'lz77' },
        { archive: '_extra.ufo', entry: 'gamedata/mods.txt', size: expect.any(Number), method: 'lz77' },
      ],
    });
    expect(out.definitions).toContainEqual({
      kind: 'weapons',
      name: 'ARM_LIGHTLASER',
      providers: [
        { file: 'weapons/zeta.tdf', archive: 'zeta.ufo' },
        { file: 'weapons/weapons.tdf', archive: 'totala1.hpi' },
      ],
    });
    // Two files of one archive defining a name is not a conflict between sources.
    expect(out.definitions.find((d: { name: string }) => d.name === 'CarScar05')).toBeUndefined();
  });

  it('stats --json and ls --json with a glob', async () => {
    const stats = await json(['mount', 'stats', root, '--json']);
    expect(stats).toMatchObject({ game: 'ta', archives: 18, ignored: 5, looseFiles: 4 });
    expect(stats.paths).toBeLessThan(stats.entries);
    const ls = await json(['mount', 'ls', root, 'units/*.fbi', '--json']);
    expect(ls.find((r: { path: string }) => r.path === 'units/CORCOM.fbi')).toEqual({
      path: 'units/CORCOM.fbi',
      archive: null,
      size: expect.any(Number),
      layers: 2,
    });
    expect(ls.every((r: { path: string }) => /^units\/[^/]+\.fbi$/i.test(r.path))).toBe(true);
  });

  it('errors are one line with exit 1: a missing folder, an unknown game folder', async () => {
    const missing = await runCli(['mount', 'archives', join(base, 'nope')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/^modpak: .*nope: no such install folder/);
    const empty = join(base, 'empty');
    await mkdir(empty);
    await writeFile(join(empty, 'readme.txt'), 'hi');
    const unknown = await runCli(['mount', 'archives', empty]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/cannot tell which game.*--game\n$/);
    const badGame = await runCli(['mount', 'archives', root, '--game', 'doom']);
    expect(badGame.code).toBe(2);
  });
});

describe('modpak mount flatten', () => {
  it('OUT mounted alone resolves every path to the same bytes', async () => {
    const out = join(base, 'flat');
    const run = await runCli(['mount', 'flatten', root, out]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/flattened \d+ files/);
    const layered = await mountInstall(root);
    const flat = await mountInstall(out, { game: 'ta', noDisc: true });
    try {
      expect(flat.report().mounted).toEqual([]);
      expect(flat.stats().paths).toBe(layered.stats().paths);
      for (const path of layered.tree().paths) {
        const r = flat.resolve(path);
        expect(r.winner?.archive, path).toBeNull();
        expect(Buffer.from(await flat.read(path)).equals(Buffer.from(await layered.read(path))), path).toBe(true);
      }
      // Every definition file is there, so every name is defined (which file wins a name twice defined now
      // follows the folder's name order instead of an archive's stored order).
      for (const kind of ['units', 'weapons', 'features'] as const) {
        const names = async (v: typeof flat) => (await v.defs(kind)).map((d) => d.name).sort();
        expect(await names(flat), kind).toEqual(await names(layered));
      }
    } finally {
      await layered.close();
      await flat.close();
    }
  });

  it('refuses a non-empty target and a target inside the install', async () => {
    const busy = join(base, 'busy');
    await mkdir(busy);
    await writeFile(join(busy, 'x'), 'x');
    const a = await runCli(['mount', 'flatten', root, busy]);
    expect([a.code, a.stderr.replace(/^modpak: game: .*\n/, '')]).toEqual([
      1,
      `modpak: ${busy}: the folder is not empty; flatten needs a new or empty folder\n`,
    ]);
    const inside = await runCli(['mount', 'flatten', root, join(root, 'flat')]);
    expect(inside.code).toBe(1);
    expect(inside.stderr).toMatch(/inside the install/);
    expect(await readdir(root)).not.toContain('flat');
  });
});
