import { relative, resolve, sep } from 'node:path';
import { REMOUNT_JOB, type EventName, type Events } from '../../shared/contract.js';
import { pathKey } from '../../shared/paths.js';
import { FolderWatcher } from './folder-watcher.js';
import type { InstallOptions } from './install-service.js';
import type { MountedInstall } from '../vfs/index.js';
import { WorkspaceChanges } from './workspace-changes.js';
import { fileStampOf } from '../io/file-stamp.js';

/**
 * What the studio has open, followed on disk. One install at a time owns the screens: following another
 * stops following the old one (and `onSwitch` lets the host close what belonged to it: its watchers).
 * - The install: its top level (where archives come and go) and the loose-file folders below. Any change
 *   mounts it again, incrementally (the InstallService's pool re-opens only archives that changed), and
 *   `install.changed` carries the new mount order; a re-mount reports `progress` under REMOUNT_JOB.
 * - The workspace: each changed file's content hash goes out as `workspace.changed`, so the editor can
 *   reload a clean buffer and warn about a dirty one.
 */
type Emit = <E extends EventName>(event: E, payload: Events[E]) => void;

export interface LiveOptions {
  /** Mount the install again (refreshing the cached mount). */
  remount(root: string, options: InstallOptions): Promise<MountedInstall>;
  emit: Emit;
  /** Called when another install takes over the screens (with the old root). */
  onSwitch?(previous: string): Promise<void> | void;
  onLog?(line: string): void;
  /** Batching of change events (default 25 ms). */
  debounceMs?: number;
}

/** How deep below the install the loose files are followed (TA's deepest folders are a few levels). */
const INSTALL_DEPTH = 8;

export class LiveFolders {
  private install: { root: string; options: InstallOptions; watcher: FolderWatcher } | null = null;
  private workspace: FolderWatcher | null = null;
  private starting: Promise<void> = Promise.resolve();
  /** Files in the install this host wrote and re-mounted for already, by relative path: their stamp then. */
  private readonly handled = new Map<string, string>();

  constructor(private readonly options: LiveOptions) {}

  get root(): string | null {
    return this.install?.root ?? null;
  }

  /** Follow `root` (mounted with `options`); a different install than before replaces it. */
  followInstall(root: string, options: InstallOptions): Promise<void> {
    this.starting = this.starting.then(() => this.switchInstall(resolve(root), options)).catch((err) => this.log(err));
    return this.starting;
  }

  private async switchInstall(root: string, options: InstallOptions): Promise<void> {
    const held = this.install;
    if (held && held.root === root) {
      held.options = options;
      return;
    }
    if (held) {
      this.install = null;
      await held.watcher.close();
      await this.stopWorkspace();
      await this.options.onSwitch?.(held.root);
    }
    const watcher = await FolderWatcher.start({
      dir: root,
      depth: INSTALL_DEPTH,
      debounceMs: this.options.debounceMs,
      onChange: (paths) => this.remount(root, paths),
      onError: (m) => this.log(m),
    });
    this.install = { root, options, watcher };
  }

  /**
   * The host itself just wrote `file` (a watch build or an export): when it lies in the followed install,
   * re-mount at once instead of after the file watcher's settle time and debounce. The watcher's own
   * event for the same bytes, a moment later, is then skipped.
   */
  async written(file: string): Promise<void> {
    await this.starting;
    const held = this.install;
    if (!held) return;
    const rel = relative(held.root, resolve(file));
    if (rel === '' || rel.startsWith('..') || resolve(held.root, rel) !== resolve(file)) return;
    const path = rel.split(sep).join('/');
    const stamp = await fileStampOf(file);
    if (stamp === null) return;
    this.handled.set(path, stamp);
    held.watcher.run(() => this.remount(held.root, [path], true));
  }

  private async remount(root: string, paths: string[], firstHand = false): Promise<void> {
    const held = this.install;
    if (!held || held.root !== root) return;
    if (!firstHand && (await this.allHandled(root, paths))) return;
    const emit = this.options.emit;
    const label = `Re-mounting ${root}`;
    emit('progress', { jobId: REMOUNT_JOB, done: 0, total: 1, label });
    const install = await this.options.remount(root, {
      ...held.options,
      onProgress: (done, total) => emit('progress', { jobId: REMOUNT_JOB, done, total, label }),
    });
    // The top-level names (archives) and folders that changed, once each.
    const changed = [...new Map(paths.map((p) => [pathKey(p.split('/')[0]!), p.split('/')[0]!])).values()];
    emit('install.changed', { ...install.report(), root: install.root, stats: install.stats(), changed });
    emit('progress', { jobId: REMOUNT_JOB, done: 1, total: 1, label });
  }

  /** Whether every path of a batch is a file re-mounted for already with the same bytes (`written`'s echo). */
  private async allHandled(root: string, paths: string[]): Promise<boolean> {
    let all = paths.length > 0;
    for (const p of paths) {
      const was = this.handled.get(p);
      this.handled.delete(p);
      if (was === undefined || (await fileStampOf(resolve(root, p))) !== was) all = false;
    }
    return all;
  }

  /** Follow the open workspace's files (one workspace at a time). */
  async followWorkspace(dir: string): Promise<void> {
    const abs = resolve(dir);
    if (this.workspace?.dir === abs) return;
    await this.stopWorkspace();
    const depth = 16;
    const changes = new WorkspaceChanges(abs, depth);
    this.workspace = await FolderWatcher.start({
      dir: abs,
      depth,
      debounceMs: this.options.debounceMs,
      onChange: async (paths) => {
        const files = await changes.of(paths);
        if (files.length > 0) this.options.emit('workspace.changed', { dir: abs, files });
      },
      onError: (m) => this.log(m),
    });
  }

  private async stopWorkspace(): Promise<void> {
    const w = this.workspace;
    this.workspace = null;
    await w?.close();
  }

  /** Resolves when every change seen so far has been handled (tests, benchmark). */
  async idle(): Promise<void> {
    await this.starting;
    await this.install?.watcher.idle();
    await this.workspace?.idle();
  }

  async close(): Promise<void> {
    await this.starting;
    const held = this.install;
    this.install = null;
    await held?.watcher.close();
    await this.stopWorkspace();
  }

  private log(err: unknown): void {
    this.options.onLog?.(`live: ${err instanceof Error ? err.message : String(err)}`);
  }
}
