import { constants } from 'node:fs';
import { mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { refuseLinksBelow } from './real-path.js';

/** What a file's bytes may arrive as: whole, or chunk by chunk (a large entry decoded as it is written). */
export type FileBytes = Uint8Array | AsyncIterable<Uint8Array>;

/**
 * Writes extracted files, creating each parent folder once (extractions write thousands of files into a
 * few hundred folders). Callers have already made `out` safe (inside their target). With a `root`, a
 * symbolic link already present below it (a folder on the way or the file itself) is refused with a
 * LinkRefusal instead of followed, so nothing is written outside the target through a planted link.
 * A file whose bytes fail midway is never left, and the file of that name before it stays.
 */
export class FolderWriter {
  private readonly made = new Set<string>();
  private readonly plain = new Set<string>();

  constructor(private readonly root?: string) {}

  /** Write the file; resolves to the number of bytes written. */
  async write(out: string, data: FileBytes): Promise<number> {
    const dir = dirname(out);
    if (this.root !== undefined) await refuseLinksBelow(this.root, out, this.plain);
    if (!this.made.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.made.add(dir);
    }
    // Written beside under a temporary name (O_EXCL: never through a link) and renamed over the name at the
    // end: a failure midway leaves the file that was there before, and renaming replaces a link planted at
    // the name instead of writing through it.
    const tmp = join(dir, `.${basename(out)}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
    let written = 0;
    try {
      const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o666);
      let ok = false;
      try {
        if (data instanceof Uint8Array) {
          await writeAll(handle, data, 0);
          written = data.length;
        } else {
          for await (const chunk of data) {
            await writeAll(handle, chunk, written);
            written += chunk.length;
          }
        }
        ok = true;
      } finally {
        await handle.close();
        if (!ok) await rm(tmp, { force: true }).catch(() => undefined);
      }
      await rename(tmp, out).catch(async (err: unknown) => {
        await rm(tmp, { force: true }).catch(() => undefined);
        throw err;
      });
    } catch (err) {
      // A write or a rename that fails names the file it was writing, not the archive it came from.
      const e = err as NodeJS.ErrnoException;
      if (e && typeof e === 'object' && typeof e.code === 'string' && !e.path) e.path = out;
      throw err;
    }
    return written;
  }
}

async function writeAll(handle: import('node:fs/promises').FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
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
