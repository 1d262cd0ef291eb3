import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { openArchive, type Archive } from '../formats/index.js';
import { fileStamp } from '../io/file-stamp.js';

/**
 * Archives the host keeps open between calls, so that each preview click on the Archive screen reads an
 * entry without opening the file and parsing its directory again. An archive is known by its path and a
 * stamp of its modification time, size and inode: a rewritten file is opened afresh. The cache is bounded
 * (least recently used goes first); an archive leaving it is closed once the last call reading through it
 * is done. (Opening and verifying a picked archive run in an isolated worker and never come here.)
 */
interface Held {
  stamp: string;
  archive: Promise<Archive>;
  /** Calls reading through it now. */
  users: number;
  /** Left the cache: close when the last user is done. */
  dropped: boolean;
}

export const OPEN_ARCHIVES = 8;

export class OpenArchiveCache {
  private readonly held = new Map<string, Held>();
  /** How many times a file was opened and its directory parsed (tests, benchmark: the rest were hits). */
  opened = 0;

  constructor(private readonly capacity = OPEN_ARCHIVES) {}

  async use<T>(path: string, fn: (archive: Archive) => Promise<T>): Promise<T> {
    const abs = resolve(path);
    const info = await stat(abs);
    const stamp = fileStamp(info);
    let entry = this.held.get(abs);
    if (entry && entry.stamp !== stamp) {
      this.drop(abs, entry);
      entry = undefined;
    }
    if (entry) {
      // Most recently used goes to the end of the map's order.
      this.held.delete(abs);
      this.held.set(abs, entry);
    } else {
      const opened: Held = { stamp, archive: openArchive(abs), users: 0, dropped: false };
      entry = opened;
      this.opened++;
      this.held.set(abs, opened);
      // A file that fails to open is not kept: the next call tries again (and reports its own error).
      opened.archive.catch(() => this.held.get(abs) === opened && this.held.delete(abs));
      for (const [key, old] of this.held) {
        if (this.held.size <= this.capacity) break;
        this.drop(key, old);
      }
    }
    const using = entry;
    using.users++;
    try {
      return await fn(await using.archive);
    } finally {
      using.users--;
      if (using.dropped && using.users === 0) await closeHeld(using);
    }
  }

  /** Archives held open now. */
  get size(): number {
    return this.held.size;
  }

  /** Close everything (the host shuts down); calls under way finish first. */
  async close(): Promise<void> {
    const all = [...this.held];
    this.held.clear();
    await Promise.all(
      all.map(([, h]) => {
        h.dropped = true;
        return h.users === 0 ? closeHeld(h) : undefined;
      }),
    );
  }

  private drop(key: string, entry: Held): void {
    if (this.held.get(key) === entry) this.held.delete(key);
    entry.dropped = true;
    if (entry.users === 0) void closeHeld(entry);
  }
}

async function closeHeld(entry: Held): Promise<void> {
  const archive = await entry.archive.catch(() => null);
  await archive?.close().catch(() => {});
}
