import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { openDetected, type OpenedArchive } from './archive-service.js';

interface Slot {
  stamp: string;
  opened: Promise<OpenedArchive>;
  users: number;
  retired: boolean;
}

/**
 * The Archive screen's open archives, keyed by path + mtime + size: opening lists the entries from one
 * parse of the directory, and each preview click reads from that same open archive instead of parsing the
 * directory again. A file that changed on disk is opened afresh; the few most recent stay open, and one
 * that is dropped closes once the calls using it are done.
 */
export class OpenArchiveCache {
  private readonly slots = new Map<string, Slot>();

  constructor(private readonly limit = 4) {}

  async use<T>(path: string, fn: (opened: OpenedArchive) => Promise<T>): Promise<T> {
    const abs = resolve(path);
    const info = await stat(abs);
    const stamp = `${info.mtimeMs}:${info.size}`;
    let slot = this.slots.get(abs);
    if (slot && slot.stamp !== stamp) {
      this.retire(abs, slot);
      slot = undefined;
    }
    if (slot) {
      // Most recently used last, so the first key is the one to drop.
      this.slots.delete(abs);
    } else {
      slot = { stamp, opened: openDetected(abs), users: 0, retired: false };
    }
    this.slots.set(abs, slot);
    for (const [key, old] of this.slots) {
      if (this.slots.size <= this.limit) break;
      this.retire(key, old);
    }
    slot.users++;
    try {
      return await fn(await slot.opened);
    } catch (err) {
      // An archive that does not open is not kept: the next call tries again (the file may be fixed).
      if (await slot.opened.then(() => false, () => true)) this.retire(abs, slot);
      throw err;
    } finally {
      slot.users--;
      if (slot.retired && slot.users === 0) void close(slot);
    }
  }

  /** Close every archive (the host is closing). */
  async closeAll(): Promise<void> {
    const slots = [...this.slots.values()];
    this.slots.clear();
    await Promise.all(slots.map(close));
  }

  private retire(key: string, slot: Slot): void {
    if (this.slots.get(key) === slot) this.slots.delete(key);
    if (slot.retired) return;
    slot.retired = true;
    if (slot.users === 0) void close(slot);
  }
}

function close(slot: Slot): Promise<void> {
  return slot.opened.then(
    (o) => o.archive.close(),
    () => {},
  );
}
