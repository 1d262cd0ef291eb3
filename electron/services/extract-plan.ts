/**
 * What an extraction thread is told once, before its first range of files (see extract-pool.ts's
 * `prelude`): each file's place as typed arrays and every path in one string, so the planned worker
 * (planned-extract-worker.ts) reads no directory and no object per file crosses between the threads. Two
 * kinds: HPI v1's files (data offset, size, flag and the cipher key) and spans (the PAK family, Pangya).
 * This thread writes its share of a planned extraction from the same plan, the same way.
 */
import { join, sep } from 'node:path';
import type { Archive } from '../formats/index.js';
import { ChunkScratch } from '../formats/archive.js';
import { spanPiecesSync, type EntrySpan, type SpanMethod } from '../formats/entry-span.js';
import type { V1Entry } from '../formats/hpi/v1-directory.js';
import { v1PiecesSync, type V1File } from '../formats/hpi/v1-pieces.js';
import type { FileSource } from '../io/byte-source.js';
import type { FolderWriter } from '../io/folder-writer.js';
import type { EntryOutcome } from './extract-pool.js';
import { errorOutcome } from './extract-replies.js';

/** Each file's path below the target (already found safe), one after another; `pathEnds[i]` ends file i's. */
export interface PlannedPaths {
  paths: string;
  pathEnds: Uint32Array;
}

/** The planned files' paths below the target (`relatives`, by position in the plan), joined. */
export function plannedPaths(relatives: readonly string[]): PlannedPaths {
  const pathEnds = new Uint32Array(relatives.length);
  let end = 0;
  for (let i = 0; i < relatives.length; i++) {
    end += relatives[i]!.length;
    pathEnds[i] = end;
  }
  return { paths: relatives.join(''), pathEnds };
}

export function plannedPath(plan: PlannedPaths, position: number): string {
  return plan.paths.slice(position === 0 ? 0 : plan.pathEnds[position - 1]!, plan.pathEnds[position]!);
}

/**
 * Where a file of the plan is written: its path (safe, normalised, '/' between names) below `root` (a
 * resolved folder). Where '/' is the separator this is what path.join gives, without normalising again a
 * path that already is, for each of an extraction's files.
 */
export function plannedOut(root: string, relative: string): string {
  if (sep !== '/') return join(root, relative);
  return root.endsWith('/') ? root + relative : `${root}/${relative}`;
}

/** The files of an archive whose entries are each one run of its file (EntrySpan), by position. */
export interface SpanPlan extends PlannedPaths {
  type: 'span-plan';
  offsets: Float64Array;
  packedSizes: Float64Array;
  sizes: Float64Array;
  methods: Uint8Array;
}

/**
 * The span plan of `indices`, or null when the archive keeps some of them otherwise (or one's place is
 * wrong: the archive's own reads then meet and report it, entry by entry).
 */
export function spanPlan(archive: Archive, indices: readonly number[], relatives: readonly string[]): SpanPlan | null {
  if (!archive.span) return null;
  const n = indices.length;
  const offsets = new Float64Array(n);
  const packedSizes = new Float64Array(n);
  const sizes = new Float64Array(n);
  const methods = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    let span: EntrySpan | null;
    try {
      span = archive.span(archive.entries[indices[i]!]!);
    } catch {
      return null;
    }
    if (!span) return null;
    offsets[i] = span.offset;
    packedSizes[i] = span.packedSize;
    sizes[i] = span.size;
    methods[i] = span.method;
  }
  return { type: 'span-plan', offsets, packedSizes, sizes, methods, ...plannedPaths(relatives) };
}

/** File `position` of the plan, into `span` (one object refilled for a whole range). */
export function plannedSpan(plan: SpanPlan, position: number, span: EntrySpan): EntrySpan {
  span.offset = plan.offsets[position]!;
  span.packedSize = plan.packedSizes[position]!;
  span.size = plan.sizes[position]!;
  span.method = plan.methods[position]! as SpanMethod;
  return span;
}

/** How a file's pieces are made for SyncExtractor: each handed to `put` before the next is made. */
export type SyncPieces<F> = (file: F, put: (piece: Uint8Array) => void, onWarning?: (message: string) => void) => void;

/**
 * Writes files under one folder synchronously (no promise per file or piece), their pieces made by
 * `pieces`. A file that cannot be written there is 'refused'; one that does not decode is 'failed' with
 * keepGoing, else its FormatError is thrown (the caller names the entry).
 */
export class SyncExtractor<F> {
  private file: F | null = null;
  private onWarning: ((message: string) => void) | undefined;
  private readonly fill = (put: (piece: Uint8Array) => void) => this.pieces(this.file!, put, this.onWarning);

  constructor(
    private readonly writer: FolderWriter,
    private readonly keepGoing: boolean,
    private readonly pieces: SyncPieces<F>,
  ) {}

  /** `file` written to `out`. */
  extract(file: F, out: string, onWarning?: (message: string) => void): EntryOutcome {
    this.file = file;
    this.onWarning = onWarning;
    try {
      return { kind: 'file', bytes: this.writer.writeSync(out, this.fill) };
    } catch (err) {
      const outcome = errorOutcome(err, this.keepGoing);
      if (outcome) return outcome;
      throw err;
    } finally {
      this.file = null;
    }
  }
}

/** Spans written from `source`. */
export function spanExtractor(source: FileSource, writer: FolderWriter, keepGoing: boolean): SyncExtractor<EntrySpan> {
  const read = source.readTransientSync.bind(source);
  const scratch = new ChunkScratch();
  return new SyncExtractor<EntrySpan>(writer, keepGoing, (span, put) => spanPiecesSync(read, span, put, scratch));
}

/** An HPI v1 extraction's files, decoded from their data offset, size and flag alone (v1-pieces.ts). */
export interface V1Plan extends PlannedPaths {
  type: 'hpi-v1-plan';
  key: number;
  offsets: Uint32Array;
  sizes: Uint32Array;
  flags: Uint8Array;
}

/** The plan of `indices` of the entries, each written at `relatives[position]` below the target. */
export function v1Plan(key: number, entries: readonly V1Entry[], indices: readonly number[], relatives: readonly string[]): V1Plan {
  const n = indices.length;
  const offsets = new Uint32Array(n);
  const sizes = new Uint32Array(n);
  const flags = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const e = entries[indices[i]!]!;
    offsets[i] = e.dataOffset;
    sizes[i] = e.size;
    flags[i] = e.flag;
  }
  return { type: 'hpi-v1-plan', key, offsets, sizes, flags, ...plannedPaths(relatives) };
}

/** A V1File that is refilled for each file (one object for a whole extraction). */
export interface PlannedFile extends V1File {
  path: string;
  dataOffset: number;
  size: number;
  flag: number;
}

/** File `position` of the plan, at `path`, into `file`. */
export function plannedFile(plan: V1Plan, position: number, path: string, file: PlannedFile): PlannedFile {
  file.path = path;
  file.dataOffset = plan.offsets[position]!;
  file.size = plan.sizes[position]!;
  file.flag = plan.flags[position]!;
  return file;
}

/** v1 files written from `source` under the cipher `key`. */
export function v1Extractor(source: FileSource, key: number, writer: FolderWriter, keepGoing: boolean): SyncExtractor<V1File> {
  const read = source.readTransientSync.bind(source);
  const scratch = new ChunkScratch();
  return new SyncExtractor<V1File>(writer, keepGoing, (file, put, onWarning) =>
    v1PiecesSync(read, source.size, key, file, put, scratch, onWarning),
  );
}

/** Writes the plan's file at a position (named `path` in messages) to `out`, synchronously. */
export type PlannedWrite = (position: number, path: string, out: string) => EntryOutcome;

/** How a thread writes `plan`'s files from `source` under `writer`: one implementation for this thread and the workers. */
export function plannedWrite(
  plan: V1Plan | SpanPlan,
  source: FileSource,
  writer: FolderWriter,
  keepGoing: boolean,
  onWarning: (message: string) => void,
): PlannedWrite {
  if (plan.type === 'hpi-v1-plan') {
    const v1 = v1Extractor(source, plan.key, writer, keepGoing);
    const file: PlannedFile = { path: '', dataOffset: 0, size: 0, flag: 0 };
    return (position, path, out) => v1.extract(plannedFile(plan, position, path, file), out, onWarning);
  }
  const spans = spanExtractor(source, writer, keepGoing);
  const span: EntrySpan = { offset: 0, packedSize: 0, size: 0, method: 0 };
  return (position, _path, out) => spans.extract(plannedSpan(plan, position, span), out);
}
