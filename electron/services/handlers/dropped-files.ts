import { lstat, mkdir, readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomically } from '../../io/byte-sink.js';
import { safeRelativePath } from '../../../shared/paths.js';
import { HostError } from '../host/errors.js';
import { refuseDotFolders } from '../host/reach.js';

/**
 * Files dropped onto a workspace: in the browser their bytes arrive with their relative paths (a dropped
 * folder keeps its name as the first part); in Electron their paths on disk, copied in by name. Each file
 * is written atomically; a name that would leave the workspace, or a dot-file, is refused before anything
 * is written. Links among dropped folders are not followed.
 */

/** The most files one drop copies in (a dropped folder is walked up to this). */
export const DROP_FILE_LIMIT = 20_000;

function placeIn(dir: string, path: string): { rel: string; full: string } {
  const rel = safeRelativePath(path.replace(/\\/g, '/'));
  if (rel === null) throw new HostError('not-allowed', `${JSON.stringify(path)} would leave the workspace`);
  const full = join(dir, ...rel.split('/'));
  refuseDotFolders(full, 'file name');
  return { rel, full };
}

async function writeInto(full: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(full), { recursive: true });
  await writeFileAtomically(full, async (sink) => {
    await sink.write(bytes);
  });
}

export async function addDroppedFiles(dir: string, files: { path: string; data: string }[]): Promise<string[]> {
  const placed = files.map((f) => ({ ...placeIn(dir, f.path), data: f.data }));
  for (const f of placed) {
    const bytes = Buffer.from(f.data, 'base64');
    await writeInto(f.full, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
  }
  return placed.map((f) => f.rel);
}

/** Every plain file under `source` (itself when it is a file), as [path on disk, path in the workspace]. */
async function walk(source: string, rel: string, out: [string, string][]): Promise<void> {
  const info = await lstat(source);
  if (info.isSymbolicLink() || basename(source).startsWith('.')) return;
  if (info.isFile()) {
    if (out.length >= DROP_FILE_LIMIT)
      throw new HostError('failed', `more than ${DROP_FILE_LIMIT} files dropped at once; copy big folders with the file manager`);
    out.push([source, rel]);
  } else if (info.isDirectory()) {
    for (const name of (await readdir(source)).sort()) await walk(join(source, name), `${rel}/${name}`, out);
  }
}

/** `check` refuses a source the host may not read (requireBrowsable). */
export async function copyDroppedPaths(dir: string, sources: string[], check: (source: string) => Promise<void>): Promise<string[]> {
  const pairs: [string, string][] = [];
  for (const source of sources) {
    await check(source);
    await walk(source, basename(source), pairs);
  }
  const placed = pairs.map(([from, rel]) => ({ from, ...placeIn(dir, rel) }));
  for (const p of placed) await writeInto(p.full, await readFile(p.from));
  return placed.map((p) => p.rel);
}
