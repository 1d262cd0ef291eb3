/**
 * The Files screen's folder tree, built once per merged tree (60,000+ paths): folders grouped
 * case-insensitively (the game's rule) under their first spelling, folders before files, each sorted by
 * name. Rows are what the virtual list draws: the expanded part of the tree, or the matches of a filter.
 */

export interface DirNode {
  /** Lower-case key; '' for the top. */
  key: string;
  /** As first spelled in the install. */
  path: string;
  name: string;
  dirs: DirNode[];
  /** Indices into the tree's paths. */
  files: number[];
  /** Files anywhere below. */
  total: number;
}

export interface TreeModel {
  paths: readonly string[];
  root: DirNode;
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

/** `lower`: the paths lower-cased (as the filter's index holds them), made here when not given. */
export function buildTreeModel(paths: readonly string[], lower?: readonly string[]): TreeModel {
  const root: DirNode = { key: '', path: '', name: '', dirs: [], files: [], total: 0 };
  const dirs = new Map<string, DirNode>([['', root]]);
  const ensureDir = (path: string): DirNode => {
    const key = path.toLowerCase();
    let node = dirs.get(key);
    if (node) return node;
    const slash = path.lastIndexOf('/');
    const parent = slash < 0 ? root : ensureDir(path.slice(0, slash));
    node = { key, path, name: path.slice(slash + 1), dirs: [], files: [], total: 0 };
    dirs.set(key, node);
    parent.dirs.push(node);
    return node;
  };
  // The host sends paths sorted, so a run of files shares one folder: it is looked up once per run.
  let lastDir = root;
  let lastPrefix = '';
  for (let i = 0; i < paths.length; i++) {
    const p = paths[i]!;
    const slash = p.lastIndexOf('/');
    let dir: DirNode;
    if (slash < 0) dir = root;
    else if (slash === lastPrefix.length && p.startsWith(lastPrefix)) dir = lastDir;
    else {
      lastPrefix = p.slice(0, slash);
      dir = lastDir = ensureDir(lastPrefix);
    }
    dir.files.push(i);
  }
  // Files of one folder share its lower-cased prefix, so their lower-cased paths sort as their names do.
  const keys = lower ?? paths.map((p) => p.toLowerCase());
  const finish = (node: DirNode): number => {
    node.dirs.sort((a, b) => byName(a.key, b.key));
    node.files.sort((a, b) => byName(keys[a]!, keys[b]!));
    let total = node.files.length;
    for (const child of node.dirs) total += finish(child);
    node.total = total;
    return total;
  };
  finish(root);
  return { paths, root, dirs };
}

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The rows of the tree with the given folders (lower-case keys) expanded. */
export function visibleRows(model: TreeModel, expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (node: DirNode, depth: number) => {
    for (const dir of node.dirs) {
      const open = expanded.has(dir.key);
      rows.push({ id: 'd:' + dir.key, kind: 'dir', depth, name: dir.name, path: dir.path, index: -1, expanded: open, count: dir.total });
      if (open) walk(dir, depth + 1);
    }
    for (const i of node.files) {
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

/** Every file below a folder, for extraction. */
export function filesUnder(model: TreeModel, dirKey: string): number[] {
  const node = model.dirs.get(dirKey);
  if (!node) return [];
  const out: number[] = [];
  const walk = (n: DirNode) => {
    for (const i of n.files) out.push(i);
    for (const d of n.dirs) walk(d);
  };
  walk(node);
  return out;
}

/** The folder keys leading to a path, so revealing it can expand them. */
export function ancestorKeys(path: string): string[] {
  const parts = path.toLowerCase().split('/');
  const keys: string[] = [];
  for (let i = 1; i < parts.length; i++) keys.push(parts.slice(0, i).join('/'));
  return keys;
}
