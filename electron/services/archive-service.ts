import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { openArchive, detectFormat } from '../formats/index.js';
import type { Archive, ArchiveEntry, ArchiveInfo } from '../formats/index.js';
import { FileSource } from '../io/byte-source.js';
import { FormatError, fail } from '../formats/errors.js';
import { pathKey, safeRelativePath } from '../../shared/paths.js';
import { pathMatcher } from './globs.js';

/**
 * Single-archive operations shared by the CLI (`modpak info/list/extract/cat/verify`) and the studio's
 * Archive screen. Everything goes through the Archive interface, so every format gets them for free.
 */

export type ProgressFn = (done: number, total: number, label?: string) => void;

export async function withArchive<T>(path: string, fn: (archive: Archive) => Promise<T>): Promise<T> {
  const archive = await openArchive(path);
  try {
    return await fn(archive);
  } finally {
    await archive.close();
  }
}

export interface InfoResult extends ArchiveInfo {
  /** Other formats whose layout also fits the bytes (only for the shared 'PACK' magic). */
  alsoMatches?: string[];
  note?: string;
  warnings?: string[];
}

export async function archiveInfo(path: string): Promise<InfoResult> {
  const source = await FileSource.open(path);
  let alternatives: string[] = [];
  let note: string | undefined;
  try {
    const detected = await detectFormat(source);
    alternatives = detected.alternatives;
    note = detected.note;
  } finally {
    await source.close();
  }
  return withArchive(path, async (archive) => {
    const info: InfoResult = { ...archive.info() };
    if (alternatives.length > 0) info.alsoMatches = alternatives;
    if (note) info.note = note;
    if (archive.warnings.length > 0) info.warnings = [...archive.warnings];
    return info;
  });
}

export interface ListedEntry {
  path: string;
  size: number;
  packedSize: number;
  method: string;
  dir?: true;
}

export function toListedEntry(e: ArchiveEntry): ListedEntry {
  const out: ListedEntry = { path: e.path, size: e.size, packedSize: e.packedSize, method: e.method };
  if (e.dir) out.dir = true;
  return out;
}

export async function listArchive(path: string, globs?: readonly string[]): Promise<ListedEntry[]> {
  const match = pathMatcher(globs);
  return withArchive(path, async (archive) => archive.entries.filter((e) => match(e.path)).map(toListedEntry));
}

/** Find an entry by path, case-insensitively; the first stored match wins. */
export function findEntry(archive: Archive, path: string): ArchiveEntry | undefined {
  const key = pathKey(path);
  return archive.entries.find((e) => !e.dir && pathKey(e.path) === key);
}

export async function catEntry(path: string, entryPath: string): Promise<Uint8Array> {
  return withArchive(path, async (archive) => {
    const entry = findEntry(archive, entryPath);
    if (!entry) fail('not-found', `no file ${entryPath} in the archive`);
    return archive.read(entry);
  });
}

export interface ExtractOptions {
  globs?: readonly string[];
  onProgress?: ProgressFn;
  onWarning?: (message: string) => void;
  signal?: AbortSignal;
}

export interface ExtractResult {
  files: number;
  bytes: number;
  refused: string[];
}

/**
 * Extract the archive's files under `target`. Names that would climb out (`..`, absolute, drive letters)
 * are refused with a warning and the rest goes on. Files are read and written a few at a time, so memory
 * stays bounded by the largest files in flight, not by the archive.
 */
export async function extractArchive(path: string, target: string, options: ExtractOptions = {}): Promise<ExtractResult> {
  return withArchive(path, (archive) => extractEntries(archive, archive.entries, target, options));
}

export async function extractEntries(
  archive: Archive,
  entries: readonly ArchiveEntry[],
  target: string,
  options: ExtractOptions = {},
): Promise<ExtractResult> {
  const match = pathMatcher(options.globs);
  const root = resolve(target);
  const todo = entries.filter((e) => !e.dir && match(e.path));
  const result: ExtractResult = { files: 0, bytes: 0, refused: [] };
  const made = new Set<string>();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < todo.length) {
      options.signal?.throwIfAborted();
      const entry = todo[next++]!;
      const rel = safeRelativePath(entry.path);
      if (rel === null) {
        result.refused.push(entry.path);
        options.onWarning?.(`refused to extract ${JSON.stringify(entry.path)}: it would land outside the target folder`);
      } else {
        const out = join(root, rel);
        const data = await archive.read(entry, (m) => options.onWarning?.(`${entry.path}: ${m}`));
        const dir = dirname(out);
        if (!made.has(dir)) {
          await mkdir(dir, { recursive: true });
          made.add(dir);
        }
        await writeFile(out, data);
        result.files++;
        result.bytes += data.length;
      }
      options.onProgress?.(++done, todo.length, entry.path);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, todo.length) }, worker));
  return result;
}

export interface VerifyResult {
  ok: boolean;
  files: number;
  bytes: number;
  errors: { path: string; message: string }[];
  warnings: { path: string | null; message: string }[];
}

/** Decode every file and check every checksum the format has; corrupt files are listed, not fatal. */
export async function verifyArchive(path: string, onProgress?: ProgressFn): Promise<VerifyResult> {
  return withArchive(path, async (archive) => {
    const result: VerifyResult = { ok: true, files: 0, bytes: 0, errors: [], warnings: archive.warnings.map((message) => ({ path: null, message })) };
    const files = archive.entries.filter((e) => !e.dir);
    let done = 0;
    for (const entry of files) {
      try {
        const data = await archive.read(entry, (message) => result.warnings.push({ path: entry.path, message }));
        result.files++;
        result.bytes += data.length;
      } catch (err) {
        if (!(err instanceof FormatError)) throw err;
        result.errors.push({ path: entry.path, message: err.message });
      }
      onProgress?.(++done, files.length, entry.path);
    }
    result.ok = result.errors.length === 0;
    return result;
  });
}
