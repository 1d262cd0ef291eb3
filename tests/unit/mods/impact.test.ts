import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportImpact } from '../../../electron/mods/impact.js';
import { packFolder } from '../../../electron/mods/pack.js';
import { ModsService } from '../../../electron/services/mods-service.js';
import { runCli } from '../../helpers/run-cli.js';
import { crlf, packTree } from './fixture.js';

/**
 * The impact of an archive on a TA install with all ten *.hpi slots taken: a .hpi that sorts first pushes
 * the tenth out (to the disc stage, the install being its own disc); an archive without the Cavedog
 * trailer is not mounted at all, and the impact says why.
 */
let work: string;
let root: string;
const unit = (name: string, damage: number) => crlf(['[UNITINFO]', '{', `\tUnitName=${name};`, `\tMaxDamage=${damage};`, '}']);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'modpak-impact-'));
  root = join(work, 'TotalA');
  await mkdir(root);
  await writeFile(join(root, 'TOTALA.EXE'), 'MZ');
  for (let i = 1; i <= 10; i++) {
    const name = `b${String(i).padStart(2, '0')}.hpi`;
    await packTree(work, join(root, name), { [`units/U${i}.FBI`]: unit(`U${i}`, i) });
  }
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('export impact', () => {
  it('names the .hpi pushed out of the ten slots and where the new one ranks', async () => {
    const mod = join(work, 'a00');
    await mkdir(join(mod, 'units'), { recursive: true });
    await writeFile(join(mod, 'units', 'U10.FBI'), unit('U10', 999));
    await writeFile(join(mod, 'units', 'U3.FBI'), unit('U3', 333));
    const archive = join(work, 'a00.hpi');
    await packFolder({ dir: mod, target: archive });
    const impact = await exportImpact(root, archive);
    expect(impact).toMatchObject({ archive: 'a00.hpi', stage: 'hpi', rank: 1, pushesOut: 'b10.hpi', replaces: null, hidden: [] });
    expect(impact.wins).toEqual([
      { path: 'units/U10.FBI', over: 'b10.hpi' },
      { path: 'units/U3.FBI', over: 'b03.hpi' },
    ]);
    expect(impact.definitions).toEqual([
      { kind: 'units', name: 'U10', outcome: 'wins', against: 'b10.hpi' },
      { kind: 'units', name: 'U3', outcome: 'wins', against: 'b03.hpi' },
    ]);
  });

  it('ranks a .hpi that sorts last in the disc stage: nothing pushed out, its files lose', async () => {
    const mod = join(work, 'zz');
    await mkdir(join(mod, 'units'), { recursive: true });
    await writeFile(join(mod, 'units', 'U1.FBI'), unit('U1', 111));
    const archive = join(work, 'zz.hpi');
    await packFolder({ dir: mod, target: archive });
    const impact = await exportImpact(root, archive);
    expect(impact).toMatchObject({ archive: 'zz.hpi', stage: 'disc', rank: 11, pushesOut: null });
    expect(impact.hidden).toEqual([{ path: 'units/U1.FBI', by: 'b01.hpi' }]);
    expect(impact.wins).toEqual([]);
    expect(impact.definitions).toEqual([{ kind: 'units', name: 'U1', outcome: 'loses', against: 'b01.hpi' }]);
  });

  it('says why an archive would not be mounted (no Cavedog trailer)', async () => {
    const mod = join(work, 'plain');
    await mkdir(mod);
    await writeFile(join(mod, 'readme.txt'), 'hello');
    const archive = join(work, 'plain.ufo');
    await packFolder({ dir: mod, target: archive, trailer: false });
    const impact = await exportImpact(root, archive);
    expect(impact).toMatchObject({ archive: 'plain.ufo', stage: 'ignored', rank: -1, wins: [], hidden: [] });
    expect(impact.ignoredReason).toMatch(/trailer/);
    const cli = await runCli(['mount', 'impact', root, archive]);
    expect(cli.stdout).toMatch(/^plain\.ufo: would not be mounted: .*trailer/m);
  });

  it("works out a workspace folder's impact under its export name without writing into the install", async () => {
    const mod = join(work, 'mymod');
    await mkdir(join(mod, 'units'), { recursive: true });
    await writeFile(join(mod, 'units', 'U5.FBI'), unit('U5', 555));
    const service = new ModsService();
    const impact = await service.impact(root, mod);
    expect(impact).toMatchObject({ archive: 'mymod.ufo', stage: 'ufo', rank: 1, wins: [{ path: 'units/U5.FBI', over: 'b05.hpi' }] });
    const asHpi = await service.impact(root, mod, { name: 'a0.hpi' });
    expect(asHpi).toMatchObject({ archive: 'a0.hpi', stage: 'hpi', pushesOut: 'b10.hpi' });
    const listing = await runCli(['mount', 'archives', root, '--json']);
    expect((JSON.parse(listing.stdout) as { mounted: { archive: string }[] }).mounted.map((m) => m.archive)).not.toContain('mymod.ufo');
  });

  it('refuses an export name with folders in it, before staging anything', async () => {
    const mod = join(work, 'namedmod');
    await mkdir(join(mod, 'units'), { recursive: true });
    await writeFile(join(mod, 'units', 'U6.FBI'), unit('U6', 666));
    for (const as of ['../../escaped.ufo', 'sub/x.ufo', '..\\escaped.ufo', '..']) {
      const cli = await runCli(['mount', 'impact', root, mod, '--as', as]);
      expect(cli.code, as).toBe(1);
      expect(cli.stderr.trim().split('\n'), as).toHaveLength(1);
      expect(cli.stderr, as).toMatch(/is not a file name/);
    }
    // Where '../../escaped.ufo' would land from the private staging folder (tmpdir/modpak-impact-XXXX).
    const { existsSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    expect(existsSync(resolve(tmpdir(), '..', 'escaped.ufo'))).toBe(false);
    expect(existsSync(join(tmpdir(), 'escaped.ufo'))).toBe(false);
  });
});
