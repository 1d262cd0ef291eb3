import { constants } from 'node:fs';
import { mkdir, open, readdir, rm, rmdir, stat } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { refuseLinksBelow } from './real-path.js';

/** What a file's bytes may arrive as: whole, or chunk by chunk (a large entry decoded as it is written). */
export type FileBytes = Uint8Array | AsyncIterable<Uint8Array>;

/**
 * Writes extracted files, creating each parent folder once (extractions write thousands of files into a
 * few hundred folders). Callers have already made `out` safe (inside their target). With a `root`, a
 * symbolic link already present below it (a folder on the way or the file itself) is refused with a
 * LinkRefusal instead of followed, so nothing is written outside the target through a planted link.
 * A file whose bytes fail midway is removed, so no partial file is left.
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
    // O_NOFOLLOW: a link that appears at the file's own name between the check and the open is refused too.
    const handle = await open(out, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (this.root !== undefined ? (constants.O_NOFOLLOW ?? 0) : 0), 0o666);
    let written = 0;
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
      if (!ok) await rm(out, { force: true }).catch(() => undefined);
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
