/**
 * HPI v1 extraction without promises and without the directory: each file is decoded from its data
 * offset, size and flag and written synchronously, piece by piece. The main thread writes its batches from
 * the entries; the HPI worker (hpi-extract-worker.ts) is sent a plan of typed arrays and the paths in one
 * string, built once from the directory this thread read, instead of reading the directory again.
 */
import { ChunkScratch } from '../formats/archive.js';
import type { V1Entry } from '../formats/hpi/v1-directory.js';
import { v1PiecesSync, type V1File } from '../formats/hpi/v1-pieces.js';
import type { FileSource } from '../io/byte-source.js';
import type { FolderWriter } from '../io/folder-writer.js';
import type { EntryOutcome } from './extract-pool.js';
import { errorOutcome } from './extract-replies.js';

/** What a thread needs to write the files of an extraction, by position in its list (see extract-pool's ranges). */
export interface V1Plan {
  type: 'hpi-v1-plan';
  key: number;
  offsets: Uint32Array;
  sizes: Uint32Array;
  flags: Uint8Array;
  /** Each file's path below the target (already found safe), one after another; `pathEnds[i]` ends file i's. */
  paths: string;
  pathEnds: Uint32Array;
}

/** The plan of `indices` of the entries, each written at `relative(index)` below the target. */
export function v1Plan(key: number, entries: readonly V1Entry[], indices: readonly number[], relative: (index: number) => string): V1Plan {
  const n = indices.length;
  const offsets = new Uint32Array(n);
  const sizes = new Uint32Array(n);
  const flags = new Uint8Array(n);
  const pathEnds = new Uint32Array(n);
  const paths: string[] = [];
  let end = 0;
  for (let i = 0; i < n; i++) {
    const e = entries[indices[i]!]!;
    offsets[i] = e.dataOffset;
    sizes[i] = e.size;
    flags[i] = e.flag;
    const path = relative(indices[i]!);
    paths.push(path);
    end += path.length;
    pathEnds[i] = end;
  }
  return { type: 'hpi-v1-plan', key, offsets, sizes, flags, paths: paths.join(''), pathEnds };
}

/** A V1File that is refilled for each file (one object for a whole extraction). */
export interface PlannedFile extends V1File {
  path: string;
  dataOffset: number;
  size: number;
  flag: number;
}

/** File `position` of the plan, into `file`. */
export function plannedFile(plan: V1Plan, position: number, file: PlannedFile): PlannedFile {
  file.path = plan.paths.slice(position === 0 ? 0 : plan.pathEnds[position - 1]!, plan.pathEnds[position]!);
  file.dataOffset = plan.offsets[position]!;
  file.size = plan.sizes[position]!;
  file.flag = plan.flags[position]!;
  return file;
}

/**
 * Writes v1 files under one folder. A file that cannot be written there is 'refused'; one that does not
 * decode is 'failed' with keepGoing, else its FormatError is thrown (the caller names the entry).
 */
export class V1Extractor {
  private readonly scratch = new ChunkScratch();
  private readonly read: (offset: number, length: number) => Uint8Array;
  private file: V1File | null = null;
  private onWarning: ((message: string) => void) | undefined;
  private readonly fill = (put: (piece: Uint8Array) => void) =>
    v1PiecesSync(this.read, this.source.size, this.key, this.file!, put, this.scratch, this.onWarning);

  constructor(
    private readonly source: FileSource,
    private readonly key: number,
    private readonly writer: FolderWriter,
    private readonly keepGoing: boolean,
  ) {
    this.read = source.readTransientSync.bind(source);
  }

  /** `file` written to `out`. */
  extract(file: V1File, out: string, onWarning?: (message: string) => void): EntryOutcome {
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
