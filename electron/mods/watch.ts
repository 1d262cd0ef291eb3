import { watch, type FSWatcher } from 'chokidar';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { WatchStatus } from '../../shared/mods-types.js';
import { isWorkspaceJunk } from './junk.js';
import { isTemporaryFileOf } from '../io/byte-sink.js';

/**
 * Watch a folder and rebuild an archive from it on every change.
 *
 * chokidar's events are only hints that *something* changed: the build re-reads the whole folder, so a
 * missed or reordered event can never leave the target stale for longer than the next event. Bursts are
 * coalesced by a debounce timer; only one build runs at a time, and changes that arrive during a build
 * queue exactly one more build. The build itself writes through a temporary file renamed into place, so
 * the target is always a complete archive: the previous one until the new one is whole. As a safety net
 * for events that never come (a rename race, a network share), the folder's listing (paths, sizes,
 * mtimes) is compared every few seconds with the one the last build started from.
 */

export interface BuildReport {
  files: number;
  /** Bytes of input, for the log line. */
  bytes?: number;
  /** Size of the written archive. */
  size?: number;
}

export interface RepackWatcherOptions {
  dir: string;
  target: string;
  /** Rebuild the target from the folder (re-reading it) and write it atomically. */
  build: () => Promise<BuildReport>;
  /** Quiet time after the last change before a build starts (default 50 ms). */
  debounceMs?: number;
  /** How long a file's size must stay still before its change counts (chokidar's awaitWriteFinish). */
  writeSettleMs?: number;
  /** Build once when starting, so the target matches the folder from the outset (default true). */
  buildOnStart?: boolean;
  /** Poll instead of using native events (network shares, WSL). */
  usePolling?: boolean;
  /** How often the folder listing is compared with the last build's (default 2000 ms; 0 = never). */
  verifyEveryMs?: number;
  /** One line per build: what was written and how long it took, or why it failed. */
  onLog?: (line: string) => void;
  /** Every change of state (building, ok, failed). */
  onStatus?: (status: WatchStatus) => void;
}

export const DEFAULT_DEBOUNCE_MS = 50;

/** Shared by every watcher, so statuses order across watchers too (a restarted watch never goes back). */
let revisions = 0;

export class RepackWatcher {
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private queued = false;
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  private current: WatchStatus;
  private readonly dir: string;
  private readonly target: string;
  private readonly debounceMs: number;
  private builds = 0;
  private builtFrom: string | null = null;
  private verifier: NodeJS.Timeout | null = null;
  private listingMs = 0;
  private verifiedAt = 0;

  private constructor(private readonly options: RepackWatcherOptions) {
    this.dir = resolve(options.dir);
    this.target = resolve(options.target);
    this.debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.current = { workspace: this.dir, target: this.target, running: true, state: 'idle', lastBuild: null };
  }

  /** Start watching; resolves once chokidar has scanned the folder (and the first build, if any, is under way). */
  static async start(options: RepackWatcherOptions): Promise<RepackWatcher> {
    const self = new RepackWatcher(options);
    await self.open();
    return self;
  }

  private async open(): Promise<void> {
    const settle = this.options.writeSettleMs ?? 40;
    const watcher = watch(this.dir, {
      ignoreInitial: true,
      ignored: (path) => this.ignores(path),
      // Hold a change until the file stops growing, so a build never packs half of a file being saved.
      awaitWriteFinish: settle > 0 ? { stabilityThreshold: settle, pollInterval: Math.max(5, Math.floor(settle / 4)) } : false,
      // Editors that save through a temporary file and a rename report one change, not unlink + add.
      atomic: true,
      usePolling: this.options.usePolling ?? false,
      interval: 50,
    });
    this.watcher = watcher;
    watcher.on('all', () => this.hint());
    watcher.on('error', (err) => this.options.onLog?.(`watch error: ${err instanceof Error ? err.message : String(err)}`));
    await new Promise<void>((ready, reject) => {
      watcher.once('ready', ready);
      watcher.once('error', reject);
    });
    if (this.options.buildOnStart ?? true) this.kick();
    const every = this.options.verifyEveryMs ?? 2000;
    if (every > 0) this.verifier = setInterval(() => void this.verify(), every);
  }

  /** The listing a build is made from: every file the build would read, with its size and mtime. */
  private async listing(): Promise<string> {
    const started = performance.now();
    const rows: string[] = [];
    const walk = async (abs: string): Promise<void> => {
      const items = await readdir(abs, { withFileTypes: true }).catch(() => []);
      for (const item of items) {
        const full = join(abs, item.name);
        if (this.ignores(full)) continue;
        if (item.isDirectory()) await walk(full);
        else if (item.isFile()) {
          const info = await stat(full).catch(() => null);
          if (info) rows.push(`${full}\0${info.size}\0${info.mtimeMs}`);
        }
      }
    };
    await walk(this.dir);
    this.listingMs = performance.now() - started;
    return rows.sort().join('\n');
  }

  /** Rebuild when the folder differs from what the last build read and no event said so. */
  private async verify(): Promise<void> {
    if (this.closed || this.timer || this.running || this.queued || this.builtFrom === null) return;
    // A huge folder is listed less often: the check never takes more than about 5% of the time.
    if (performance.now() - this.verifiedAt < this.listingMs * 20) return;
    this.verifiedAt = performance.now();
    const now = await this.listing();
    if (!this.closed && !this.timer && !this.running && now !== this.builtFrom) {
      this.options.onLog?.('the folder changed without a watch event: rebuilding');
      this.kick();
    }
  }

  /** The target and the temporary files it is written through live in the folder when packing in place. */
  private ignores(path: string): boolean {
    const abs = resolve(path);
    if (abs === this.dir) return false;
    if (abs === this.target) return true;
    if (dirname(abs) === dirname(this.target)) {
      const name = basename(abs);
      if (isTemporaryFileOf(name, this.target)) return true;
    }
    const rel = relative(this.dir, abs);
    if (rel.startsWith('..')) return true;
    return rel.split(sep).some((part) => isWorkspaceJunk(part));
  }

  /** A change happened somewhere: (re)start the quiet period. */
  private hint(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, this.debounceMs);
  }

  /** Build now, or queue one build after the one running. */
  private kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.queued = true;
      return;
    }
    this.running = this.runBuild().finally(() => {
      this.running = null;
      if (this.queued && !this.closed) {
        this.queued = false;
        this.kick();
      } else {
        this.wakeIdle();
      }
    });
  }

  private async runBuild(): Promise<void> {
    const number = ++this.builds;
    this.setStatus({ ...this.current, state: 'building' });
    const started = performance.now();
    const at = new Date().toISOString();
    // Taken before the build reads the folder: a change made while it runs shows up as a difference.
    const from = (this.options.verifyEveryMs ?? 2000) > 0 ? await this.listing() : null;
    try {
      const report = await this.options.build();
      this.builtFrom = from;
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      const sizes = report.size !== undefined ? `, ${report.size} bytes` : '';
      const message = `built ${this.target}: ${report.files} files${sizes} in ${durationMs} ms`;
      this.options.onLog?.(message);
      this.setStatus({ ...this.current, state: 'ok', lastBuild: { number, at, durationMs, ok: true, message, files: report.files } });
    } catch (err) {
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      const reason = err instanceof Error ? err.message : String(err);
      const message = `build failed after ${durationMs} ms: ${reason}; the previous ${basename(this.target)} is kept`;
      this.options.onLog?.(message);
      this.setStatus({ ...this.current, state: 'failed', lastBuild: { number, at, durationMs, ok: false, message, files: 0 } });
    }
  }

  private setStatus(status: WatchStatus): void {
    this.current = { ...status, revision: ++revisions };
    this.options.onStatus?.(this.status());
  }

  status(): WatchStatus {
    return { ...this.current, lastBuild: this.current.lastBuild ? { ...this.current.lastBuild } : null };
  }

  /** How many builds have started since the watcher was created. */
  get buildCount(): number {
    return this.builds;
  }

  /** Resolves when no change is waiting out its debounce and no build is running or queued. */
  idle(): Promise<void> {
    if (!this.timer && !this.running && !this.queued) return Promise.resolve();
    return new Promise((wake) => this.idleWaiters.push(wake));
  }

  private wakeIdle(): void {
    if (this.timer || this.running || this.queued) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Stop watching: no new build starts; the one running (if any) finishes before this resolves. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.queued = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.verifier) clearInterval(this.verifier);
    this.verifier = null;
    await this.watcher?.close();
    if (this.running) await this.running;
    this.setStatus({ ...this.current, running: false, state: this.current.state === 'building' ? 'idle' : this.current.state });
    this.wakeIdle();
  }
}
