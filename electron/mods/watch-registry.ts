import { resolve } from 'node:path';
import type { WatchStatus } from '../../shared/mods-types.js';
import type { GameId } from '../../shared/vfs-types.js';
import { repackBuilder } from './export.js';
import { RepackWatcher } from './watch.js';

/**
 * The studio's watchers: at most one per workspace folder, each rebuilding its target through the same
 * export as the Export button. Every status change goes to `onStatus` (the host forwards it as the
 * contract's `watch` event).
 */
export class WatchRegistry {
  private readonly watchers = new Map<string, RepackWatcher>();

  constructor(
    private readonly onStatus: (status: WatchStatus) => void = () => {},
    private readonly onLog: (line: string) => void = () => {},
  ) {}

  async start(dir: string, target: string, debounceMs?: number, game?: GameId): Promise<WatchStatus> {
    const key = resolve(dir);
    const running = this.watchers.get(key);
    if (running) {
      if (running.status().target === resolve(target)) return running.status();
      await this.stop(key);
    }
    const watcher = await RepackWatcher.start({
      dir: key,
      target,
      debounceMs,
      build: repackBuilder({ dir: key, target, game }),
      onStatus: this.onStatus,
      onLog: this.onLog,
    });
    this.watchers.set(key, watcher);
    return watcher.status();
  }

  async stop(dir: string): Promise<WatchStatus> {
    const key = resolve(dir);
    const watcher = this.watchers.get(key);
    if (!watcher) return this.status(key);
    this.watchers.delete(key);
    await watcher.close();
    return watcher.status();
  }

  status(dir: string): WatchStatus {
    const key = resolve(dir);
    return this.watchers.get(key)?.status() ?? { workspace: key, target: '', running: false, state: 'idle', lastBuild: null };
  }

  /** Wait until the watcher of `dir` has nothing pending (for tests and benchmarks). */
  async idle(dir: string): Promise<void> {
    await this.watchers.get(resolve(dir))?.idle();
  }

  async closeAll(): Promise<void> {
    const all = [...this.watchers.values()];
    this.watchers.clear();
    await Promise.all(all.map((w) => w.close()));
  }
}
