import type { MergedTree } from '../../shared/vfs-types.js';
import type { GrepHit, GrepResult } from '../../shared/search-types.js';
import { decodeTdf } from '../../shared/tdf/parse.js';
import { pathMatcher } from './globs.js';

/**
 * Search inside the text files of an install (definitions, configs, scripts' source), winners only, as
 * the game would read them: `modpak mount grep`, the studio's search and the MCP tool share this.
 */

export interface GreppableInstall {
  tree(): MergedTree;
  read(path: string): Promise<Uint8Array>;
}

/** The files worth searching: TA's TDF family, configs, scripts' source, Quake's text files. */
export const SEARCHABLE_TEXT = /\.(tdf|fbi|ota|gui|tdt|txt|cfg|ini|bos|h|lst|def|qc|shader|rc|mnu)$/i;

/** A line longer than this is cut in the answer (a minified file must not flood the results). */
const MAX_LINE = 400;

export interface GrepOptions {
  globs?: readonly string[];
  /** Stop after this many hits (default 10,000). */
  limit?: number;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export async function grepInstall(install: GreppableInstall, pattern: RegExp, options: GrepOptions = {}): Promise<GrepResult> {
  const tree = install.tree();
  const match = pathMatcher(options.globs);
  const limit = options.limit ?? 10_000;
  const candidates: number[] = [];
  for (let i = 0; i < tree.paths.length; i++) if (SEARCHABLE_TEXT.test(tree.paths[i]!) && match(tree.paths[i]!)) candidates.push(i);
  const hits: GrepHit[] = [];
  const flags = pattern.flags.replace(/[gy]/g, '');
  const test = new RegExp(pattern.source, flags);
  let done = 0;
  for (const i of candidates) {
    if (options.signal?.aborted) break;
    const path = tree.paths[i]!;
    const archive = tree.winners[i]! < 0 ? null : (tree.archives[tree.winners[i]!] ?? null);
    const lines = decodeTdf(await install.read(path)).split(/\r?\n/);
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n]!;
      if (!test.test(line)) continue;
      hits.push({ path, archive, line: n + 1, text: line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line });
      if (hits.length >= limit) return { hits, files: candidates.length, truncated: true };
    }
    options.onProgress?.(++done, candidates.length);
  }
  return { hits, files: candidates.length, truncated: false };
}
