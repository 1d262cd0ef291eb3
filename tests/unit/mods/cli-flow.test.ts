import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { ModsService } from '../../../electron/services/mods-service.js';
import type { ExportImpact, OverrideDiff } from '../../../shared/mods-types.js';
import type { MountReport, ResolveResult } from '../../../shared/vfs-types.js';
import { ARMCOM_FBI, PCX, makeInstall, type FixtureInstall } from './fixture.js';

/**
 * The modder's day through the CLI, on a TA install generated with the real HPI writer: override a unit
 * file, change it, `diff` names the change and the archive it shadows, `mount impact` tells what the
 * export would do, `pack` writes a .ufo into the install that mounts in the ufo stage and wins.
 */
let fx: FixtureInstall;
let mod: string;
const mods = new ModsService();

beforeAll(async () => {
  fx = await makeInstall();
  mod = join(fx.work, 'mymod');
  await mods.openWorkspace(mod, fx.root);
});
afterAll(async () => {
  await mods.close();
  await fx.cleanup();
});

const json = <T>(stdout: string) => JSON.parse(stdout) as T;

describe('mod workflow through the CLI', () => {
  it("overrides a unit file with the install's winning bytes (totala1.hpi over totala2.hpi)", async () => {
    const r = await runCli(['override', mod, fx.root, 'units/armcom.fbi']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('units/ARMCOM.FBI  (from totala1.hpi)\n');
    // Never over the modder's own copy.
    const again = await runCli(['override', mod, fx.root, 'units/ARMCOM.FBI']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^modpak: .*mymod: units\/ARMCOM\.FBI is already in the workspace: edit it there\n$/);
    const missing = await runCli(['override', mod, fx.root, 'units/NOPE.FBI']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/the install has no file units\/NOPE\.FBI to override/);
    expect(await readFile(join(mod, 'units/ARMCOM.FBI'), 'latin1')).toBe(ARMCOM_FBI);
    const same = await runCli(['diff', mod, fx.root, '--json']);
    expect(same.code).toBe(0);
    expect(json<OverrideDiff[]>(same.stdout)).toEqual([
      { path: 'units/ARMCOM.FBI', status: 'same', base: { archive: 'totala1.hpi', entry: 'units/ARMCOM.FBI' }, diff: null },
    ]);
  });

  it('diff shows the changed key, the archive it shadows, added files and binary changes', async () => {
    await writeFile(join(mod, 'units/ARMCOM.FBI'), ARMCOM_FBI.replace('MaxDamage=3000', 'MaxDamage=4500'), 'latin1');
    expect((await runCli(['override', mod, fx.root, 'unitpics/ARMCOM.PCX'])).code).toBe(0);
    const pcx = PCX.slice();
    pcx[10] = pcx[10]! ^ 0xff;
    await writeFile(join(mod, 'unitpics/ARMCOM.PCX'), pcx);
    await writeFile(join(mod, 'units/ARMNEW.FBI'), '[UNITINFO]\r\n{\r\n\tUnitName=ARMNEW;\r\n}\r\n');
    const r = await runCli(['diff', mod, fx.root, '--json']);
    expect(r.code).toBe(0);
    const diffs = json<OverrideDiff[]>(r.stdout);
    expect(diffs.map((d) => [d.path, d.status, d.base?.archive ?? null])).toEqual([
      ['unitpics/ARMCOM.PCX', 'modified', 'totala1.hpi'],
      ['units/ARMCOM.FBI', 'modified', 'totala1.hpi'],
      ['units/ARMNEW.FBI', 'added', null],
    ]);
    const fbi = diffs[1]!.diff!;
    if (fbi.kind !== 'text') throw new Error('expected a text diff');
    expect(fbi.tdf).toEqual([{ section: 'UNITINFO', key: 'MaxDamage', kind: 'changed', before: '3000', after: '4500' }]);
    expect(fbi.unified).toMatch(/^\+\tMaxDamage=4500;/m);
    expect(diffs[0]!.diff).toMatchObject({ kind: 'binary', before: { size: 300 }, after: { size: 300 } });

    const human = await runCli(['diff', mod, fx.root]);
    expect(human.stdout).toContain('modified units/ARMCOM.FBI  (shadows totala1.hpi: units/ARMCOM.FBI)');
    expect(human.stdout).toContain('    [UNITINFO] MaxDamage: 3000 → 4500');
    expect(human.stdout).toContain('added    units/ARMNEW.FBI  (new path)');
    expect(human.stdout).toContain('3 files: 2 modified, 1 added, 0 same');
  });

  it('mount impact tells, before writing, where the export ranks and what it wins or loses', async () => {
    await writeFile(join(mod, 'units/ARMFLASH.FBI'), '[UNITINFO]\r\n{\r\n\tUnitName=ARMFLASH;\r\n\tMaxDamage=999;\r\n}\r\n');
    const r = await runCli(['mount', 'impact', fx.root, mod, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const impact = json<ExportImpact>(r.stdout);
    expect(impact).toMatchObject({ archive: 'mymod.ufo', stage: 'ufo', rank: 1, pushesOut: null, replaces: null });
    // The loose units/ARMFLASH.FBI beats every archive: the mod's copy would be hidden.
    expect(impact.hidden).toEqual([{ path: 'units/ARMFLASH.FBI', by: null }]);
    expect(impact.wins).toEqual(
      expect.arrayContaining([
        { path: 'units/ARMCOM.FBI', over: 'totala1.hpi' },
        { path: 'units/ARMNEW.FBI', over: null },
      ]),
    );
    expect(impact.definitions).toEqual(
      expect.arrayContaining([
        { kind: 'units', name: 'ARMCOM', outcome: 'wins', against: 'totala1.hpi' },
        { kind: 'units', name: 'ARMNEW', outcome: 'wins', against: null },
        { kind: 'units', name: 'ARMFLASH', outcome: 'loses', against: '(loose file)' },
      ]),
    );
    // Nothing was written into the install.
    const archives = json<MountReport>((await runCli(['mount', 'archives', fx.root, '--json'])).stdout);
    expect(archives.mounted.map((m) => m.archive)).toEqual(['totala1.hpi', 'totala2.hpi']);
    const text = await runCli(['mount', 'impact', fx.root, mod]);
    expect(text.stdout).toContain('mymod.ufo: rank 1 in the mount order, stage ufo');
    expect(text.stdout).toContain('hidden: units/ARMFLASH.FBI by a loose file');
  });

  it('pack writes a .ufo into the install that mounts in the ufo stage and wins the paths it overrides', async () => {
    const target = join(fx.root, 'mymod.ufo');
    const packed = await runCli(['pack', mod, '--target', target]);
    expect(packed.code).toBe(0);
    const info = await runCli(['info', target, '--json']);
    expect(json<{ taMount: { ok: boolean }; trailer: string }>(info.stdout).taMount.ok).toBe(true);
    const archives = json<MountReport>((await runCli(['mount', 'archives', fx.root, '--json'])).stdout);
    expect(archives.mounted[0]).toMatchObject({ archive: 'mymod.ufo', stage: 'ufo', root: 'install', files: 4 });
    const resolved = json<ResolveResult>((await runCli(['mount', 'resolve', fx.root, 'units/ARMCOM.FBI', '--json'])).stdout);
    expect(resolved.winner).toMatchObject({ archive: 'mymod.ufo', entry: 'units/ARMCOM.FBI' });
    expect(resolved.shadowed.map((p) => p.archive)).toEqual(['totala1.hpi', 'totala2.hpi']);
    const cat = await runCli(['cat', target, 'units/ARMCOM.FBI']);
    expect(cat.stdoutBytes.toString('latin1')).toContain('MaxDamage=4500;');
    // With the export in place, the diff against the install shows every file as the winner it now is...
    const after = json<OverrideDiff[]>((await runCli(['diff', mod, fx.root, '--json'])).stdout);
    expect(after.filter((d) => d.base?.archive === 'mymod.ufo').map((d) => d.status)).toEqual(['same', 'same', 'same']);
    // ...and, leaving the mod's own export out, what it overrides underneath.
    const except = json<OverrideDiff[]>((await runCli(['diff', mod, fx.root, '--except', 'mymod.ufo', '--json'])).stdout);
    expect(except.map((d) => [d.path, d.status, d.base?.archive ?? null])).toEqual([
      ['unitpics/ARMCOM.PCX', 'modified', 'totala1.hpi'],
      ['units/ARMCOM.FBI', 'modified', 'totala1.hpi'],
      ['units/ARMFLASH.FBI', 'modified', null],
      ['units/ARMNEW.FBI', 'added', null],
    ]);
    // The studio's export records its target, and the next diff leaves it out by itself.
    await mods.export({ dir: mod, target });
    expect((await mods.diff(mod, fx.root)).map((d) => d.base?.archive ?? null)).toEqual(['totala1.hpi', 'totala1.hpi', null, null]);
    // A re-export's impact names the archive it replaces and keeps the rank.
    const again = json<ExportImpact>((await runCli(['mount', 'impact', fx.root, target, '--json'])).stdout);
    expect(again).toMatchObject({ rank: 1, stage: 'ufo', replaces: 'mymod.ufo' });
    // It wins what it wins over the archives below it, never over the copy of itself it replaces.
    expect(again.wins.map((w) => [w.path, w.over]).sort()).toEqual([
      ['unitpics/ARMCOM.PCX', 'totala1.hpi'],
      ['units/ARMCOM.FBI', 'totala1.hpi'],
      ['units/ARMNEW.FBI', null],
    ]);
    const againText = await runCli(['mount', 'impact', fx.root, target]);
    expect(againText.stdout).toContain('mymod.ufo: rank 1 in the mount order, stage ufo, replacing mymod.ufo');
    expect(againText.stdout).toContain(`wins ${again.wins.length} paths (2 over another archive)`);
  });

  it('fails with one line and exit 1 for a missing mod folder', async () => {
    const r = await runCli(['diff', join(fx.work, 'nope'), fx.root]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^modpak: .*nope.*: .*not a folder/);
  });
});

describe('an existing .ufo opened as a workspace', () => {
  it('re-exports with its stored order (unsorted directory order kept)', async () => {
    const { samplesDir } = await import('../../helpers/run-cli.js');
    const sample = join(samplesDir, 'hpi', 'ArmBani.ufo');
    const list = async (file: string) => (await runCli(['list', file])).stdout.split('\n').filter((l) => l && !l.endsWith('/'));
    const original = await list(sample);
    expect(original.length).toBeGreaterThan(3);
    const sorted = [...original].sort((a, b) => (a.toUpperCase() < b.toUpperCase() ? -1 : 1));
    expect(original).not.toEqual(sorted);
    const dir = join(await mkdtemp(join(fx.work, 'open-')), 'ArmBani');
    const opened = await mods.fromArchive(sample, dir, fx.root);
    expect(opened.files.length).toBe(original.length);
    const out = join(fx.work, 'ArmBani-again.ufo');
    const result = await mods.export({ dir, target: out });
    expect(result.files).toBe(original.length);
    expect(await list(out)).toEqual(original);
    // The same through the CLI with --order-from.
    const cliOut = join(fx.work, 'ArmBani-cli.ufo');
    expect((await runCli(['pack', dir, '--target', cliOut, '--order-from', sample])).code).toBe(0);
    expect(await list(cliOut)).toEqual(original);
    const verify = await runCli(['verify', out]);
    expect(verify.code).toBe(0);
  });
});
