import { join, resolve } from 'node:path';
import { FolderWriter, firstMissingFolder, refusalReason, removeEmptyFolders } from '../io/folder-writer.js';
import { detectFormat, withArchive } from '../formats/index.js';
import type { Archive, ArchiveEntry, FormatId } from '../formats/index.js';
import { ChunkScratch, entryChunks } from '../formats/archive.js';
import type { ArchiveReport } from '../../shared/archive-info.js';
import { taMountVerdict } from '../vfs/rules/ta-mount.js';
import { FileSource } from '../io/byte-source.js';
import { FormatError, fail } from '../../shared/errors.js';
import { pathKey, safeRelativePath } from '../../shared/paths.js';
import { pathMatcher } from './globs.js';
import { EntryFailure, extractWithWorkers, WorkerStartError, type EntryOutcome } from './extract-pool.js';
import { workersBesideThisThread } from '../io/worker-bundle.js';

/**
 * Single-archive operations shared by the CLI (`modpak info/list/extract/cat/verify`) and the studio's
 * Archive screen. Everything goes through the Archive interface, so every format gets them for free.
 */

export type ProgressFn = (done: number, total: number, label?: string) => void;

export { withArchive };

/** An open archive with what recognising it said (other formats that fit the bytes, a note). */
export interface OpenedArchive {
  archive: Archive;
  alternatives: FormatId[];
  note?: string;
}

/** Open an archive once, keeping what detection found (for `info`). */
export async function openDetected(path: string): Promise<OpenedArchive> {
  const source = await FileSource.open(path);
  try {
    const { engine, alternatives, note } = await detectFormat(source);
    return { archive: await engine.open(source), alternatives, note };
  } catch (err) {
    await source.close();
    throw err;
  }
}

/** What `modpak info` and the Archive screen show: the format's facts, TA 3.1c's verdict for HPI, detection, warnings. */
export function reportOf({ archive, alternatives, note }: OpenedArchive): ArchiveReport {
  const info = archive.info();
  const report: ArchiveReport = { ...info };
  if (info.format === 'hpi') report.taMount = taMountVerdict(info);
  if (alternatives.length > 0) report.alsoMatches = alternatives;
  if (note) report.note = note;
  if (archive.warnings.length > 0) report.warnings = [...archive.warnings];
  return report;
}

export async function archiveInfo(path: string): Promise<ArchiveReport> {
  const opened = await openDetected(path);
  try {
    return reportOf(opened);
  } finally {
    await opened.archive.close();
  }
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

/**
 * An entry's bytes, or its first `maxBytes` of them (the rest is not decoded), with its full size. Pieces
 * are gathered up to the limit only, so a preview of a huge (or hostile) entry stays small.
 */
export async function catEntry(path: string, entryPath: string, maxBytes = Infinity): Promise<Uint8Array> {
  return (await catEntryHead(path, entryPath, maxBytes)).bytes;
}

export async function catEntryHead(path: string, entryPath: string, maxBytes: number): Promise<{ bytes: Uint8Array; size: number }> {
  return withArchive(path, (archive) => entryHead(archive, entryPath, maxBytes));
}

/** `catEntryHead` on an archive already open (the host's open-archive cache). */
export async function entryHead(archive: Archive, entryPath: string, maxBytes: number): Promise<{ bytes: Uint8Array; size: number }> {
  const entry = findEntry(archive, entryPath);
  if (!entry) fail('not-found', `no file ${entryPath} in the archive`);
  const parts: Uint8Array[] = [];
  let held = 0;
  for await (const chunk of entryChunks(archive, entry)) {
    const take = Math.min(chunk.length, maxBytes - held);
    parts.push(take === chunk.length ? chunk : chunk.subarray(0, take));
    held += take;
    if (held >= maxBytes) break;
  }
  const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, held);
  return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), size: held >= maxBytes ? entry.size : held };
}

/** An entry's bytes written piece by piece to `write` (the CLI's `cat`): never held whole. */
export async function catEntryTo(path: string, entryPath: string, write: (bytes: Uint8Array) => Promise<void>): Promise<void> {
  await withArchive(path, async (archive) => {
    const entry = findEntry(archive, entryPath);
    if (!entry) fail('not-found', `no file ${entryPath} in the archive`);
    for await (const chunk of entryChunks(archive, entry)) await write(chunk);
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
  /** An entry that does not decode is listed in `failed` and the rest goes on (else the first one stops). */
  keepGoing?: boolean;
}

export interface ExtractResult {
  files: number;
  bytes: number;
  refused: string[];
  /** Entries that did not decode (with keepGoing), with why. */
  failed: { path: string; message: string }[];
  /** Worker threads that decoded beside this one (0 = all in this thread). */
  threads?: number;
}

const PARALLEL_BYTES = 16 << 20;
const PARALLEL_FILES = 1000;

interface ExtractPlan {
  /** The entries to write, by index in stored order. */
  indices: number[];
  bytes: number;
  root: string;
}

/** Where an entry the plan kept is written (its name already found safe); made when needed, not held for the whole plan. */
function outPath(plan: ExtractPlan, entry: ArchiveEntry): string {
  return join(plan.root, safeRelativePath(entry.path)!);
}

/** `PATH: message`, unless the reader already named the entry. */
export function namedOnce(path: string, message: string): string {
  return message.startsWith(`${path}: `) ? message : `${path}: ${message}`;
}

/** A stopped extraction's one line: the entry that failed, and what was written before it. */
export function stoppedMessage(path: string, message: string, written: number): string {
  return `${namedOnce(path, message)} (stopped after ${written} file${written === 1 ? '' : 's'} written; --keep-going extracts every good entry)`;
}

/** What to extract where; names that would climb out are refused (with a warning) here, once. */
function planExtraction(entries: readonly ArchiveEntry[], target: string, options: ExtractOptions, result: ExtractResult): ExtractPlan {
  const match = pathMatcher(options.globs);
  const root = resolve(target);
  const plan: ExtractPlan = { indices: [], bytes: 0, root };
  entries.forEach((entry, index) => {
    if (entry.dir || !match(entry.path)) return;
    if (safeRelativePath(entry.path) === null) {
      result.refused.push(entry.path);
      options.onWarning?.(`refused to extract ${JSON.stringify(entry.path)}: it would land outside the target folder`);
      return;
    }
    plan.indices.push(index);
    plan.bytes += entry.size;
  });
  return plan;
}

/** Decode one entry into its file, chunk by chunk; a refusal or (with keepGoing) a decoding failure is an outcome, not an error. */
async function extractEntry(
  archive: Archive,
  entry: ArchiveEntry,
  out: string,
  writer: FolderWriter,
  options: ExtractOptions,
  scratch: ChunkScratch,
): Promise<EntryOutcome> {
  try {
    // The writer writes each piece before asking for the next, so pieces may live in the scratch.
    const bytes = await writer.write(
      out,
      entryChunks(archive, entry, (m) => options.onWarning?.(`${entry.path}: ${m}`), scratch),
    );
    return { kind: 'file', bytes };
  } catch (err) {
    const reason = refusalReason(err);
    if (reason !== null) return { kind: 'refused', reason };
    if (err instanceof FormatError) {
      if (options.keepGoing) return { kind: 'failed', message: err.message };
      throw new EntryFailure(entry.path, err);
    }
    throw err;
  }
}

/** Count one outcome into the result (and say so, for refusals and failures). */
function record(result: ExtractResult, path: string, outcome: EntryOutcome, options: ExtractOptions): void {
  if (outcome.kind === 'file') {
    result.files++;
    result.bytes += outcome.bytes;
  } else if (outcome.kind === 'refused') {
    result.refused.push(path);
    options.onWarning?.(`refused to extract ${JSON.stringify(path)}: ${outcome.reason}`);
  } else {
    result.failed.push({ path, message: outcome.message });
    options.onWarning?.(`failed to extract ${JSON.stringify(path)}: ${outcome.message}`);
  }
}

/**
 * Extract the archive's files under `target`. Names that would climb out (`..`, absolute, drive letters),
 * that a file and a folder share, or that meet a symbolic link already in the target are refused with a
 * warning and the rest goes on. An entry that does not decode stops the extraction (its message says how
 * many files were written) or, with keepGoing, is listed and skipped. Large extractions run on worker
 * threads (both cores decode), small ones in this thread; either way entries are decoded and written a
 * chunk at a time, so memory stays bounded by the chunks in flight, not by the entries or the archive.
 */
export async function extractArchive(path: string, target: string, options: ExtractOptions = {}): Promise<ExtractResult> {
  return withArchive(path, async (archive) => {
    const result: ExtractResult = { files: 0, bytes: 0, refused: [], failed: [] };
    const plan = planExtraction(archive.entries, target, options, result);
    const refusedCount = result.refused.length;
    const total = plan.indices.length + refusedCount;
    const workers =
      options.workers ?? (plan.bytes >= PARALLEL_BYTES || plan.indices.length >= PARALLEL_FILES ? workersBesideThisThread() : 0);
    const created = await firstMissingFolder(plan.root);
    try {
      if (workers > 0 && plan.indices.length > 1) {
        const writer = new FolderWriter(plan.root);
        const scratch = new ChunkScratch();
        let done = refusedCount;
        try {
          await extractWithWorkers({
            archivePath: path,
            root: plan.root,
            keepGoing: options.keepGoing === true,
            indices: plan.indices,
            sizeOf: (index) => archive.entries[index]!.size,
            outOf: (index) => outPath(plan, archive.entries[index]!),
            workers,
            signal: options.signal,
            onWarning: options.onWarning,
            local: async (batch) => {
              const outcomes: [number, EntryOutcome][] = [];
              for (const { index, out } of batch) {
                options.signal?.throwIfAborted();
                outcomes.push([index, await extractEntry(archive, archive.entries[index]!, out, writer, options, scratch)]);
              }
              return outcomes;
            },
            onFile: (index, outcome) => {
              const entry = archive.entries[index]!;
              record(result, entry.path, outcome, options);
              options.onProgress?.(++done, total, entry.path);
            },
          });
          options.signal?.throwIfAborted();
          result.threads = Math.min(workers, plan.indices.length);
          return result;
        } catch (err) {
          // Without worker threads (no bundle for them and no esbuild to make one) extract here instead.
          if (!(err instanceof WorkerStartError)) throw err;
        }
      }
      await extractInProcess(archive, plan, total, refusedCount, options, result);
      result.threads = 0;
      return result;
    } catch (err) {
      // A failed extraction into a new folder leaves no empty folders behind (the files it wrote stay).
      if (created !== null) await removeEmptyFolders(created);
      // The stopping entry's message says how many files were written before it.
      if (err instanceof EntryFailure)
        fail(err.failure.code, stoppedMessage(err.path, err.failure.message, result.files), err.failure.details);
      throw err;
    }
  });
}

/** One entry after another: reads come from the block read ahead and writes are synchronous, so more lanes would only interleave them. */
async function extractInProcess(
  archive: Archive,
  plan: ExtractPlan,
  total: number,
  alreadyDone: number,
  options: ExtractOptions,
  result: ExtractResult,
): Promise<void> {
  const writer = new FolderWriter(plan.root);
  const scratch = new ChunkScratch();
  let done = alreadyDone;
  for (const index of plan.indices) {
    options.signal?.throwIfAborted();
    const entry = archive.entries[index]!;
    record(result, entry.path, await extractEntry(archive, entry, outPath(plan, entry), writer, options, scratch), options);
    options.onProgress?.(++done, total, entry.path);
  }
}

export interface VerifyResult {
  ok: boolean;
  files: number;
  bytes: number;
  errors: { path: string; message: string }[];
  warnings: { path: string | null; message: string }[];
}

export interface VerifyOptions {
  onProgress?: ProgressFn;
  /** Worker threads decoding beside this one (0 = this thread alone); by default as for extraction. */
  workers?: number;
}

/** One entry decoded a piece at a time and dropped: verifying a 1 GiB entry holds one chunk, not the entry. */
async function verifyEntry(
  archive: Archive,
  entry: ArchiveEntry,
  onWarning: (message: string) => void,
  scratch: ChunkScratch,
): Promise<EntryOutcome> {
  try {
    let bytes = 0;
    for await (const chunk of entryChunks(archive, entry, onWarning, scratch)) bytes += chunk.length;
    return { kind: 'file', bytes };
  } catch (err) {
    if (!(err instanceof FormatError)) throw err;
    return { kind: 'failed', message: err.message };
  }
}

/**
 * Decode every file and check every checksum the format has; corrupt files are listed, not fatal. Large
 * archives are decoded on every core (worker threads take batches of entries, as extraction does); errors
 * and warnings are reported in stored order whichever thread found them.
 */
export async function verifyArchive(path: string, options: VerifyOptions | ProgressFn = {}): Promise<VerifyResult> {
  const { onProgress, workers: asked } = typeof options === 'function' ? { onProgress: options, workers: undefined } : options;
  return withArchive(path, async (archive) => {
    const result: VerifyResult = {
      ok: true,
      files: 0,
      bytes: 0,
      errors: [],
      warnings: archive.warnings.map((message) => ({ path: null, message })),
    };
    const files: number[] = [];
    let bytes = 0;
    archive.entries.forEach((e, i) => {
      if (e.dir) return;
      files.push(i);
      bytes += e.size;
    });
    const outcomes = new Map<number, EntryOutcome>();
    const scratch = new ChunkScratch();
    const warnings: { index: number; message: string }[] = [];
    let done = 0;
    const settle = (index: number, outcome: EntryOutcome) => {
      outcomes.set(index, outcome);
      onProgress?.(++done, files.length, archive.entries[index]!.path);
    };
    const workers = asked ?? (bytes >= PARALLEL_BYTES || files.length >= PARALLEL_FILES ? workersBesideThisThread() : 0);
    let inProcess = true;
    if (workers > 0 && files.length > 1) {
      try {
        await extractWithWorkers({
          archivePath: path,
          root: '',
          keepGoing: true,
          verify: true,
          indices: files,
          sizeOf: (index) => archive.entries[index]!.size,
          workers,
          onWarning: (message, index) => warnings.push({ index: index ?? -1, message }),
          local: async (batch) => {
            const out: [number, EntryOutcome][] = [];
            for (const { index } of batch)
              out.push([
                index,
                await verifyEntry(archive, archive.entries[index]!, (message) => warnings.push({ index, message }), scratch),
              ]);
            return out;
          },
          onFile: settle,
        });
        inProcess = false;
      } catch (err) {
        if (!(err instanceof WorkerStartError)) throw err;
        outcomes.clear();
        warnings.length = 0;
        done = 0;
      }
    }
    if (inProcess) {
      for (const index of files)
        settle(index, await verifyEntry(archive, archive.entries[index]!, (message) => warnings.push({ index, message }), scratch));
    }
    // Stored order, whichever thread decoded what (a stable sort keeps each entry's warnings in order).
    warnings.sort((a, b) => a.index - b.index);
    for (const { index, message } of warnings) result.warnings.push({ path: archive.entries[index]?.path ?? null, message });
    for (const index of files) {
      const outcome = outcomes.get(index);
      if (outcome?.kind === 'file') {
        result.files++;
        result.bytes += outcome.bytes;
      } else if (outcome?.kind === 'failed') result.errors.push({ path: archive.entries[index]!.path, message: outcome.message });
    }
    result.ok = result.errors.length === 0;
    return result;
  });
}
