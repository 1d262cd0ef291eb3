import { watch, type FSWatcher } from 'chokidar';
import { basename, relative, sep } from 'node:path';
import { isAtomicTemporary } from '../io/byte-sink.js';

/**
 * A folder followed for changes, reported in batches: chokidar's events within `debounceMs` of each other
 * become one call of `onChange` with the relative paths that changed (forward slashes). A batch that
 * arrives while the previous one is still being handled waits for it, so handlers never overlap. The
 * temporary files of atomic writes (`.NAME.xxxx.tmp`, renamed into place a moment later) are ignored:
 * the rename is the change.
 */
export interface FolderWatcherOptions {
  dir: string;
  /** How deep below `dir` to follow (0: the top level only). */
  depth: number;
  debounceMs?: number;
  onChange(paths: string[]): Promise<void> | void;
  onError?(message: string): void;
}

const isTemporary = (path: string) => isAtomicTemporary(basename(path));

export class FolderWatcher {
  private watcher: FSWatcher | null = null;
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(private readonly options: FolderWatcherOptions) {}

  static async start(options: FolderWatcherOptions): Promise<FolderWatcher> {
    const self = new FolderWatcher(options);
    const watcher = watch(options.dir, {
      ignoreInitial: true,
      depth: options.depth,
      ignored: (path) => isTemporary(path),
      // Not chokidar's `atomic` (it holds every unlink 100 ms to pair it with an add): batches do that.
      atomic: false,
      // Archives can be large: a change counts once the file stops growing.
      awaitWriteFinish: { stabilityThreshold: 20, pollInterval: 5 },
    });
    self.watcher = watcher;
    watcher.on('all', (_event, path) => self.hint(path));
    watcher.on('error', (err) => options.onError?.(err instanceof Error ? err.message : String(err)));
    await new Promise<void>((ready, reject) => {
      watcher.once('ready', ready);
      watcher.once('error', reject);
    });
    return self;
  }

  get dir(): string {
    return this.options.dir;
  }

  private hint(path: string): void {
    if (this.closed) return;
    const rel = relative(this.options.dir, path).split(sep).join('/');
    this.pending.add(rel === '' ? '.' : rel);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.options.debounceMs ?? 25);
  }

  /** Run `task` in turn with the change batches (after the one running), as a first-hand change. */
  run(task: () => Promise<void>): void {
    if (this.closed) return;
    this.running = this.running.then(async () => {
      if (this.closed) return;
      try {
        await task();
      } catch (err) {
        this.options.onError?.(err instanceof Error ? err.message : String(err));
      }
    });
  }

  private flush(): void {
    this.timer = null;
    const paths = [...this.pending].sort();
    this.pending.clear();
    if (paths.length === 0 || this.closed) return;
    this.running = this.running.then(async () => {
      if (this.closed) return;
      try {
        await this.options.onChange(paths);
      } catch (err) {
        this.options.onError?.(err instanceof Error ? err.message : String(err));
      }
    });
  }

  /** Resolves once every batch seen so far has been handled (for tests). */
  async idle(): Promise<void> {
    await this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.watcher?.close();
    await this.running;
  }
}
