import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import type { PackFile } from '../formats/index.js';
import { fail } from '../../shared/errors.js';
import { writeFileAtomically } from '../io/byte-sink.js';
import { collectFolder } from './pack.js';
import { pathKey, safeRelativePath } from '../../shared/paths.js';
import { decodeTdf } from '../../shared/tdf/parse.js';
import { encodeCp1252 } from '../../shared/text/cp1252.js';
import { isWorkspaceJunk } from './junk.js';
import type { OverrideBase } from './diff.js';

/**
 * A mod workspace: a plain folder whose files are laid out as the game's paths (units/ARMCOM.FBI, ...).
 * What the folder cannot say itself (the install it was tied to, the last export target and, for a
 * workspace opened from a .ufo, that archive's stored order, which TA's "first definition wins" walks and
 * a re-export keeps) goes in a small record BESIDE the folder, `.NAME.modpak.json`, so that the folder
 * holds only the mod: `modpak pack DIR` and any other tool pack exactly the mod's files. Every path coming
 * from outside goes through `safeRelativePath`, so nothing is read or written outside the folder.
 */

export interface WorkspaceRecord {
  version: 1;
  /** The install the workspace was last opened against. */
  root?: string;
  /** The archive it was opened from, if any. */
  source?: string;
  /** That archive's files in stored order (paths as stored). */
  order?: string[];
  /** Where it was last exported (its file name is the one the impact preview assumes). */
  target?: string;
}

/** Where a workspace's record lives: beside the folder, named after it. */
export function recordPath(dir: string): string {
  const abs = resolve(dir);
  return join(dirname(abs), `.${basename(abs)}.modpak.json`);
}

export async function readRecord(dir: string): Promise<WorkspaceRecord | null> {
  let text: string;
  try {
    text = await readFile(recordPath(dir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const value = JSON.parse(text) as WorkspaceRecord;
    if (value && typeof value === 'object' && value.version === 1) {
      if (value.order && !(Array.isArray(value.order) && value.order.every((p) => typeof p === 'string'))) delete value.order;
      return value;
    }
  } catch {
    // A damaged record only loses the remembered order; the mod's files are untouched.
  }
  return null;
}

export async function writeRecord(dir: string, record: WorkspaceRecord): Promise<void> {
  const bytes = new TextEncoder().encode(JSON.stringify(record, null, 2) + '\n');
  await writeFileAtomically(recordPath(dir), (sink) => sink.write(bytes));
}

/** The absolute path of a workspace-relative path, or a 'refused' error for one that would climb out. */
export function workspacePath(dir: string, path: string): string {
  const rel = safeRelativePath(path);
  if (rel === null || isWorkspaceJunk(rel)) fail('refused', `${JSON.stringify(path)} is not a path inside the workspace`);
  return join(resolve(dir), rel);
}

/** The mod's files (without editor litter), sorted by name at each level. */
export async function workspaceFiles(dir: string, onWarning?: (m: string) => void): Promise<PackFile[]> {
  return (await collectFolder(dir, onWarning)).filter((f) => !f.path.split('/').some(isWorkspaceJunk));
}

/** Create the folder if needed and record the install it belongs to. */
export async function openWorkspace(dir: string, root: string): Promise<{ dir: string; root: string; files: string[] }> {
  const abs = resolve(dir);
  await mkdir(abs, { recursive: true });
  const record = (await readRecord(abs)) ?? { version: 1 };
  if (record.root !== resolve(root)) await writeRecord(abs, { ...record, root: resolve(root) });
  return { dir: abs, root: resolve(root), files: (await workspaceFiles(abs)).map((f) => f.path) };
}

/**
 * Where `path` goes in the folder, reusing the spelling of folders (and of the file) already there: the
 * game ignores case, and `Units/` beside `units/` would become two copies of one folder on Linux.
 */
export async function placeInWorkspace(dir: string, path: string): Promise<{ abs: string; rel: string }> {
  workspacePath(dir, path);
  const parts = safeRelativePath(path)!.split('/');
  let at = resolve(dir);
  const out: string[] = [];
  for (const part of parts) {
    const names = await readdir(at).catch(() => [] as string[]);
    const same = names.find((n) => pathKey(n) === pathKey(part));
    const name = same ?? part;
    out.push(name);
    at = join(at, name);
  }
  return { abs: at, rel: out.join('/') };
}

/** Write bytes to a workspace path (created with its folders), replacing the file atomically. */
export async function writeWorkspaceFile(dir: string, path: string, bytes: Uint8Array): Promise<{ path: string; bytes: number }> {
  const { abs, rel } = await placeInWorkspace(dir, path);
  await mkdir(dirname(abs), { recursive: true });
  await writeFileAtomically(abs, (sink) => sink.write(bytes));
  return { path: rel, bytes: bytes.length };
}

/**
 * Copy the install's winning bytes of `path` into the workspace at the same path. A file already in the
 * workspace is never overwritten (it may hold the modder's edits): that is refused with a message.
 */
export async function overrideIntoWorkspace(
  dir: string,
  path: string,
  base: OverrideBase | null,
): Promise<{ path: string; from: string | null }> {
  if (!base) fail('not-found', `the install has no file ${path} to override`);
  // The file keeps the spelling the install stores it under (the lookup itself ignores case).
  const spelled = pathKey(base.entry) === pathKey(path) ? base.entry : path;
  const { abs, rel } = await placeInWorkspace(dir, spelled);
  if (await stat(abs).catch(() => null)) fail('refused', `${rel} is already in the workspace: edit it there`);
  await writeWorkspaceFile(dir, rel, base.bytes);
  return { path: rel, from: base.archive };
}

/** Largest text file the editor opens. */
export const MAX_TEXT_BYTES = 16 << 20;

/** The content hash the editor keeps for a file: SHA-256 of its bytes, hex. */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The hash of a workspace file as it is on disk now, or null when there is no such file. */
export async function workspaceFileHash(dir: string, path: string): Promise<string | null> {
  try {
    return contentHash(new Uint8Array(await readFile(workspacePath(dir, path))));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
    throw err;
  }
}

export async function readWorkspaceText(dir: string, path: string): Promise<{ path: string; text: string; hash: string }> {
  const abs = workspacePath(dir, path);
  const info = await stat(abs);
  if (!info.isFile()) fail('refused', `${path} is not a file`);
  if (info.size > MAX_TEXT_BYTES) fail('refused', `${path} is ${info.size} bytes: too large to edit as text (limit ${MAX_TEXT_BYTES})`);
  const bytes = new Uint8Array(await readFile(abs));
  return { path, text: decodeTdf(bytes), hash: contentHash(bytes) };
}

/** Text back to Windows-1252 bytes, the exact inverse of the TDF parser's decoding. */
export function encodeTaText(text: string): Uint8Array {
  const encoded = encodeCp1252(text);
  if ('bytes' in encoded) return encoded.bytes;
  const at = encoded.unencodable;
  const line = text.slice(0, at).split('\n').length;
  fail('refused', `line ${line}: ${JSON.stringify(text[at])} cannot be stored in a TA text file (Windows-1252)`);
}

/** A save refused because the file on disk is not the one the editor loaded. */
export class WriteConflict extends Error {
  override readonly name = 'WriteConflict';
  constructor(
    readonly path: string,
    readonly found: string | null,
  ) {
    super(
      found === null
        ? `${path} was deleted on disk since you opened it: choose reload, keep mine or compare before saving`
        : `${path} changed on disk since you opened it (another editor or tool wrote it): choose reload, keep mine or compare before saving`,
    );
  }
}

/**
 * Write a text file. With `expectedHash` (a string: the hash the editor loaded; null: the file must not
 * exist), a file that is not that any more is left alone and WriteConflict thrown: nobody's edit is lost.
 * The check and the rename are not one atomic step, but the window is a few milliseconds, not an editing
 * session.
 */
export async function writeWorkspaceText(
  dir: string,
  path: string,
  text: string,
  expectedHash?: string | null,
): Promise<{ path: string; bytes: number; hash: string }> {
  const bytes = encodeTaText(text);
  if (expectedHash !== undefined) {
    const { rel } = await placeInWorkspace(dir, path);
    const found = await workspaceFileHash(dir, rel);
    if (found !== expectedHash) throw new WriteConflict(rel, found);
  }
  const written = await writeWorkspaceFile(dir, path, bytes);
  return { ...written, hash: contentHash(bytes) };
}
