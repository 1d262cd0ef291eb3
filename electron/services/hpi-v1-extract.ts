/**
 * HPI v1 extraction without promises and without the directory: each file is decoded from its data
 * offset, size and flag (a plan of typed arrays, built once from the directory this thread read) and
 * written synchronously, piece by piece. The main thread's batches and the HPI worker
 * (hpi-extract-worker.ts) both run it; the worker is sent the plan instead of reading the directory again.
 */
import { FormatError } from '../../shared/errors.js';
import { ChunkScratch } from '../formats/archive.js';
import type { HpiV1Archive } from '../formats/hpi/v1-reader.js';
import { v1PiecesSync, type V1File } from '../formats/hpi/v1-pieces.js';
import type { FileSource } from '../io/byte-source.js';
import { FolderWriter, refusalReason } from '../io/folder-writer.js';
import type { EntryOutcome } from './extract-pool.js';

/** What a thread needs to decode any file of a v1 archive, by entry index. */
export interface V1Plan {
  type: 'hpi-v1-plan';
  key: number;
  offsets: Uint32Array;
  sizes: Uint32Array;
  flags: Uint8Array;
}

/** The plan of an opened archive (folders get size 0; they are never asked for). */
export function v1Plan(archive: HpiV1Archive): V1Plan {
  const n = archive.entries.length;
  const plan: V1Plan = {
    type: 'hpi-v1-plan',
    key: archive.cipherKey,
    offsets: new Uint32Array(n),
    sizes: new Uint32Array(n),
    flags: new Uint8Array(n),
  };
  for (let i = 0; i < n; i++) {
    const e = archive.entries[i]!;
    plan.offsets[i] = e.dataOffset;
    plan.sizes[i] = e.size;
    plan.flags[i] = e.flag;
  }
  return plan;
}

/** A V1File that is refilled for each entry (one object for a whole extraction). */
interface PlannedFile extends V1File {
  path: string;
  dataOffset: number;
  size: number;
  flag: number;
}

/**
 * Writes planned entries under one folder. An entry that cannot be written there is 'refused'; one that
 * does not decode is 'failed' with keepGoing, else its FormatError is thrown (the caller names the entry).
 */
export class V1Extractor {
  private readonly scratch = new ChunkScratch();
  private readonly file: PlannedFile = { path: '', dataOffset: 0, size: 0, flag: 0 };
  private readonly read: (offset: number, length: number) => Uint8Array;
  private readonly put = (fill: (piece: Uint8Array) => void) =>
    v1PiecesSync(this.read, this.source.size, this.plan.key, this.file, fill, this.scratch, this.onWarning);
  private onWarning: ((message: string) => void) | undefined;

  constructor(
    private readonly source: FileSource,
    private readonly plan: V1Plan,
    private readonly writer: FolderWriter,
    private readonly keepGoing: boolean,
  ) {
    this.read = source.readTransientSync.bind(source);
  }

  /** Entry `index` written to `out`; `path` names it in messages. */
  extract(index: number, out: string, path: string, onWarning?: (message: string) => void): EntryOutcome {
    const file = this.file;
    file.path = path;
    file.dataOffset = this.plan.offsets[index]!;
    file.size = this.plan.sizes[index]!;
    file.flag = this.plan.flags[index]!;
    this.onWarning = onWarning;
    try {
      return { kind: 'file', bytes: this.writer.writeSync(out, this.put) };
    } catch (err) {
      const reason = refusalReason(err);
      if (reason !== null) return { kind: 'refused', reason };
      if (err instanceof FormatError && this.keepGoing) return { kind: 'failed', message: err.message };
      throw err;
    }
  }
}
