import { describe, expect, it } from 'vitest';
import type { ArchiveEntry } from '../../../electron/formats/index.js';
import { MergedIndex, MountedInstall, type Layer, type MountPlan } from '../../../electron/vfs/index.js';
import type { MountStage } from '../../../shared/vfs-types.js';
import { normalizeArchivePath, pathKey } from '../../../shared/paths.js';

/** A layer over in-memory files, in the given stored order (a pure input for the index). */
function layer(archive: string | null, stage: MountStage | 'loose', files: [string, string][]): Layer {
  const data = new Map<ArchiveEntry, Uint8Array>();
  const entries = files.map(([path, text]) => {
    const entry: ArchiveEntry = { path, dir: false, size: text.length, packedSize: text.length, method: archive ? 'stored' : 'loose' };
    data.set(entry, new TextEncoder().encode(text));
    return entry;
  });
  return {
    archive,
    root: 'install',
    stage,
    entries: [{ path: 'units', dir: true, size: 0, packedSize: 0, method: 'dir' }, ...entries],
    read: async (e) => data.get(e)!,
    close: async () => {},
  };
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
    layer(null, 'loose', [
      ['units/ARMCOM.FBI', fbi('ARMCOM')],
      ['readme.txt', 'loose readme'],
    ]),
    layer('rev31.gp3', 'gp3', [
      ['units/armcom.fbi', fbi('ARMCOM_PATCH')],
      ['units/CORAK.fbi', fbi('CORAK')],
      ['gamedata/x.tdf', 'first'],
      ['GAMEDATA/X.TDF', 'duplicate in one archive'],
    ]),
    layer('mod.ufo', 'ufo', [
      ['features/urban/cars2.tdf', '[CarScar05]{world=urban;}'],
      ['features/urban/cars.tdf', '[CarScar05]{world=other;}\n[CarScar06]{}'],
      ['weapons/weapons.tdf', '[ARM_LASER]{}'],
      ['weapons/old/weapons.tdf', '[OLD_WEAPON]{}'],
      ['units/old/ARMOLD.fbi', fbi('ARMOLD')],
      ['units/CORAK2.fbi', fbi('corak')],
    ]),
    layer('totala1.hpi', 'hpi', [
      ['units/CORAK.fbi', fbi('HIDDEN_NAME')],
      ['features/trees.tdf', '[Tree1]{}\n[CarScar06]{}'],
      ['weapons/weapons.tdf', '[HIDDEN_WEAPON]{}'],
      ['readme.txt', 'archived readme'],
    ]),
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

  it('winner, provider count and provider list agree for every path, however often and in whatever order asked', () => {
    const index = sample().index;
    const seen = new Map<number, readonly unknown[]>();
    for (const pass of [0, 1]) {
      for (const n of index.numbers()) {
        // The list of a path nothing shadows is made on first use: asked before it and after it alike.
        if (pass === 0) expect(index.winnerOf(n)).toBe(index.hitsOf(n)[0]);
        const hits = index.hitsOf(n);
        expect(hits.every((h) => h && typeof h.layer === 'number')).toBe(true);
        expect(index.winnerOf(n)).toBe(hits[0]);
        expect(index.countOf(n)).toBe(hits.length);
        expect(index.isShadowed(n)).toBe(hits.length > 1);
        if (pass === 1) expect(hits).toBe(seen.get(n));
        seen.set(n, hits);
      }
    }
    const all = [...index.all()];
    expect(all.map(([, hits]) => hits)).toEqual([...index.numbers()].map((n) => seen.get(n)));
    expect(all.find(([key]) => key === 'UNITS/CORAK.FBI')?.[1].map((h) => h.layer)).toEqual([1, 3]);
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
    expect(vfs.report().mounted.map((m) => [m.archive, m.files])).toEqual([
      ['rev31.gp3', 4],
      ['mod.ufo', 6],
      ['totala1.hpi', 4],
    ]);
  });
});

describe('definition winners over the layers', () => {
  it('units: loose first, top-level only, hidden copies never read, names case-insensitive', async () => {
    const rows = await sample().defs('units');
    expect(rows).toEqual([
      { name: 'ARMCOM', file: 'units/ARMCOM.FBI', archive: null, shadowed: [] },
      {
        name: 'CORAK',
        file: 'units/CORAK.fbi',
        archive: 'rev31.gp3',
        shadowed: [{ file: 'units/CORAK2.fbi', archive: 'mod.ufo', hiddenBy: 'name' }],
      },
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
    expect(report.paths.map((p) => [p.path, p.providers.map((q) => q.archive)])).toEqual(
      [
        ['units/CORAK.fbi', ['rev31.gp3', 'totala1.hpi']],
        ['readme.txt', [null, 'totala1.hpi']],
        ['units/ARMCOM.FBI', [null, 'rev31.gp3']],
        ['weapons/weapons.tdf', ['mod.ufo', 'totala1.hpi']],
      ].sort((a, b) => ((a[0] as string).toUpperCase() < (b[0] as string).toUpperCase() ? -1 : 1)),
    );
    expect(report.definitions).toEqual([
      {
        kind: 'units',
        name: 'CORAK',
        providers: [
          { file: 'units/CORAK.fbi', archive: 'rev31.gp3' },
          { file: 'units/CORAK2.fbi', archive: 'mod.ufo' },
        ],
      },
      {
        kind: 'features',
        name: 'CarScar06',
        providers: [
          { file: 'features/urban/cars.tdf', archive: 'mod.ufo' },
          { file: 'features/trees.tdf', archive: 'totala1.hpi' },
        ],
      },
    ]);
  });
});

describe('lookups in any spelling', () => {
  const spelled = () =>
    install([
      layer('a.hpi', 'hpi', [
        ['units/ARMCOM.fbi', 'a'],
        ['sounds/é.wav', 'b'],
        ['DATA/한글.DAT', 'c'],
        ['', 'empty'],
      ]),
    ]);

  it('finds a path in any case and separator, and reports the canonical spelling of a non-canonical query', () => {
    const vfs = spelled();
    for (const q of ['units/ARMCOM.fbi', 'UNITS/armcom.FBI', 'units\\ARMCOM.fbi', '/units//ARMCOM.fbi/', '\\units\\armcom.FBI']) {
      expect(vfs.resolve(q).winner?.entry, q).toBe('units/ARMCOM.fbi');
    }
    expect(vfs.resolve('UNITS/armcom.FBI').path).toBe('UNITS/armcom.FBI');
    expect(vfs.resolve('units\\ARMCOM.fbi').path).toBe('units/ARMCOM.fbi');
    expect(vfs.resolve('/units//ARMCOM.fbi/').path).toBe('units/ARMCOM.fbi');
  });

  it('folds only ASCII letters, as TA compares names; keys beyond Latin-1 are found', () => {
    const vfs = spelled();
    expect(vfs.resolve('SOUNDS/é.WAV').winner?.entry).toBe('sounds/é.wav');
    expect(vfs.resolve('sounds/É.wav').winner).toBeNull();
    expect(vfs.resolve('data\\한글.dat').winner?.entry).toBe('DATA/한글.DAT');
    expect(vfs.resolve('data/한글글.dat').winner).toBeNull();
    for (const miss of ['units/ARMCOM.fb', 'units/ARMCOM.fbix', 'units', 'units/', 'xunits/ARMCOM.fbi'])
      expect(vfs.resolve(miss).winner, miss).toBeNull();
  });

  it('agrees with a Map over pathKey on random keys and spellings', () => {
    let seed = 7;
    const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    const alphabet = ['a', 'B', 'z', '_', '.', '/', '\\', '@', '[', '`', '{', '\u00e9', '\u00c9', '\ud55c', '\u00e0'];
    const word = () => Array.from({ length: 1 + next(12) }, () => alphabet[next(alphabet.length)]).join('');
    const raws = Array.from({ length: 2000 }, word);
    const files = new Map<string, string>();
    for (const raw of raws) if (!files.has(pathKey(raw))) files.set(pathKey(raw), raw);
    const vfs = install([
      layer(
        'r.hpi',
        'hpi',
        [...files.values()].map((p) => [p, p]),
      ),
    ]);
    for (const query of [...raws, ...raws.map((r) => r.toLowerCase()), ...Array.from({ length: 2000 }, word)]) {
      const found = vfs.resolve(query);
      expect(found.winner?.entry ?? null, JSON.stringify(query)).toBe(files.get(pathKey(query)) ?? null);
      expect(found.path, JSON.stringify(query)).toBe(normalizeArchivePath(query) === query ? query : normalizeArchivePath(query));
    }
  });
});

describe('an index built over the one it replaces (an incremental re-mount)', () => {
  const base = () => [
    layer(null, 'loose', [['units/ARMCOM.FBI', fbi('ARMCOM')]]),
    layer('rev31.gp3', 'gp3', [
      ['units/CORAK.fbi', fbi('CORAK')],
      ['gamedata/x.tdf', 'first'],
    ]),
    layer('totala1.hpi', 'hpi', [
      ['units/CORAK.fbi', fbi('HIDDEN')],
      ['units/ARMPW.fbi', fbi('ARMPW')],
      ['readme.txt', 'old'],
    ]),
  ];
  const answers = (vfs: MountedInstall, probes: string[]) => ({
    all: [...vfs.index.all()].map(([k, hits]) => [k, hits.map((h) => [h.layer, h.entry.path])]),
    stats: vfs.stats(),
    tree: vfs.tree(),
    resolved: probes.map((p) => vfs.resolve(p)),
  });
  const probes = ['units/corak.fbi', 'units/armpw.fbi', 'units/mod.fbi', 'readme.txt', 'gamedata/x.tdf', 'units/armcom.fbi'];

  it('answers exactly as an index built afresh, when an archive is added, replaced or removed', async () => {
    const [loose, rev, ta] = base();
    const mod = layer('mod.ufo', 'ufo', [
      ['units/ARMPW.fbi', fbi('ARMPW_MOD')],
      ['units/MOD.fbi', fbi('MOD')],
    ]);
    const mod2 = layer('mod.ufo', 'ufo', [
      ['units/MOD.fbi', fbi('MOD2')],
      ['readme.txt', 'mod readme'],
    ]);
    const steps: Layer[][] = [
      [loose!, rev!, ta!],
      [loose!, rev!, mod, ta!],
      [loose!, rev!, mod2, ta!],
      [loose!, ta!],
      [loose!, rev!, mod, ta!],
    ];
    let previous: MergedIndex | undefined;
    for (const layers of steps) {
      const incremental = new MergedIndex(layers, previous);
      const fresh = new MergedIndex(layers);
      const a = new MountedInstall(
        '/nowhere',
        { game: 'ta', source: 'given', reason: null },
        null,
        { game: 'ta', looseFirst: true, mounted: [], ignored: [] },
        incremental,
      );
      const b = new MountedInstall(
        '/nowhere',
        { game: 'ta', source: 'given', reason: null },
        null,
        { game: 'ta', looseFirst: true, mounted: [], ignored: [] },
        fresh,
      );
      expect(answers(a, probes)).toEqual(answers(b, probes));
      expect(await a.defs('units')).toEqual(await b.defs('units'));
      expect((await a.conflicts()).paths).toEqual((await b.conflicts()).paths);
      previous = incremental;
    }
  });

  it('keeps the answer rows of an archive that moves rank under its own name, and makes new ones for a new name', () => {
    const [loose, rev, ta] = base();
    const mountOf = (index: MergedIndex) =>
      new MountedInstall(
        '/nowhere',
        { game: 'ta', source: 'given', reason: null },
        null,
        { game: 'ta', looseFirst: true, mounted: [], ignored: [] },
        index,
      );
    const first = mountOf(new MergedIndex([loose!, rev!, ta!]));
    const row = first.resolve('units/ARMPW.fbi').winner;
    expect(row).toMatchObject({ archive: 'totala1.hpi', entry: 'units/ARMPW.fbi' });
    const mod = layer('mod.ufo', 'ufo', [['units/NEW.fbi', fbi('NEW')]]);
    const moved = mountOf(new MergedIndex([loose!, rev!, mod, ta!], first.index));
    expect(moved.index.lookup('units/armpw.fbi')?.[0]?.layer).toBe(3);
    expect(moved.resolve('units/armpw.fbi').winner).toBe(row);
    const renamed = mountOf(new MergedIndex([loose!, rev!, { ...ta!, archive: 'totala2.hpi' }], moved.index));
    expect(renamed.resolve('units/armpw.fbi').winner).toMatchObject({ archive: 'totala2.hpi', entry: 'units/ARMPW.fbi' });
    expect(first.resolve('units/armpw.fbi').winner).toBe(row);
    expect(moved.resolve('units/armpw.fbi').winner).toBe(row);
    expect(moved.resolve('units/CORAK.fbi').shadowed.map((p) => p.archive)).toEqual(['totala1.hpi']);
  });

  it('leaves the index it replaced answering as before', () => {
    const [loose, rev, ta] = base();
    const before = install([loose!, rev!, ta!]);
    const was = before.resolve('units/ARMPW.fbi');
    const mod = layer('mod.ufo', 'ufo', [
      ['units/ARMPW.fbi', fbi('ARMPW_MOD')],
      ['units/NEW.fbi', fbi('NEW')],
    ]);
    const after = new MergedIndex([loose!, rev!, mod, ta!], before.index);
    expect(after.lookup('units/armpw.fbi')?.[0]?.layer).toBe(2);
    expect(after.lookup('units/new.fbi')).toBeDefined();
    expect(before.resolve('units/ARMPW.fbi')).toEqual(was);
    expect(before.resolve('units/NEW.fbi').winner).toBeNull();
    expect(before.stats().paths).toBe(5);
  });
});
