import { stat } from 'node:fs/promises';
import type { GameId } from '../../shared/vfs-types.js';
import { probeArchive, type ProbeResult } from './probe.js';
import { fileStamp } from '../io/file-stamp.js';

/**
 * Opened archives shared between successive mounts of one install, so that re-mounting after a change
 * re-opens only the archives that changed. An archive is known by its game (the mount test depends on
 * it), its path and a stamp of its size, modification time and inode: a rebuild renamed into place gets
 * a new inode and time, so it is opened afresh while every other archive is handed out again. Each mount
 * holds a reference; an archive closes when the last mount holding it lets go, and a changed archive's
 * old copy stays open for the mounts still reading through it.
 */
interface PoolEntry {
  stamp: string;
  result: Promise<ProbeResult>;
  refs: number;
}

export interface PooledProbe extends ProbeResult {
  /** Give the reference back (closes the archive when nobody else holds it). */
  release(): Promise<void>;
}

export class ArchivePool {
  private readonly current = new Map<string, PoolEntry>();
  /** How many probes actually opened a file (for tests and the benchmark: the rest were reused). */
  opened = 0;

  async acquire(game: GameId, path: string): Promise<PooledProbe> {
    const info = await stat(path).catch(() => null);
    const stamp = info ? fileStamp(info) : 'missing';
    const key = `${game}\0${path}`;
    let entry = this.current.get(key);
    if (!entry || entry.stamp !== stamp) {
      this.opened++;
      entry = { stamp, result: probeArchive(game, path), refs: 0 };
      this.current.set(key, entry);
      // A failed probe is never worth keeping: the next mount tries again.
      entry.result.catch(() => this.current.get(key) === entry && this.current.delete(key));
    }
    const held = entry;
    held.refs++;
    const result = await held.result;
    let released = false;
    return {
      ...result,
      release: async () => {
        if (released) return;
        released = true;
        held.refs--;
        // A failed mount test holds no file: its verdict is kept for the next mount of the same bytes.
        if (held.refs > 0 || !result.archive) return;
        if (this.current.get(key) === held) this.current.delete(key);
        await result.archive.close();
      },
    };
  }

  /** Archives open now (for tests). */
  get size(): number {
    return this.current.size;
  }
}
