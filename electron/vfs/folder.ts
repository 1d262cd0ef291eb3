import { open, readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchiveEntry } from '../formats/index.js';
import { STREAM_SLICE } from '../formats/archive.js';
import { fail } from '../../shared/errors.js';
import { compareNames } from './names.js';
import type { Layer } from './layers.js';
import { flatString } from '../formats/common/flat-string.js';

/** Reading folders: the top-level names the mount rules see, and the loose-file layer. */

async function isFile(path: string): Promise<{ file: boolean; size: number }> {
  try {
    const s = await stat(path);
    return { file: s.isFile(), size: s.size };
  } catch {
    return { file: false, size: 0 };
  }
}

export async function requireFolder(dir: string, what = 'folder'): Promise<void> {
  let s;
  try {
    s = await stat(dir);
  } catch {
    fail('not-found', `no such ${what}: ${dir}`);
  }
  if (!s.isDirectory()) fail('unsupported', `not a folder: ${dir}`);
}

/** The regular files at the top of a folder (symlinks to files count), in upper-case name order. */
export async function listTopLevel(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const d of await readdir(dir, { withFileTypes: true })) {
    if (d.isFile() || (d.isSymbolicLink() && (await isFile(join(dir, d.name))).file)) out.push(d.name);
  }
  return out.sort(compareNames);
}

export interface TreeFile {
  path: string;
  size: number;
}

/**
 * Every regular file under `dir` (relative paths with '/'), in a deterministic order: each folder's names
 * in upper-case order, files before subfolders. Symlinked folders are not followed (no cycles).
 */
export async function listTree(dir: string, skip: (path: string) => boolean): Promise<TreeFile[]> {
  const out: TreeFile[] = [];
  const walk = async (abs: string, rel: string): Promise<void> => {
    const dirents = (await readdir(abs, { withFileTypes: true })).sort((a, b) => compareNames(a.name, b.name));
    const subdirs: string[] = [];
    const files = await Promise.all(
      dirents.map(async (d) => {
        const path = rel ? flatString(`${rel}/${d.name}`) : d.name;
        if (d.isDirectory()) {
          subdirs.push(d.name);
          return null;
        }
        if (!d.isFile() && !d.isSymbolicLink()) return null;
        if (skip(path)) return null;
        const f = await isFile(join(abs, d.name));
        return f.file ? { path, size: f.size } : null;
      }),
    );
    for (const f of files) if (f) out.push(f);
    for (const name of subdirs) await walk(join(abs, name), rel ? `${rel}/${name}` : name);
  };
  await walk(dir, '');
  return out;
}

/** The install's loose files as a layer: read straight from the disk when asked. */
export function looseLayer(root: string, files: readonly TreeFile[]): Layer {
  const entries: ArchiveEntry[] = files.map((f) => ({ path: f.path, dir: false, size: f.size, packedSize: f.size, method: 'loose' }));
  return {
    archive: null,
    root: 'install',
    stage: 'loose',
    entries,
    read: async (entry) => new Uint8Array(await readFile(join(root, entry.path))),
    stream: (entry) => fileSlices(join(root, entry.path)),
    close: async () => {},
  };
}

/** A file's bytes in slices of STREAM_SLICE, each a fresh array (the caller may keep it while reading on). */
async function* fileSlices(path: string): AsyncIterable<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    for (let at = 0; ;) {
      const slice = new Uint8Array(STREAM_SLICE);
      const { bytesRead } = await handle.read(slice, 0, slice.length, at);
      if (bytesRead === 0) return;
      at += bytesRead;
      yield bytesRead === slice.length ? slice : slice.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}
