import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { buildTreeModel, dirNode, filesUnder, visibleRows, type TreeModel } from '../../renderer/lib/tree-model';
import { mountInstall } from '../../electron/vfs/index.js';
import { makeInstall, packTree, type FixtureInstall } from '../unit/mods/fixture.js';

/**
 * The Files tree's model lists each folder when it is first shown (issue 15: the first tree costs one pass
 * over the paths). These tests hold it to the tree it must give: a reference built here, all at once, by
 * the rules the screen states (folders grouped case-insensitively under their first spelling, folders
 * before files, each sorted by lower-cased name, a folder's count being the files anywhere below it).
 */

/** Every row, all folders open, as `depth kind name count`, built eagerly from the rules above. */
function referenceRows(paths: readonly string[]): string[] {
  interface Dir {
    name: string;
    key: string;
    dirs: Map<string, Dir>;
    files: number[];
  }
  const top: Dir = { name: '', key: '', dirs: new Map(), files: [] };
  paths.forEach((path, index) => {
    const parts = path.split('/');
    let dir = top;
    for (let level = 0; level < parts.length - 1; level++) {
      const key = parts
        .slice(0, level + 1)
        .join('/')
        .toLowerCase();
      let next = dir.dirs.get(key);
      if (!next) dir.dirs.set(key, (next = { name: parts[level]!, key, dirs: new Map(), files: [] }));
      dir = next;
    }
    dir.files.push(index);
  });
  const count = (dir: Dir): number => dir.files.length + [...dir.dirs.values()].reduce((n, d) => n + count(d), 0);
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const out: string[] = [];
  const walk = (dir: Dir, depth: number) => {
    for (const sub of [...dir.dirs.values()].sort((a, b) => order(a.key, b.key))) {
      out.push(`${depth} dir ${sub.name} ${count(sub)}`);
      walk(sub, depth + 1);
    }
    const names = dir.files.map((i) => paths[i]!);
    for (const name of names.sort((a, b) => order(a.toLowerCase(), b.toLowerCase())))
      out.push(`${depth} file ${name.slice(name.lastIndexOf('/') + 1)} 0`);
  };
  walk(top, 0);
  return out;
}

/** The model's rows with every folder open (opened level by level, as a user would). */
function modelRows(model: TreeModel): string[] {
  const open = new Set<string>();
  for (;;) {
    const rows = visibleRows(model, open);
    const closed = rows.filter((r) => r.kind === 'dir' && !open.has(r.id.slice(2)));
    if (closed.length === 0) return rows.map((r) => `${r.depth} ${r.kind} ${r.name} ${r.count}`);
    for (const r of closed) open.add(r.id.slice(2));
  }
}

/** A deterministic mix: nested folders, the same folder spelled in several cases, unsorted order. */
function generatedPaths(): string[] {
  let seed = 7;
  const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff), (seed >>> 12) % n);
  const folders = [
    'units',
    'Units',
    'UNITS/extra',
    'units/Extra',
    'anims',
    'features/all worlds/trees',
    'Features/All Worlds',
    'a_b',
    'aB',
    'a.b',
  ];
  const out = new Set<string>();
  while (out.size < 400) {
    const folder = folders[next(folders.length)]!;
    out.add(`${folder}/file${next(60)}${next(2) ? '.FBI' : '.tdf'}`);
    if (next(10) === 0) out.add(`top${next(20)}.txt`);
  }
  return [...out];
}

let fx: FixtureInstall;
beforeAll(async () => {
  fx = await makeInstall();
  await packTree(fx.work, join(fx.root, 'deep.ufo'), {
    'Features/all worlds/urban/cars/CAR1.TDF': '[Car1]{}',
    'features/All Worlds/urban/cars/car2.tdf': '[Car2]{}',
    'features/all worlds/urban/Bus.tdf': '[Bus]{}',
    'units/ARMCOM.FBI': '[UNITINFO]{}',
  });
});
afterAll(async () => fx?.cleanup());

describe('the folder model, listed folder by folder', () => {
  it('gives the same rows as the whole tree built at once, on a mounted install', async () => {
    const install = await mountInstall(fx.root);
    const paths = install.tree().paths;
    await install.close();
    expect(paths.length).toBeGreaterThan(5);
    expect(modelRows(buildTreeModel(paths))).toEqual(referenceRows(paths));
  });

  it('gives the same rows on paths in any order and any spelling of a folder', () => {
    const paths = generatedPaths();
    expect(modelRows(buildTreeModel(paths))).toEqual(referenceRows(paths));
    const reversed = [...paths].reverse();
    expect(modelRows(buildTreeModel(reversed))).toEqual(referenceRows(reversed));
  });

  it('lists only the folders shown, and finds any other one when asked', () => {
    const paths = generatedPaths();
    const model = buildTreeModel(paths);
    expect([...model.dirs.keys()]).toEqual(['']);
    visibleRows(model, new Set());
    expect(model.dirs.has('units')).toBe(true);
    expect(model.dirs.has('units/extra')).toBe(false);
    // Extraction of a folder never shown: every file below it, its parents listed on the way.
    const below = filesUnder(model, 'features/all worlds');
    expect(below.map((i) => paths[i]).sort()).toEqual(paths.filter((p) => p.toLowerCase().startsWith('features/all worlds/')).sort());
    expect(dirNode(model, 'features/all worlds/trees')?.total).toBe(paths.filter((p) => /^features\/all worlds\/trees\//i.test(p)).length);
    expect(filesUnder(model, 'no/such/folder')).toEqual([]);
    expect(filesUnder(model, 'units/extra/file1.fbi')).toEqual([]);
  });
});
