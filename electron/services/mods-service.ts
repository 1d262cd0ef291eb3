import { copyFile, mkdir, mkdtemp, readdir, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { ResponseOf, TdfCheck } from '../../shared/contract.js';
import type { ExportImpact, OverrideDiff, WatchStatus } from '../../shared/mods-types.js';
import type { GameId } from '../../shared/vfs-types.js';
import { FormatError, fail } from '../../shared/errors.js';
import { pathKey } from '../../shared/paths.js';
import { checkTdf } from '../../shared/tdf/parse.js';
import { mountInstall } from '../vfs/mount.js';
import type { MountedInstall } from '../vfs/mounted-install.js';
import type { ArchivePool } from '../vfs/archive-pool.js';
import { diffOverride, type OverrideBase } from '../mods/diff.js';
import { exportFormatFor, exportWorkspace, type ExportResult } from '../mods/export.js';
import { exportImpact, type ImpactOptions } from '../mods/impact.js';
import { WatchRegistry } from '../mods/watch-registry.js';
import {
  openWorkspace,
  overrideIntoWorkspace,
  readRecord,
  readWorkspaceText,
  workspaceFiles,
  writeRecord,
  writeWorkspaceText,
} from '../mods/workspace.js';
import { storedOrder } from '../mods/pack.js';
import { extractArchive } from './archive-extract.js';
import { forEachInFlight } from '../io/folder-writer.js';

/**
 * The mod workflow as one class shared by the CLI and the studio host (the contract's workspace.*, mods.*
 * and watch.* calls): workspaces, the diff of overrides, export with its impact, and watch-and-repack.
 * Answers are the shared result types. The install is reached through `mount`, so the studio can hand in
 * its cached mounts and the CLI a fresh one.
 */

export interface MountLease {
  install: MountedInstall;
  /** The archives the install's mounts share: a hypothetical mount (impact) opens only its own. */
  pool?: ArchivePool;
  release(): Promise<void>;
}
/** The install as mounted with these choices (a game not given: the one detected). */
export type MountProvider = (root: string, options: Pick<ImpactOptions, 'game' | 'mod' | 'disc' | 'noDisc'>) => Promise<MountLease>;

/** Mount afresh for each request and close afterwards (the CLI's way). */
export const freshMount: MountProvider = async (root, options) => {
  const install = await mountInstall(root, options);
  return { install, release: () => install.close() };
};

export interface ModsServiceOptions {
  mount?: MountProvider;
  /** Every watch status change (the host forwards it as the contract's `watch` event). */
  onWatchStatus?: (status: WatchStatus) => void;
  onWatchLog?: (line: string) => void;
}

const DIFF_READS_IN_FLIGHT = 8;
/** Tried in turn before an archive's own name: each sorts ahead of more names in upper-case ASCII ('!' < '0' < 'A'). */
const WINNING_PREFIXES = ['', '0', '00', '!'];

export class ModsService {
  private readonly mount: MountProvider;
  readonly watches: WatchRegistry;

  constructor(options: ModsServiceOptions = {}) {
    this.mount = options.mount ?? freshMount;
    this.watches = new WatchRegistry(options.onWatchStatus, options.onWatchLog);
  }

  private async withInstall<T>(
    root: string,
    choice: Parameters<MountProvider>[1],
    fn: (install: MountedInstall, pool: ArchivePool | undefined) => Promise<T>,
  ): Promise<T> {
    const lease = await this.mount(root, choice);
    try {
      return await fn(lease.install, lease.pool);
    } finally {
      await lease.release();
    }
  }

  openWorkspace(dir: string, root: string): Promise<ResponseOf<'workspace.open'>> {
    return openWorkspace(dir, root);
  }

  async fromArchive(archive: string, dir: string, root: string): Promise<ResponseOf<'workspace.fromArchive'>> {
    const opened = await workspaceFromArchive(archive, dir, root);
    // An archive of the install re-exported under its own name replaces it and wins what it won; under
    // another name (the folder's) it would lose every path to the original, which still ranks above it.
    const inInstall = dirname(resolve(archive)) === resolve(root);
    const exportName = inInstall ? basename(archive) : await this.winningName(root, archive);
    if (inInstall) await writeRecord(opened.dir, { ...((await readRecord(opened.dir)) ?? { version: 1 }), target: resolve(archive) });
    return { dir: opened.dir, root: resolve(root), files: opened.files, exportName };
  }

  /**
   * For an archive from outside the install: the name to export it under so that it wins its paths. Its
   * own name first (replacing an archive of that name, as a re-export does), then names that sort ahead
   * of it in its stage (TA ranks same-stage archives by upper-case name, the first one found winning);
   * the first under which nothing hides it, else the one that wins the most. Null when no name wins
   * anything (a rev31.gp3 hides it all) or for a game whose archives are named by number (the studio
   * proposes the next pakN.pak).
   */
  private async winningName(root: string, archive: string): Promise<string | null> {
    const own = basename(archive);
    if (!/\.(ufo|hpi|ccx|gp3)$/i.test(own)) return null;
    const scratch = await mkdtemp(join(tmpdir(), 'modpak-name-'));
    try {
      return await this.withInstall(root, {}, async (install, pool) => {
        if (install.game !== 'ta' && install.game !== 'tak') return null;
        let best: { name: string; wins: number } | null = null;
        for (const prefix of WINNING_PREFIXES) {
          const name = `${prefix}${own}`;
          const staged = join(scratch, name);
          // A link, not a copy: only the directory is read, and the archive may be large.
          await symlink(resolve(archive), staged).catch(() => copyFile(archive, staged));
          const impact = await exportImpact(root, staged, {}, install, pool);
          if (impact.rank >= 0 && impact.hidden.length === 0) return name;
          if (impact.wins.length > (best?.wins ?? 0)) best = { name, wins: impact.wins.length };
        }
        return best?.name ?? null;
      });
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  async files(dir: string): Promise<string[]> {
    return (await workspaceFiles(dir)).map((f) => f.path);
  }

  /** Copy the install's winning bytes of `path` into the workspace. */
  async override(dir: string, root: string, path: string, game?: GameId): Promise<ResponseOf<'workspace.override'>> {
    return this.withInstall(root, { game }, async (install) => overrideIntoWorkspace(dir, path, await winnerOf(install, path)));
  }

  readText(dir: string, path: string): Promise<ResponseOf<'workspace.readText'>> {
    return readWorkspaceText(dir, path);
  }

  writeText(dir: string, path: string, text: string, expectedHash?: string | null): Promise<ResponseOf<'workspace.writeText'>> {
    return writeWorkspaceText(dir, path, text, expectedHash);
  }

  checkTdf(text: string): TdfCheck {
    return checkTdf(text);
  }

  /**
   * Every workspace file against the install's current winner of its path. The workspace's own export,
   * when it sits in the install (`except`, by default the last export target if it is in ROOT), is left
   * out: a mod compared with its own previous build would only ever read as 'same'.
   */
  async diff(dir: string, root: string, game?: GameId, except?: string | null): Promise<OverrideDiff[]> {
    const files = await workspaceFiles(dir);
    const own = except === undefined ? await this.ownArchive(dir, root) : except;
    return this.withInstall(root, { game }, async (install) => {
      const out: OverrideDiff[] = new Array(files.length);
      await forEachInFlight(
        files.map((file, i) => ({ file, i })),
        DIFF_READS_IN_FLIGHT,
        async ({ file, i }) => {
          out[i] = diffOverride(file.path, await winnerOf(install, file.path, own), await file.read());
        },
      );
      return out;
    });
  }

  /**
   * The impact of an archive on an install. `archive` is an archive file, or a workspace folder: that is
   * packed to a private temporary file first (under the name it will be exported as), so the studio can
   * show the impact before the real export writes anything.
   */
  async impact(root: string, archive: string, options: ImpactOptions & { name?: string } = {}): Promise<ExportImpact> {
    const { name: as, ...mount } = options;
    const info = await stat(archive);
    // A name only: the staged copy is written under it in a private folder, which it must not leave.
    if (info.isDirectory() && as !== undefined && (as !== basename(as) || as.includes('\\') || as === '.' || as === '..' || as === '')) {
      throw new FormatError('bad-name', `${JSON.stringify(as)} is not a file name: give the name alone, without folders`);
    }
    // The install as the MountProvider has it (the studio's cached mount, when it was made with these
    // choices); the hypothetical mount takes its unchanged archives from the same pool.
    return this.withInstall(root, mount, async (install, pool) => {
      if (!info.isDirectory()) return exportImpact(root, archive, mount, install, pool);
      const name = as ?? (await this.exportName(archive));
      const scratch = await mkdtemp(join(tmpdir(), 'modpak-impact-'));
      try {
        const staged = join(scratch, name);
        // Only the directory matters to the impact: the staged copy is in the game's layout, an HPI stored
        // rather than compressed (the PAK writers take no method).
        const format = exportFormatFor(staged, install.game);
        await exportWorkspace({
          dir: archive,
          target: staged,
          game: install.game,
          ...(format === 'hpi' ? { method: 'none' as const } : {}),
        });
        return await exportImpact(root, staged, mount, install, pool);
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    });
  }

  /** The workspace's last export, by its name in the install, if it was written into `root`. */
  async ownArchive(dir: string, root: string): Promise<string | null> {
    const target = (await readRecord(dir))?.target;
    return target && dirname(resolve(target)) === resolve(root) ? basename(target) : null;
  }

  /** The file name a workspace is exported under: its last export's, else the folder's name + .ufo. */
  async exportName(dir: string): Promise<string> {
    const record = await readRecord(dir);
    if (record?.target) return basename(record.target);
    const folder = basename(resolve(dir));
    return /\.(ufo|hpi|ccx|gp3)$/i.test(folder) ? folder : `${folder}.ufo`;
  }

  /** Write the workspace as an archive (atomically); remembers the target for the next impact. */
  async export(request: {
    dir: string;
    target: string;
    orderFrom?: string;
    game?: GameId;
    signal?: AbortSignal;
    onProgress?: (done: number, total: number) => void;
  }): Promise<ExportResult> {
    const result = await exportWorkspace(request);
    const record = (await readRecord(request.dir)) ?? { version: 1 as const };
    if (record.target !== result.target) await writeRecord(request.dir, { ...record, target: result.target });
    return result;
  }

  watchStart(dir: string, target: string, debounceMs?: number, game?: GameId): Promise<WatchStatus> {
    return this.watches.start(dir, target, debounceMs, game);
  }

  watchStop(dir: string): Promise<WatchStatus> {
    return this.watches.stop(dir);
  }

  watchStatus(dir: string): WatchStatus {
    return this.watches.status(dir);
  }

  /** Stop every watcher (the host calls this when it shuts down). */
  close(): Promise<void> {
    return this.watches.closeAll();
  }
}

/**
 * The install's winner of a path with its bytes, or null when the install has no such file. With
 * `except`, that archive (the mod's own export) is passed over and the next provider counts.
 */
export async function winnerOf(install: MountedInstall, path: string, except?: string | null): Promise<OverrideBase | null> {
  const { winner, shadowed } = install.resolve(path);
  const skip = except ? pathKey(except) : null;
  const base = [winner, ...shadowed].find((p) => p !== null && (skip === null || p.archive === null || pathKey(p.archive) !== skip));
  if (!base) return null;
  try {
    return { archive: base.archive, entry: base.entry, bytes: await install.read(path, base === winner ? undefined : base.archive) };
  } catch (err) {
    if (err instanceof FormatError && err.code === 'not-found') return null;
    throw err;
  }
}

/**
 * Open an existing archive as a workspace: extract it into `dir` (a new or empty folder: nothing of the
 * modder's is ever overwritten, on every core) and remember its stored order for the re-export.
 */
export async function workspaceFromArchive(archive: string, dir: string, root?: string): Promise<{ dir: string; files: string[] }> {
  const abs = resolve(dir);
  const existing = await readdir(abs).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  if (existing.length > 0) fail('refused', `${dir} is not empty: open an archive into a new or empty folder`);
  const existed = (await stat(abs).catch(() => null)) !== null;
  const { order } = await storedOrder(archive);
  await mkdir(abs, { recursive: true });
  try {
    const result = await extractArchive(archive, abs);
    if (result.refused.length > 0)
      fail('refused', `${archive} holds names that would land outside the folder: ${result.refused.slice(0, 3).join(', ')}`);
  } catch (err) {
    // The folder was new or empty: a failed extraction leaves it as it was, not half full.
    await rm(abs, { recursive: true, force: true });
    if (existed) await mkdir(abs);
    throw err;
  }
  await writeRecord(abs, { version: 1, source: resolve(archive), order, ...(root ? { root: resolve(root) } : {}) });
  return { dir: abs, files: (await workspaceFiles(abs)).map((f) => f.path) };
}
