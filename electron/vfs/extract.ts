import { mkdir, readdir, realpath } from 'node:fs/promises';
import { FolderWriter, forEachInFlight, refusalReason } from '../io/folder-writer.js';
import { isInside, realOrNearest } from '../io/real-path.js';
import { join, resolve, sep } from 'node:path';
import { pathKey, safeRelativePath } from '../../shared/paths.js';
import { fail } from '../../shared/errors.js';
import type { Hit } from './merged-index.js';
import type { MountedInstall } from './mounted-install.js';

/**
 * Writing winners out as loose files: `extract` (chosen paths or folders) and `flatten` (everything).
 * Names that would climb out of the target are refused with a warning and the rest goes on; a few files
 * are in flight at once, so memory is bounded by the largest files, not the install.
 */
export interface WriteOptions {
  onProgress?: (done: number, total: number, label?: string) => void;
  onWarning?: (message: string) => void;
  signal?: AbortSignal;
}

export interface WriteResult {
  files: number;
  bytes: number;
  refused: string[];
}

const IN_FLIGHT = 4;

async function writeWinners(install: MountedInstall, hits: readonly Hit[], target: string, options: WriteOptions): Promise<WriteResult> {
  const root = resolve(target);
  const result: WriteResult = { files: 0, bytes: 0, refused: [] };
  const writer = new FolderWriter(root);
  let done = 0;
  const refuse = (path: string, why: string) => {
    result.refused.push(path);
    options.onWarning?.(`refused to write ${JSON.stringify(path)}: ${why}`);
  };
  await forEachInFlight(
    hits,
    IN_FLIGHT,
    async (hit) => {
      const path = hit.entry.path;
      const rel = safeRelativePath(path);
      const out = rel === null ? null : join(root, rel);
      if (out === null || !out.startsWith(root + sep)) refuse(path, 'it would land outside the target folder');
      else {
        // Streamed as the archive-side extract does: a large (or bomb) entry is written a chunk at a time.
        const layer = install.layers[hit.layer]!;
        try {
          const bytes = await writer.write(out, layer.stream ? layer.stream(hit.entry) : await layer.read(hit.entry));
          result.files++;
          result.bytes += bytes;
        } catch (err) {
          // A path that is a file in one layer and a folder in another cannot be both on disk; a link planted in the target is not followed.
          const reason = refusalReason(err);
          if (reason !== null) refuse(path, reason);
          else throw err;
        }
      }
      options.onProgress?.(++done, hits.length, path);
    },
    options.signal,
  );
  return result;
}

/**
 * The winners of the given paths; a path naming a folder brings everything under it. A path that matches
 * nothing is an error, raised before anything is written.
 */
export function selectWinners(install: MountedInstall, paths: readonly string[]): Hit[] {
  const chosen = new Map<string, Hit>();
  const folders: string[] = [];
  for (const p of paths) {
    const key = pathKey(p);
    const hits = install.index.lookupKey(key);
    if (hits) chosen.set(key, hits[0]!);
    else folders.push(key === '' ? '' : `${key}/`);
  }
  if (folders.length > 0) {
    const found = new Set<string>();
    for (const [key, hits] of install.index.all()) {
      for (const f of folders) {
        if (key.startsWith(f)) {
          chosen.set(key, hits[0]!);
          found.add(f);
        }
      }
    }
    const missing = paths.filter((p) => {
      const k = pathKey(p);
      return !install.index.lookupKey(k) && !found.has(k === '' ? '' : `${k}/`);
    });
    if (missing.length > 0)
      fail(
        'not-found',
        `no file or folder ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ` (+${missing.length - 3} more)` : ''} in the install`,
      );
  }
  return [...chosen.values()];
}

export async function extractPaths(
  install: MountedInstall,
  paths: readonly string[],
  target: string,
  options: WriteOptions = {},
): Promise<WriteResult> {
  return writeWinners(install, selectWinners(install, paths), target, options);
}

/**
 * Every winning file as a loose file under `out`, so that `out` mounted alone resolves every path to the
 * same bytes. `out` must be new or empty and outside the install (an original game folder is never written).
 */
export async function flattenInstall(install: MountedInstall, out: string, options: WriteOptions = {}): Promise<WriteResult> {
  const target = resolve(out);
  const installReal = await realpath(install.root);
  let existing: string[] = [];
  try {
    existing = await readdir(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  // A folder not made yet lands where its nearest existing parent really is (a link to the install counts).
  const targetReal = await realOrNearest(target);
  if (isInside(installReal, targetReal) || isInside(install.root, target))
    fail('refused', 'the folder is inside the install; flatten into a folder outside it');
  if (existing.length > 0) fail('refused', 'the folder is not empty; flatten needs a new or empty folder');
  // An archive the disk failed to read would be missing from the copy without a word: stop, naming it.
  const unreadable = install.unreadable[0];
  if (unreadable) {
    const err = unreadable.error;
    if (!err.path) err.path = join(install.root, unreadable.archive);
    throw err;
  }
  await mkdir(target, { recursive: true });
  const hits = [...install.index.all()].map(([, h]) => h[0]!);
  return writeWinners(install, hits, target, options);
}
