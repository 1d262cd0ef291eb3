import { globMatcher, isGlob } from '../../shared/globs';

/**
 * Path filtering for the Files and Archive screens, in the renderer so 60,000 paths filter without a
 * round trip. A query with a glob character is a glob, matched exactly as the CLI matches `-p`
 * (shared/globs.ts): without `/` against the file name, with `/` against the whole path. Anything else is
 * a case-insensitive substring of the path.
 */

/** Paths prepared once per tree, so each keystroke only scans. */
export interface PathIndex {
  paths: readonly string[];
  lower: string[];
  /** Path indices sorted by lower-case path: matches come out in this order. */
  order: Int32Array;
}

export function indexPaths(paths: readonly string[]): PathIndex {
  const lower = new Array<string>(paths.length);
  for (let i = 0; i < paths.length; i++) {
    lower[i] = paths[i]!.toLowerCase();
  }
  const order = Int32Array.from(paths.keys());
  order.sort((a, b) => (lower[a]! < lower[b]! ? -1 : lower[a]! > lower[b]! ? 1 : 0));
  return { paths, lower, order };
}

/** Indices of the paths the query matches, in their order; null for an empty query (everything). */
export function filterPaths(index: PathIndex, query: string): number[] | null {
  const q = query.trim();
  if (q === '') return null;
  const out: number[] = [];
  const { paths, lower, order } = index;
  if (!isGlob(q)) {
    const needle = q.toLowerCase();
    for (const i of order) if (lower[i]!.includes(needle)) out.push(i);
    return out;
  }
  const matches = globMatcher(q);
  for (const i of order) if (matches(paths[i]!)) out.push(i);
  return out;
}
