import { resolve } from 'node:path';
import type { GameId } from '../../shared/vfs-types.js';
import { fail } from '../../shared/errors.js';
import { pathKey } from '../../shared/paths.js';
import { ArchivePool, mountInstall, type MountedInstall } from '../vfs/index.js';
import type { Placement } from '../vfs/index.js';
import { installSignature } from './handlers/install-signature.js';

/**
 * Game installs as the CLI (`modpak mount …`) and the studio host see them. `open` mounts an install once
 * and caches it by folder. Mounting again with other options (another game, disc, mod folder), or after
 * the folder changed (its signature: see install-signature.ts), replaces the cached mount.
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

/** A mount of an install with one hypothetical archive added (see `InstallService.withExtraArchive`). */
export interface HypotheticalMount {
  install: MountedInstall;
  placement: Placement;
}

/**
 * A replaced mount is closed a while later, not at once: a caller may still be reading through it (an
 * extraction started before a mod was exported into the install).
 */
const RETIRE_AFTER_MS = 60_000;
function retire(install: Promise<MountedInstall>): void {
  setTimeout(() => void install.then((i) => i.close()).catch(() => {}), RETIRE_AFTER_MS).unref();
}

const optionsKey = (o: Pick<InstallOptions, 'game' | 'disc' | 'noDisc' | 'mod'>) =>
  JSON.stringify([o.game ?? null, o.disc ? resolve(o.disc) : null, Boolean(o.noDisc), o.mod ?? null]);

type MountChoice = Pick<InstallOptions, 'game' | 'disc' | 'noDisc' | 'mod'>;

interface CachedMount {
  key: string;
  options: MountChoice;
  /** What the folder looked like when it was mounted. */
  signature: Promise<string>;
  install: Promise<MountedInstall>;
}

export class InstallService {
  private readonly cache = new Map<string, CachedMount>();
  /** Per install, the archives its mounts hold open: a re-mount re-opens only what changed. */
  private readonly pools = new Map<string, ArchivePool>();

  /** The archive pool of an install (for tests and the benchmark). */
  poolOf(root: string): ArchivePool | undefined {
    return this.pools.get(resolve(root));
  }

  /**
   * Mount `root`, or return the cached mount made with the same options while the folder is unchanged
   * (the one check of the cache: its signature, taken as the mount starts).
   */
  async open(root: string, options: InstallOptions = {}): Promise<MountedInstall> {
    const abs = resolve(root);
    const key = optionsKey(options);
    const signature = installSignature(abs, options.noDisc ? undefined : options.disc);
    const cached = this.cache.get(abs);
    if (cached && cached.key === key && !options.refresh && (await cached.signature) === (await signature)) return cached.install;
    // Another open may have replaced the entry while the signatures were read: the newest one stands.
    const current = this.cache.get(abs);
    if (current && current !== cached && current.key === key && !options.refresh && (await current.signature) === (await signature))
      return current.install;
    if (current) retire(current.install);
    let pool = this.pools.get(abs);
    if (!pool) this.pools.set(abs, (pool = new ArchivePool()));
    const { refresh: _refresh, onProgress, ...mount } = options;
    // The mount this one replaces lends its index: unchanged archives' paths are not hashed again.
    const previous = current?.install.then(
      (i) => i.index,
      () => undefined,
    );
    const install = (previous ?? Promise.resolve(undefined)).then((index) =>
      mountInstall(abs, { ...mount, pool, onProgress, previous: index }),
    );
    this.cache.set(abs, { key, options: mount, signature, install });
    install.catch(() => {
      if (this.cache.get(abs)?.install === install) this.cache.delete(abs);
    });
    return install;
  }

  /** Mount the initial install in the background; a failure is reported when the renderer opens it. */
  warm(root: string): Promise<MountedInstall | null> {
    return this.open(root).catch(() => null);
  }

  /**
   * The cached mount of `root` if it was made for these choices (a game not given matches the detected
   * one), with the archives its mounts share; else null. The mod workflow reads through it instead of
   * mounting again.
   */
  async cachedFor(root: string, wanted: MountChoice): Promise<{ install: MountedInstall; pool: ArchivePool | undefined } | null> {
    const abs = resolve(root);
    const cached = this.cache.get(abs);
    if (!cached) return null;
    const install = await cached.install.catch(() => null);
    if (!install) return null;
    const o = cached.options;
    const same =
      (wanted.game === undefined || wanted.game === install.game) &&
      pathKey(wanted.mod ?? '') === pathKey(o.mod ?? '') &&
      Boolean(wanted.noDisc) === Boolean(o.noDisc) &&
      (wanted.disc ? resolve(wanted.disc) : null) === (o.disc ? resolve(o.disc) : null);
    return same ? { install, pool: this.pools.get(abs) } : null;
  }

  /** The cached mount of `root`; FormatError('not-found') when it was never opened. */
  async get(root: string): Promise<MountedInstall> {
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
    const install = await mountInstall(resolve(root), { ...options, extra: archive });
    return { install, placement: install.placement! };
  }

  async close(root: string): Promise<void> {
    const abs = resolve(root);
    const cached = this.cache.get(abs);
    this.cache.delete(abs);
    this.pools.delete(abs);
    if (cached) await (await cached.install.catch(() => null))?.close();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.cache.keys()].map((root) => this.close(root)));
  }
}
