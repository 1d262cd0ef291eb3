import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type {
  ConflictReport, DefinitionKind, DefinitionWinner, GameId, MergedTree, MountReport, MountStats, ResolveResult,
} from '../../shared/vfs-types.js';
import { fail } from '../../shared/errors.js';
import { ArchivePool, extractPaths, flattenInstall, mountInstall, type MountedInstall, type WriteOptions, type WriteResult } from '../vfs/index.js';
import type { Placement } from '../vfs/index.js';

/**
 * Game installs as the CLI (`modpak mount …`) and the studio host see them. `open` mounts an install once
 * and caches it by folder; the other calls answer in the shared result types. Mounting again with other
 * options (another game, disc), or after the folder's top level changed, replaces the cached mount.
 */
export interface InstallOptions {
  game?: GameId;
  /** Quake family: a mod folder under the game folder, over its base folder. */
  mod?: string;
  disc?: string;
  noDisc?: boolean;
  /** Mount again even if a mount with these options is cached (the folder changed). */
  refresh?: boolean;
  /** A re-mount's progress: candidates probed (most are reused from the previous mount). */
  onProgress?: (done: number, total: number) => void;
}

/** One opened install: every answer about it in the shared types. */
export class OpenInstall {
  constructor(readonly mounted: MountedInstall) {}

  get root(): string {
    return this.mounted.root;
  }
  get game(): GameId {
    return this.mounted.game;
  }
  /** Why the game was chosen when it was detected (null when given). */
  get detectedBecause(): string | null {
    return this.mounted.choice.reason;
  }
  /** Soft problems met while answering (unreadable definition files, ...). */
  get warnings(): readonly string[] {
    return this.mounted.warnings;
  }

  report(): MountReport {
    return this.mounted.report();
  }
  stats(): MountStats {
    return this.mounted.stats();
  }
  tree(): MergedTree {
    return this.mounted.tree();
  }
  resolve(path: string): ResolveResult {
    return this.mounted.resolve(path);
  }
  defs(kind: DefinitionKind): Promise<DefinitionWinner[]> {
    return this.mounted.defs(kind);
  }
  conflicts(): Promise<ConflictReport> {
    return this.mounted.conflicts();
  }
  /** The winner's bytes, or a given provider's (`archive` null = the loose file). */
  read(path: string, archive?: string | null): Promise<Uint8Array> {
    return this.mounted.read(path, archive);
  }
  /** The winners of these paths (a folder path brings everything under it) as loose files under `target`. */
  async extract(paths: readonly string[], target: string, options: WriteOptions = {}): Promise<WriteResult> {
    return extractPaths(this.mounted, paths, target, options);
  }
  /** Every winner as a loose file under `out` (new or empty, outside the install). */
  flatten(out: string, options: WriteOptions = {}): Promise<WriteResult> {
    return flattenInstall(this.mounted, out, options);
  }
}

/** A mount of an install with one hypothetical archive added (see `InstallService.withExtraArchive`). */
export interface HypotheticalMount {
  install: OpenInstall;
  placement: Placement;
}

/**
 * A replaced mount is closed a while later, not at once: a caller may still be reading through it (an
 * extraction started before a mod was exported into the install).
 */
const RETIRE_AFTER_MS = 60_000;
function retire(install: Promise<OpenInstall>): void {
  setTimeout(() => void install.then((i) => i.mounted.close()).catch(() => {}), RETIRE_AFTER_MS).unref();
}

const optionsKey = (o: Pick<InstallOptions, 'game' | 'disc' | 'noDisc' | 'mod'>) => JSON.stringify([o.game ?? null, o.disc ? resolve(o.disc) : null, Boolean(o.noDisc), o.mod ?? null]);

export class InstallService {
  private readonly cache = new Map<string, { key: string; stamp: number; install: Promise<OpenInstall> }>();
  /** Per install, the archives its mounts hold open: a re-mount re-opens only what changed. */
  private readonly pools = new Map<string, ArchivePool>();

  /** The archive pool of an install (for tests and the benchmark). */
  poolOf(root: string): ArchivePool | undefined {
    return this.pools.get(resolve(root));
  }

  /**
   * Mount `root`, or return the cached mount made with the same options while the folder's top level is
   * unchanged (its modification time moves when an archive is added, removed or replaced by a rename).
   */
  async open(root: string, options: InstallOptions = {}): Promise<OpenInstall> {
    const abs = resolve(root);
    const key = optionsKey(options);
    const stamp = await stat(abs).then((s) => s.mtimeMs, () => -1);
    const cached = this.cache.get(abs);
    if (cached && cached.key === key && cached.stamp === stamp && !options.refresh) return cached.install;
    if (cached) retire(cached.install);
    let pool = this.pools.get(abs);
    if (!pool) this.pools.set(abs, (pool = new ArchivePool()));
    const { refresh: _refresh, onProgress, ...mount } = options;
    // The mount this one replaces lends its index: unchanged archives' paths are not hashed again.
    const previous = cached?.install.then((i) => i.mounted.index, () => undefined);
    const install = (previous ?? Promise.resolve(undefined)).then((index) => mountInstall(abs, { ...mount, pool, onProgress, previous: index })).then((m) => new OpenInstall(m));
    this.cache.set(abs, { key, stamp, install });
    install.catch(() => {
      if (this.cache.get(abs)?.install === install) this.cache.delete(abs);
    });
    return install;
  }

  /** The cached mount of `root`; FormatError('not-found') when it was never opened. */
  async get(root: string): Promise<OpenInstall> {
    const cached = this.cache.get(resolve(root));
    if (!cached) fail('not-found', `${root} is not open; open the install first`);
    return cached.install;
  }

  /**
   * For the mod workflow (`modpak mount impact`): mount `root` as if `archive` were copied to its top level
   * under its own name (replacing an archive of that name). The result is not cached; close it when done.
   * `placement` says where it would rank, its stage, and which .hpi it would push out of the ten slots;
   * `install` answers resolve/defs/conflicts with it in place (compare with `open(root)` for what changes).
   */
  async withExtraArchive(root: string, archive: string, options: InstallOptions = {}): Promise<HypotheticalMount> {
    const mounted = await mountInstall(resolve(root), { ...options, extra: archive });
    return { install: new OpenInstall(mounted), placement: mounted.placement! };
  }

  async close(root: string): Promise<void> {
    const abs = resolve(root);
    const cached = this.cache.get(abs);
    this.cache.delete(abs);
    this.pools.delete(abs);
    if (cached) await (await cached.install.catch(() => null))?.mounted.close();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.cache.keys()].map((root) => this.close(root)));
  }
}
