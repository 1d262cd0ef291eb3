/**
 * The Files screen's folder tree over a merged tree (60,000+ paths): folders grouped case-insensitively
 * (the game's rule) under their first spelling, folders before files, each sorted by name. Each folder is
 * sorted out when first shown. Rows are what the virtual list draws: the expanded part of the tree, or
 * the matches of a filter.
 */

export interface DirNode {
  /** Lower-case key; '' for the top. */
  key: string;
  /** As first spelled in the install. */
  path: string;
  name: string;
  /** Indices into the tree's paths of every file anywhere below, in the tree's order. */
  below: number[];
  /** Files anywhere below. */
  total: number;
  /** The folder's own folders and files, listed the first time it is shown (see `listing`). */
  listed: Listing | null;
  /** Where, in each path of `below`, the part below this folder starts; dropped once listed. */
  starts: number[];
}

export interface Listing {
  /** Sorted by key. */
  dirs: DirNode[];
  /** Indices into the tree's paths, sorted by lower-cased name. */
  files: number[];
}

export interface TreeModel {
  paths: readonly string[];
  root: DirNode;
  /** The folders listed so far, by key (find others with `dirNode`). */
  dirs: Map<string, DirNode>;
}

export interface TreeRow {
  /** 'd:' + folder key, or 'f:' + file index: stable across filtering. */
  id: string;
  kind: 'dir' | 'file';
  depth: number;
  name: string;
  path: string;
  /** File index, or -1 for a folder. */
  index: number;
  expanded: boolean;
  /** Files below a folder. */
  count: number;
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function newDir(key: string, path: string, name: string): DirNode {
  return { key, path, name, below: [], total: 0, listed: null, starts: [] };
}

/**
 * The model of a merged tree. Only the top folder is listed here; a folder's own children are sorted out
 * when it is first shown (expanded, revealed, extracted), from the files below it, so the first tree
 * costs one pass over the paths whatever the install's size.
 */
export function buildTreeModel(paths: readonly string[]): TreeModel {
  const root = newDir('', '', '');
  root.below = Array.from(paths.keys());
  root.starts = new Array<number>(paths.length).fill(0);
  root.total = paths.length;
  return { paths, root, dirs: new Map([['', root]]) };
}

/**
 * A folder's own folders and files. Its files are grouped by their next name (case-insensitively, the
 * game's rule, under the first spelling met); the tree is sorted, so a run of files shares that name and
 * is compared once, by its exact prefix.
 */
export function listing(model: TreeModel, node: DirNode): Listing {
  if (node.listed) return node.listed;
  const { paths } = model;
  const dirs: DirNode[] = [];
  const files: number[] = [];
  let last: DirNode | null = null;
  let lastPrefix = '';
  for (let k = 0; k < node.below.length; k++) {
    const i = node.below[k]!;
    const p = paths[i]!;
    if (last && p.startsWith(lastPrefix)) {
      last.below.push(i);
      last.starts.push(lastPrefix.length);
      continue;
    }
    const start = node.starts[k]!;
    const slash = p.indexOf('/', start);
    if (slash < 0) {
      files.push(i);
      last = null;
      continue;
    }
    const key = p.slice(0, slash).toLowerCase();
    let child = model.dirs.get(key);
    if (!child) {
      child = newDir(key, p.slice(0, slash), p.slice(start, slash));
      model.dirs.set(key, child);
      dirs.push(child);
    }
    child.below.push(i);
    child.starts.push(slash + 1);
    last = child;
    lastPrefix = p.slice(0, slash + 1);
  }
  for (const dir of dirs) dir.total = dir.below.length;
  dirs.sort((a, b) => byName(a.key, b.key));
  // Files of one folder share its lower-cased prefix, so their lower-cased paths sort as their names do.
  const lower = new Map<number, string>();
  for (const i of files) lower.set(i, paths[i]!.toLowerCase());
  files.sort((a, b) => byName(lower.get(a)!, lower.get(b)!));
  node.listed = { dirs, files };
  node.starts = [];
  return node.listed;
}

/** The folder with this key (lower case), its parents listed on the way; undefined when there is none. */
export function dirNode(model: TreeModel, key: string): DirNode | undefined {
  let node = model.dirs.get(key);
  if (node || key === '') return node;
  for (const above of [...ancestorKeys(key), key]) {
    node = model.dirs.get(above);
    if (!node) return undefined;
    listing(model, node);
  }
  return model.dirs.get(key);
}

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The rows of the tree with the given folders (lower-case keys) expanded. */
export function visibleRows(model: TreeModel, expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (node: DirNode, depth: number) => {
    const { dirs, files } = listing(model, node);
    for (const dir of dirs) {
      const open = expanded.has(dir.key);
      rows.push({ id: 'd:' + dir.key, kind: 'dir', depth, name: dir.name, path: dir.path, index: -1, expanded: open, count: dir.total });
      if (open) walk(dir, depth + 1);
    }
    for (const i of files) {
      const path = model.paths[i]!;
      rows.push({ id: 'f:' + i, kind: 'file', depth, name: fileName(path), path, index: i, expanded: false, count: 0 });
    }
  };
  walk(model.root, 0);
  return rows;
}

/** A filter's matches as a flat list of full paths. */
export function matchRows(model: TreeModel, indices: readonly number[]): TreeRow[] {
  const rows: TreeRow[] = [];
  for (const i of indices) {
    const path = model.paths[i];
    if (path !== undefined) rows.push({ id: 'f:' + i, kind: 'file', depth: 0, name: path, path, index: i, expanded: false, count: 0 });
  }
  return rows;
}

/** Every file below a folder, for extraction, in the tree's order. */
export function filesUnder(model: TreeModel, dirKey: string): number[] {
  return [...(dirNode(model, dirKey)?.below ?? [])];
}

/** The folder keys leading to a path, so revealing it can expand them. */
export function ancestorKeys(path: string): string[] {
  const parts = path.toLowerCase().split('/');
  const keys: string[] = [];
  for (let i = 1; i < parts.length; i++) keys.push(parts.slice(0, i).join('/'));
  return keys;
}
