import { closeSync, constants, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { refuseLinksBelowSync } from './real-path.js';

/** What a file's bytes may arrive as: whole, or chunk by chunk (a large entry decoded as it is written). */
export type FileBytes = Uint8Array | AsyncIterable<Uint8Array>;

/**
 * Writes extracted files, creating each parent folder once (extractions write thousands of files into a
 * few hundred folders). Callers have already made `out` safe (inside their target). With a `root`, a
 * symbolic link already present below it (a folder on the way, checked once per folder, or the file
 * itself, which O_NOFOLLOW refuses) is refused instead of followed, so nothing is written outside the
 * target through a planted link. A file whose bytes fail midway is removed, so no partial file is left.
 *
 * The calls are synchronous: a small file is an open, a write and a close, and going through the thread
 * pool for each cost more than the calls themselves (half the time of an extraction into tmpfs). Pieces
 * still arrive asynchronously, so a large file does not hold the thread for more than one piece.
 */
export class FolderWriter {
  private readonly made = new Set<string>();
  private readonly plain = new Set<string>();

  constructor(private readonly root?: string) {}

  /** Write the file; resolves to the number of bytes written. */
  async write(out: string, data: FileBytes): Promise<number> {
    const dir = dirname(out);
    if (!this.made.has(dir)) {
      if (this.root !== undefined) refuseLinksBelowSync(this.root, dir, this.plain);
      mkdirSync(dir, { recursive: true });
      this.made.add(dir);
    }
    // O_NOFOLLOW: a link at the file's own name (planted before or during the extraction) is refused (ELOOP).
    const fd = openSync(out, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (this.root !== undefined ? (constants.O_NOFOLLOW ?? 0) : 0), 0o666);
    let written = 0;
    let ok = false;
    try {
      if (data instanceof Uint8Array) {
        writeAll(fd, data, 0);
        written = data.length;
      } else {
        for await (const chunk of data) {
          writeAll(fd, chunk, written);
          written += chunk.length;
        }
      }
      ok = true;
    } finally {
      closeSync(fd);
      if (!ok) rmSync(out, { force: true });
    }
    return written;
  }
}

function writeAll(fd: number, bytes: Uint8Array, position: number): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}

/** Why a file-system error means "this name cannot be written here" rather than "the extraction failed". */
export function refusalReason(err: unknown): string | null {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  // A path that is a file in one place and a folder in another cannot be both on disk.
  if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') return 'a file and a folder share this name';
  if (code === 'ELINK' || code === 'ELOOP') return 'a symbolic link is in the way (extraction does not follow links)';
  return null;
}

/**
 * Run `task` over `items` with at most `inFlight` at once, in order of starting. Reading and writing a few
 * files at a time overlaps disk and decoding while memory stays bounded by the files in flight.
 */
export async function forEachInFlight<T>(items: readonly T[], inFlight: number, task: (item: T) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      await task(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, items.length) }, lane));
}
