import { describe, expect, it } from 'vitest';
import type { ArchiveEntry } from '../../../electron/formats/index.js';
import { MergedIndex, MountedInstall, type Layer, type MountPlan } from '../../../electron/vfs/index.js';
import type { MountStage } from '../../../shared/vfs-types.js';

/** A layer over in-memory files, in the given stored order (a pure input for the index). */
function layer(archive: string | null, stage: MountStage | 'loose', files: [string, string][]): Layer {
  const data = new Map<ArchiveEntry, Uint8Array>();
  const entries = files.map(([path, text]) => {
    const entry: ArchiveEntry = { path, dir: false, size: text.length, packedSize: text.length, method: archive ? 'stored' : 'loose' };
    data.set(entry, new TextEncoder().encode(text));
    return entry;
  });
  return { archive, root: 'install', stage, entries: [{ path: 'units', dir: true, size: 0, packedSize: 0, method: 'dir' }, ...entries], read: async (e) => data.get(e)!, close: async () => {} };
}

function install(layers: Layer[]): MountedInstall {
  const plan: MountPlan = {
    game: 'ta',
    looseFirst: true,
    mounted: layers.filter((l) => l.archive).map((l) => ({ archive: l.archive!, root: 'install', stage: l.stage as MountStage })),
    ignored: [{ archive: 'broken.hpi', root: 'install', reason: 'no trailer' }],
  };
  return new MountedInstall('/nowhere', { game: 'ta', source: 'given', reason: null }, null, plan, new MergedIndex(layers));
}

const fbi = (name: string) => `[UNITINFO]\n{\nUnitName=${name};\n}\n`;

const sample = () =>
  install([
    layer(null, 'loose', [['units/ARMCOM.FBI', fbi('ARMCOM')], ['readme.txt', 'loose readme']]),
    layer('rev31.gp3', 'gp3', [['units/armcom.fbi', fbi('ARMCOM_PATCH')], ['units/CORAK.fbi', fbi('CORAK')], ['gamedata/x.tdf', 'first'], ['GAMEDATA/X.TDF', 'duplicate in one archive']]),
    layer('mod.ufo', 'ufo', [
      ['features/urban/cars2.tdf', '[CarScar05]{world=urban;}'],
      ['features/urban/cars.tdf', '[CarScar05]{world=other;}\n[CarScar06]{}'],
      ['weapons/weapons.tdf', '[ARM_LASER]{}'],
      ['weapons/old/weapons.tdf', '[OLD_WEAPON]{}'],
      ['units/old/ARMOLD.fbi', fbi('ARMOLD')],
      ['units/CORAK2.fbi', fbi('corak')],
    ]),
    layer('totala1.hpi', 'hpi', [['units/CORAK.fbi', fbi('HIDDEN_NAME')], ['features/trees.tdf', '[Tree1]{}\n[CarScar06]{}'], ['weapons/weapons.tdf', '[HIDDEN_WEAPON]{}'], ['readme.txt', 'archived readme']]),
  ]);

describe('merged index', () => {
  it('resolves case-insensitively, winner first, then every shadowed provider in priority order', () => {
    const vfs = sample();
    expect(vfs.resolve('UNITS\\armcom.fbi')).toEqual({
      path: 'UNITS/armcom.fbi',
      winner: { archive: null, entry: 'units/ARMCOM.FBI', size: fbi('ARMCOM').length, method: 'loose' },
      shadowed: [{ archive: 'rev31.gp3', entry: 'units/armcom.fbi', size: fbi('ARMCOM_PATCH').length, method: 'stored' }],
    });
    expect(vfs.resolve('nothing/here')).toEqual({ path: 'nothing/here', winner: null, shadowed: [] });
  });

  it('inside one archive the first stored entry wins', () => {
    const r = sample().resolve('gamedata/x.tdf');
    expect(r.winner?.entry).toBe('gamedata/x.tdf');
    expect(r.shadowed.map((s) => [s.archive, s.entry])).toEqual([['rev31.gp3', 'GAMEDATA/X.TDF']]);
  });

  it('reads the winner or a named provider', async () => {
    const vfs = sample();
    const text = async (p: Promise<Uint8Array>) => new TextDecoder().decode(await p);
    expect(await text(vfs.read('README.TXT'))).toBe('loose readme');
    expect(await text(vfs.read('readme.txt', 'totala1.hpi'))).toBe('archived readme');
    expect(await text(vfs.read('gamedata/x.tdf', 'rev31.gp3'))).toBe('first');
    await expect(vfs.read('readme.txt', 'mod.ufo')).rejects.toThrow('mod.ufo has no file readme.txt');
    await expect(vfs.read('missing.txt')).rejects.toThrow('no file missing.txt');
  });

  it('stats, tree and report count what the layers hold', () => {
    const vfs = sample();
    const stats = vfs.stats();
    expect(stats).toMatchObject({ game: 'ta', archives: 3, ignored: 1, looseFiles: 2, entries: 16, paths: 11, shadowedPaths: 5 });
    const tree = vfs.tree();
    expect(tree.paths).toHaveLength(11);
    expect(tree.archives).toEqual(['rev31.gp3', 'mod.ufo', 'totala1.hpi']);
    const i = tree.paths.indexOf('units/CORAK.fbi');
    expect([tree.winners[i], tree.layers[i]]).toEqual([0, 2]);
    expect(tree.winners[tree.paths.indexOf('readme.txt')]).toBe(-1);
    expect(vfs.report().mounted.map((m) => [m.archive, m.files])).toEqual([['rev31.gp3', 4], ['mod.ufo', 6], ['totala1.hpi', 4]]);
  });
});

describe('definition winners over the layers', () => {
  it('units: loose first, top-level only, hidden copies never read, names case-insensitive', async () => {
    const rows = await sample().defs('units');
    expect(rows).toEqual([
      { name: 'ARMCOM', file: 'units/ARMCOM.FBI', archive: null, shadowed: [] },
      { name: 'CORAK', file: 'units/CORAK.fbi', archive: 'rev31.gp3', shadowed: [{ file: 'units/CORAK2.fbi', archive: 'mod.ufo', hiddenBy: 'name' }] },
    ]);
  });

  it('features: recursive; stored order decides between two files of one archive', async () => {
    const rows = await sample().defs('features');
    expect(rows.map((r) => [r.name, r.file, r.archive, r.shadowed.map((s) => `${s.archive}:${s.file}`)])).toEqual([
      ['CarScar05', 'features/urban/cars2.tdf', 'mod.ufo', ['mod.ufo:features/urban/cars.tdf']],
      ['CarScar06', 'features/urban/cars.tdf', 'mod.ufo', ['totala1.hpi:features/trees.tdf']],
      ['Tree1', 'features/trees.tdf', 'totala1.hpi', []],
    ]);
  });

  it('weapons: top level only, and a hidden weapons.tdf is not read', async () => {
    expect((await sample().defs('weapons')).map((r) => r.name)).toEqual(['ARM_LASER']);
  });

  it('conflicts: paths and names from more than one source, every provider in order', async () => {
    const report = await sample().conflicts();
    expect(report.paths.map((p) => [p.path, p.providers.map((q) => q.archive)])).toEqual([
      ['units/CORAK.fbi', ['rev31.gp3', 'totala1.hpi']],
      ['readme.txt', [null, 'totala1.hpi']],
      ['units/ARMCOM.FBI', [null, 'rev31.gp3']],
      ['weapons/weapons.tdf', ['mod.ufo', 'totala1.hpi']],
    ].sort((a, b) => ((a[0] as string).toUpperCase() < (b[0] as string).toUpperCase() ? -1 : 1)));
    expect(report.definitions).toEqual([
      { kind: 'units', name: 'CORAK', providers: [{ file: 'units/CORAK.fbi', archive: 'rev31.gp3' }, { file: 'units/CORAK2.fbi', archive: 'mod.ufo' }] },
      { kind: 'features', name: 'CarScar06', providers: [{ file: 'features/urban/cars.tdf', archive: 'mod.ufo' }, { file: 'features/trees.tdf', archive: 'totala1.hpi' }] },
    ]);
  });
});
