import { closeSync, constants, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { readdir, rmdir, stat } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { LinkRefusal, refuseLinksBelowSync } from './real-path.js';

/** What a file's bytes may arrive as: whole, or chunk by chunk (a large entry decoded as it is written). */
export type FileBytes = Uint8Array | AsyncIterable<Uint8Array>;

/**
 * Writes extracted files, creating each parent folder once (extractions write thousands of files into a
 * few hundred folders). Callers have already made `out` safe (inside their target). With a `root`, a
 * symbolic link already present below it (a folder on the way, checked once per folder, or the file
 * itself) is refused with a LinkRefusal instead of followed, so nothing is written outside the target
 * through a planted link. A file whose bytes fail midway is never left, and the file of that name before
 * it stays.
 *
 * The calls are synchronous: a small file is an open, a write, a close and a rename, and going through the
 * thread pool for each cost more than the calls themselves (half the time of an extraction into tmpfs).
 * Pieces still arrive asynchronously, so a large file does not hold the thread for more than one piece.
 */
export class FolderWriter {
  private readonly made = new Set<string>();
  private readonly plain = new Set<string>();

  constructor(private readonly root?: string) {}

  /** Write the file; resolves to the number of bytes written. */
  async write(out: string, data: FileBytes): Promise<number> {
    const opened = this.open(out);
    let written = 0;
    try {
      let ok = false;
      try {
        if (data instanceof Uint8Array) {
          writeAll(opened.fd, data, 0);
          written = data.length;
        } else {
          for await (const chunk of data) {
            writeAll(opened.fd, chunk, written);
            written += chunk.length;
          }
        }
        ok = true;
      } finally {
        this.finish(opened, out, ok);
      }
    } catch (err) {
      throw named(err, out);
    }
    return written;
  }

  /**
   * The same for bytes made synchronously: `fill` hands each piece to `put`, which writes it before the
   * next is made (so pieces may share one scratch). No promise per file or piece: an extraction thread
   * that decodes and writes synchronously anyway spent a sixth of its time on them.
   */
  writeSync(out: string, fill: (put: (piece: Uint8Array) => void) => void): number {
    const opened = this.open(out);
    this.fd = opened.fd;
    this.written = 0;
    try {
      let ok = false;
      try {
        fill(this.put);
        ok = true;
      } finally {
        this.fd = -1;
        this.finish(opened, out, ok);
      }
    } catch (err) {
      throw named(err, out);
    }
    return this.written;
  }

  /** The file writeSync is writing, and its bytes so far. */
  private fd = -1;
  private written = 0;
  private readonly put = (piece: Uint8Array): void => {
    if (this.fd < 0) throw new Error('a piece arrived after its file was closed');
    writeAll(this.fd, piece, this.written);
    this.written += piece.length;
  };

  /**
   * The folder made (once) and the file opened. A new name is created in place (O_EXCL: never through a
   * link, never over a file), which also tells a link or a file at the name apart from a free name without
   * a look of its own. A name that is taken is written beside under a temporary name and renamed over it
   * at the end, so a failure midway leaves the file that was there before; a link at the name is refused.
   */
  private open(out: string): OpenFile {
    const dir = dirname(out);
    try {
      if (!this.made.has(dir)) {
        // The folders on the way are checked before mkdir, which would follow a planted link.
        if (this.root !== undefined) refuseLinksBelowSync(this.root, dir, this.plain);
        mkdirSync(dir, { recursive: true });
        this.made.add(dir);
      }
      try {
        return { fd: openSync(out, EXCLUSIVE, 0o666), tmp: null };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      if (this.root !== undefined && lstatSync(out, { throwIfNoEntry: false })?.isSymbolicLink()) throw new LinkRefusal(out);
      const tmp = join(dir, `.${basename(out)}.${process.pid}-${randomHex()}.tmp`);
      return { fd: openSync(tmp, EXCLUSIVE, 0o666), tmp };
    } catch (err) {
      throw named(err, out);
    }
  }

  /** Close; a file whose bytes failed is removed, a temporary one that succeeded renamed into place. */
  private finish(opened: OpenFile, out: string, ok: boolean): void {
    closeSync(opened.fd);
    if (!ok) rmSync(opened.tmp ?? out, { force: true });
    else if (opened.tmp !== null) {
      try {
        renameSync(opened.tmp, out);
      } catch (err) {
        rmSync(opened.tmp, { force: true });
        throw err;
      }
    }
  }
}

interface OpenFile {
  fd: number;
  /** The temporary name written when the file's own name was taken. */
  tmp: string | null;
}

const EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

/**
 * 12 hex digits for a temporary name. Not node:crypto: loading it costs every extraction (and each
 * worker) ~6 ms for a name that only has to differ from its neighbours; it is created with O_EXCL, so a
 * name someone guessed and made first fails the write rather than being followed.
 */
function randomHex(): string {
  return Math.floor(Math.random() * 2 ** 48)
    .toString(16)
    .padStart(12, '0');
}

/** A write or a rename that fails names the file it was writing, not the archive it came from. */
function named(err: unknown, out: string): unknown {
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e === 'object' && typeof e.code === 'string' && !e.path) e.path = out;
  return err;
}

function writeAll(fd: number, bytes: Uint8Array, position: number): void {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
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
export async function forEachInFlight<T>(
  items: readonly T[],
  inFlight: number,
  task: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      await task(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, items.length) }, lane));
}

/** The outermost folder of `path` (itself included) that does not exist yet: what writing there would create. */
export async function firstMissingFolder(path: string): Promise<string | null> {
  let missing: string | null = null;
  for (let at = resolve(path); ; at = dirname(at)) {
    try {
      await stat(at);
      return missing;
    } catch {
      missing = at;
    }
    if (dirname(at) === at) return missing;
  }
}

/**
 * Remove `dir` and the folders below it that hold no file (a failed extraction into a new folder leaves
 * no empty tree behind). Files are never removed; a folder that still holds one stays.
 */
export async function removeEmptyFolders(dir: string): Promise<void> {
  let names: Dirent[];
  try {
    names = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const d of names) if (d.isDirectory()) await removeEmptyFolders(join(dir, d.name));
  await rmdir(dir).catch(() => undefined);
}
