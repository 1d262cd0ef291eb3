import { resolve } from 'node:path';
import { FolderWriter, firstMissingFolder, removeEmptyFolders } from '../io/folder-writer.js';
import { errorOutcome } from './extract-replies.js';
import { withArchive } from '../formats/index.js';
import { sniffHpi, type HpiKind } from '../formats/hpi/header.js';
import { FileSource } from '../io/byte-source.js';
import type { Archive, ArchiveEntry } from '../formats/index.js';
import { ChunkScratch, entryChunks } from '../formats/archive.js';
import { FormatError, fail } from '../../shared/errors.js';
import { safeRelativePath } from '../../shared/paths.js';
import { pathMatcher } from './globs.js';
import { EarlyWorkers, EntryFailure, extractWithWorkers, WorkerStartError, type EntryOutcome } from './extract-pool.js';
import { bundledWorker, workersBesideThisThread } from '../io/worker-bundle.js';
import { HpiV1Archive } from '../formats/hpi/v1-reader.js';
import { plannedOut, plannedPath, plannedWrite, spanPlan, v1Plan, type SpanPlan, type V1Plan } from './extract-plan.js';
import type { ProgressFn } from './archive-service.js';

/** An archive's files written under a folder (the CLI's `extract`, the studio's Extract…, a mod opened from an archive). */

export interface ExtractOptions {
  globs?: readonly string[];
  onProgress?: ProgressFn;
  onWarning?: (message: string) => void;
  signal?: AbortSignal;
  /**
   * Worker threads decoding beside this one (each opens the archive by path): 0 = this thread alone. By
   * default one worker per other core (up to 3) when there is enough to decode (see `worthWorkers`).
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

export const PARALLEL_BYTES = 16 << 20;
export const PARALLEL_FILES = 1000;
/**
 * Stored entries cost no decoding, only their opens and writes (about 60 µs a small file into tmpfs),
 * while a worker takes 0.1-0.15 s to start (the planned one, which reads no directory): it only pays from
 * about this many files. On the 3,000-file PAK corpus the planned worker beside a stored extraction was
 * ready when this thread had written most of the files; it added 0.1-0.2 s of CPU and 0.02-0.05 s of wall
 * time, started with the extraction or before the archive was opened.
 */
export const PARALLEL_STORED_FILES = 10_000;

/**
 * Whether the entries at `indices` are worth worker threads: 16 MiB or 1000 files to decode, or
 * PARALLEL_STORED_FILES of any kind. An entry stored as is ('stored') has nothing to decode.
 */
export function worthWorkers(entries: readonly ArchiveEntry[], indices: readonly number[]): boolean {
  if (indices.length >= PARALLEL_STORED_FILES) return true;
  let files = 0;
  let bytes = 0;
  for (const index of indices) {
    const entry = entries[index]!;
    if (entry.method === 'stored') continue;
    files++;
    bytes += entry.size;
  }
  return bytes >= PARALLEL_BYTES || files >= PARALLEL_FILES;
}

interface ExtractPlan {
  /** The entries to write, by index in stored order. */
  indices: number[];
  /** Each one's path below the target, as found safe (by position in `indices`). */
  relatives: string[];
  root: string;
}

/** Where the plan's entry at `position` is written: made when needed, not held for the whole plan. */
function outPath(plan: ExtractPlan, position: number): string {
  return plannedOut(plan.root, plan.relatives[position]!);
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
  const plan: ExtractPlan = { indices: [], relatives: [], root };
  entries.forEach((entry, index) => {
    if (entry.dir || !match(entry.path)) return;
    const relative = safeRelativePath(entry.path);
    if (relative === null) {
      result.refused.push(entry.path);
      options.onWarning?.(`refused to extract ${JSON.stringify(entry.path)}: it would land outside the target folder`);
      return;
    }
    plan.indices.push(index);
    plan.relatives.push(relative);
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
    const outcome = errorOutcome(err, options.keepGoing === true);
    if (outcome) return outcome;
    if (err instanceof FormatError) throw new EntryFailure(entry.path, err);
    throw err;
  }
}

/** The planned worker (planned-extract-worker.ts): sent a plan, it reads no directory of its own. */
export const plannedWorkerScript = () => bundledWorker(new URL('./planned-extract-worker.ts', import.meta.url));

/** An HPI v1 archive read from a file: extracted synchronously by this thread, and by the planned worker from a plan. */
function hpiV1FromFile(archive: Archive): (HpiV1Archive & { source: FileSource }) | null {
  return archive instanceof HpiV1Archive && archive.source instanceof FileSource
    ? (archive as HpiV1Archive & { source: FileSource })
    : null;
}

/** The plan the planned worker is sent (HPI v1, or the spans of every planned entry), or null: the format-neutral worker. */
function workerPlan(archive: Archive, plan: ExtractPlan): V1Plan | SpanPlan | null {
  const hpi = hpiV1FromFile(archive);
  if (hpi) return v1Plan(hpi.cipherKey, hpi.entries, plan.indices, plan.relatives);
  return archive.source instanceof FileSource ? spanPlan(archive, plan.indices, plan.relatives) : null;
}

/**
 * How this thread writes the plan's file at a position: from the worker plan as the workers do,
 * synchronously (no promise per file or piece), else through the archive's stream.
 */
type PositionExtraction = (position: number) => Promise<EntryOutcome> | EntryOutcome;

function positionExtraction(
  archive: Archive,
  plan: ExtractPlan,
  options: ExtractOptions,
  planned: V1Plan | SpanPlan | null,
): PositionExtraction {
  const writer = new FolderWriter(plan.root);
  if (!planned) {
    const scratch = new ChunkScratch();
    return (position) => {
      const entry = archive.entries[plan.indices[position]!]!;
      return extractEntry(archive, entry, outPath(plan, position), writer, options, scratch);
    };
  }
  let path = '';
  const warn = (m: string) => options.onWarning?.(`${path}: ${m}`);
  const write = plannedWrite(planned, archive.source as FileSource, writer, options.keepGoing === true, warn);
  return (position) => {
    path = archive.entries[plan.indices[position]!]!.path;
    try {
      return write(position, path, plannedOut(plan.root, plannedPath(planned, position)));
    } catch (err) {
      if (err instanceof FormatError) throw new EntryFailure(path, err);
      throw err;
    }
  };
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
  const early = await startEarly(path, target, options);
  try {
    return await extractOpened(path, target, options, early);
  } finally {
    await early?.close();
  }
}

/**
 * Workers started before the directory is read, when the extraction will surely want them: every file of
 * an HPI archive (compressed chunks: HPIPack always compresses) of at least PARALLEL_BYTES. Their start then
 * runs beside this thread's own opening of the archive rather than after it; a plan that wants none (or
 * fewer) ends them. Other formats wait for `worthWorkers`, as their entries are often stored.
 */
async function startEarly(path: string, target: string, options: ExtractOptions): Promise<EarlyWorkers | null> {
  if (options.workers === 0 || (options.globs?.length ?? 0) > 0) return null;
  const head = await sniffFile(path);
  if (!head || (head.kind !== 'v1' && head.kind !== 'v2') || head.size < PARALLEL_BYTES) return null;
  return new EarlyWorkers(
    { path, root: resolve(target), keepGoing: options.keepGoing === true },
    options.workers ?? workersBesideThisThread(),
    head.kind === 'v1' ? plannedWorkerScript : undefined,
  );
}

/** The HPI sniffer's verdict on a file and its size; null when it cannot be read (the extraction reports that). */
async function sniffFile(path: string): Promise<{ kind: HpiKind | null; size: number } | null> {
  const source = await FileSource.open(path).catch(() => null);
  if (!source) return null;
  try {
    return { kind: await sniffHpi(source), size: source.size };
  } catch {
    return null;
  } finally {
    await source.close();
  }
}

async function extractOpened(path: string, target: string, options: ExtractOptions, early: EarlyWorkers | null): Promise<ExtractResult> {
  return withArchive(path, async (archive) => {
    const result: ExtractResult = { files: 0, bytes: 0, refused: [], failed: [] };
    const plan = planExtraction(archive.entries, target, options, result);
    const refusedCount = result.refused.length;
    const total = plan.indices.length + refusedCount;
    const workers = options.workers ?? (worthWorkers(archive.entries, plan.indices) ? workersBesideThisThread() : 0);
    const created = await firstMissingFolder(plan.root);
    try {
      const planned = workerPlan(archive, plan);
      const extractHere = positionExtraction(archive, plan, options, planned);
      if (workers > 0 && plan.indices.length > 1) {
        let done = refusedCount;
        try {
          await extractWithWorkers({
            archivePath: path,
            root: plan.root,
            keepGoing: options.keepGoing === true,
            indices: plan.indices,
            sizeOf: (index) => archive.entries[index]!.size,
            outOf: (_index, position) => outPath(plan, position),
            workers,
            early: early ?? undefined,
            script: planned ? plannedWorkerScript : undefined,
            // The planned worker is told each file's place and path once, then sent ranges of them.
            prelude: planned ?? undefined,
            ranges: planned !== null,
            signal: options.signal,
            onWarning: options.onWarning,
            local: async (from, to) => {
              const outcomes: [number, EntryOutcome][] = [];
              for (let position = from; position < to; position++) {
                options.signal?.throwIfAborted();
                outcomes.push([plan.indices[position]!, await extractHere(position)]);
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
      await extractInProcess(archive, plan, total, refusedCount, options, result, extractHere);
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
  extractHere: PositionExtraction,
): Promise<void> {
  let done = alreadyDone;
  for (let position = 0; position < plan.indices.length; position++) {
    options.signal?.throwIfAborted();
    const entry = archive.entries[plan.indices[position]!]!;
    record(result, entry.path, await extractHere(position), options);
    options.onProgress?.(++done, total, entry.path);
  }
}
