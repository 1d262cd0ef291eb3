import { withArchive } from '../formats/index.js';
import type { Archive, ArchiveEntry } from '../formats/index.js';
import { ChunkScratch, entryChunks } from '../formats/archive.js';
import { FormatError } from '../../shared/errors.js';
import { extractWithWorkers, WorkerStartError, type EntryOutcome } from './extract-pool.js';
import { workersBesideThisThread } from '../io/worker-bundle.js';
import { PARALLEL_BYTES, PARALLEL_FILES } from './archive-extract.js';
import type { ProgressFn } from './archive-service.js';

/** Every file of an archive decoded and checked, nothing written (the CLI's `verify`, the studio's Verify). */

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
          local: async (from, to) => {
            const out: [number, EntryOutcome][] = [];
            for (const index of files.slice(from, to))
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
