import { join, resolve } from 'node:path';
import { FolderWriter, forEachInFlight } from '../io/folder-writer.js';
import { openArchive, detectFormat } from '../formats/index.js';
import type { Archive, ArchiveEntry, ArchiveInfo } from '../formats/index.js';
import { FileSource } from '../io/byte-source.js';
import { FormatError, fail } from '../../shared/errors.js';
import { pathKey, safeRelativePath } from '../../shared/paths.js';
import { pathMatcher } from './globs.js';
import { extractWithWorkers, WorkerStartError } from './extract-pool.js';
import { workersBesideThisThread } from '../io/worker-bundle.js';

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
  /** What the format says the entry is (WAD lump types). */
  type?: string;
}

export function toListedEntry(e: ArchiveEntry): ListedEntry {
  const out: ListedEntry = { path: e.path, size: e.size, packedSize: e.packedSize, method: e.method };
  if (e.dir) out.dir = true;
  if (e.entryType) out.type = e.entryType;
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
  /**
   * Worker threads decoding beside this one (each opens the archive by path): 0 = this thread alone. By
   * default, extractions of at least 16 MiB or 1000 files use one worker per other core (up to 3).
   */
  workers?: number;
}

export interface ExtractResult {
  files: number;
  bytes: number;
  refused: string[];
  /** Worker threads that decoded beside this one (0 = all in this thread). */
  threads?: number;
}

const PARALLEL_BYTES = 16 << 20;
const PARALLEL_FILES = 1000;

interface ExtractPlan {
  items: { entry: ArchiveEntry; out: string }[];
  bytes: number;
}

/** What to extract where; names that would climb out are refused (with a warning) here, once. */
function planExtraction(entries: readonly ArchiveEntry[], target: string, options: ExtractOptions, result: ExtractResult): ExtractPlan {
  const match = pathMatcher(options.globs);
  const root = resolve(target);
  const plan: ExtractPlan = { items: [], bytes: 0 };
  for (const entry of entries) {
    if (entry.dir || !match(entry.path)) continue;
    const rel = safeRelativePath(entry.path);
    if (rel === null) {
      result.refused.push(entry.path);
      options.onWarning?.(`refused to extract ${JSON.stringify(entry.path)}: it would land outside the target folder`);
      continue;
    }
    plan.items.push({ entry, out: join(root, rel) });
    plan.bytes += entry.size;
  }
  return plan;
}

/**
 * Extract the archive's files under `target`. Names that would climb out (`..`, absolute, drive letters)
 * are refused with a warning and the rest goes on. Large extractions run on worker threads (both cores
 * decode), small ones in this thread; either way files are read and written a few at a time, so memory
 * stays bounded by the largest files in flight, not by the archive.
 */
export async function extractArchive(path: string, target: string, options: ExtractOptions = {}): Promise<ExtractResult> {
  return withArchive(path, async (archive) => {
    const result: ExtractResult = { files: 0, bytes: 0, refused: [] };
    const plan = planExtraction(archive.entries, target, options, result);
    const refusedCount = result.refused.length;
    const total = plan.items.length + refusedCount;
    const workers = options.workers ?? (plan.bytes >= PARALLEL_BYTES || plan.items.length >= PARALLEL_FILES ? workersBesideThisThread() : 0);
    if (workers > 0 && plan.items.length > 1) {
      const indexOf = new Map(archive.entries.map((e, i) => [e, i] as const));
      const writer = new FolderWriter();
      let done = refusedCount;
      try {
        await extractWithWorkers({
          archivePath: path,
          items: plan.items.map((it) => ({ index: indexOf.get(it.entry)!, out: it.out, size: it.entry.size })),
          workers,
          signal: options.signal,
          onWarning: options.onWarning,
          local: async (batch) => {
            const done: [number, number][] = [];
            for (const { index, out } of batch) {
              options.signal?.throwIfAborted();
              const entry = archive.entries[index]!;
              const data = await archive.read(entry, (m) => options.onWarning?.(`${entry.path}: ${m}`));
              await writer.write(out, data);
              done.push([index, data.length]);
            }
            return done;
          },
          onFile: (index, bytes) => {
            result.files++;
            result.bytes += bytes;
            options.onProgress?.(++done, total, archive.entries[index]!.path);
          },
        });
        options.signal?.throwIfAborted();
        result.threads = Math.min(workers, plan.items.length);
        return result;
      } catch (err) {
        // Without worker threads (no bundle for them and no esbuild to make one) extract here instead.
        if (!(err instanceof WorkerStartError)) throw err;
      }
    }
    await extractInProcess(archive, plan, total, refusedCount, options, result);
    result.threads = 0;
    return result;
  });
}

async function extractInProcess(archive: Archive, plan: ExtractPlan, total: number, alreadyDone: number, options: ExtractOptions, result: ExtractResult): Promise<void> {
  const writer = new FolderWriter();
  let done = alreadyDone;
  await forEachInFlight(
    plan.items,
    4,
    async ({ entry, out }) => {
      const data = await archive.read(entry, (m) => options.onWarning?.(`${entry.path}: ${m}`));
      await writer.write(out, data);
      result.files++;
      result.bytes += data.length;
      options.onProgress?.(++done, total, entry.path);
    },
    options.signal,
  );
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
