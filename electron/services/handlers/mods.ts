import type { ModsService } from '../mods-service.js';
import { HostError } from '../host/errors.js';
import type { CallTable } from '../host/types.js';
import { safeRelativePath } from '../../../shared/paths.js';
import { abortable } from './archive.js';
import {
  guardOriginal,
  refuseDotFolders,
  refuseWorkspaceInInstall,
  requireBrowsable,
  type KnownInstalls,
  type WritableWorkspaces,
} from '../host/reach.js';
import { addDroppedFiles, copyDroppedPaths } from './dropped-files.js';
import { homedir } from 'node:os';
import { readRecord } from '../../mods/workspace.js';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { WriteConflict } from '../../mods/workspace.js';
import type { LiveFolders } from '../live-install.js';

/**
 * Workspaces, overrides, export and watch: thin adapters over ModsService. Paths inside a workspace
 * (`path`) are relative and must stay inside it: checked here before the service sees them, and again by
 * the workspace code itself.
 */
function insideWorkspace(path: string): string {
  const rel = safeRelativePath(path);
  if (rel === null) throw new HostError('not-allowed', `${JSON.stringify(path)} would leave the workspace`);
  return rel;
}

export type ModsCalls =
  | 'workspace.open'
  | 'workspace.fromArchive'
  | 'workspace.files'
  | 'workspace.override'
  | 'workspace.readText'
  | 'workspace.writeText'
  | 'workspace.checkTdf'
  | 'mods.diff'
  | 'mods.impact'
  | 'mods.export'
  | 'watch.start'
  | 'watch.stop'
  | 'watch.status'
  | 'workspace.addFiles'
  | 'workspace.addPaths';

/** Whether the folder is missing or empty (a workspace the studio creates there is its own). */
async function isNewFolder(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

/**
 * The host writes only workspaces it created (a new or empty folder, or one opened from an archive) or the
 * user picked, and those a studio or `modpak` session created before (their record beside the folder);
 * never inside an install or a dot-folder. Export and watch targets: never a dot-folder, and an install's
 * own file only with the request's confirmation (then with a backup).
 */
export function modsHandlers(
  mods: ModsService,
  writable: WritableWorkspaces,
  installs: KnownInstalls,
  live?: LiveFolders,
  home: string = homedir(),
): Pick<CallTable, ModsCalls> {
  // The open workspace is followed on disk, so an edit made elsewhere reaches the editor.
  const follow = async <T extends { dir: string }>(opened: T): Promise<T> => {
    await live?.followWorkspace(opened.dir);
    return opened;
  };
  /** Files this host wrote as export or watch targets (not the install's own, whatever folder they are in). */
  const written = new Set<string>();
  const refuseUnsafeWorkspace = async (dir: string) => {
    refuseDotFolders(dir, 'workspace folder');
    await refuseWorkspaceInInstall(dir, installs);
  };
  const requireWritable = async (dir: string) => {
    await refuseUnsafeWorkspace(dir);
    if (writable.has(dir) || (await readRecord(dir)) !== null) return;
    throw new HostError(
      'not-allowed',
      `${dir}: not a workspace the studio created or you picked; open a new or empty folder as a workspace`,
    );
  };
  const guardTarget = async (dir: string, target: string, confirmed: boolean | undefined) => {
    refuseDotFolders(target, 'target');
    const own = written.has(resolve(target)) || (await readRecord(dir))?.target === resolve(target);
    await guardOriginal(target, confirmed === true, own);
  };
  return {
    'workspace.open': async ({ dir, root }) => {
      await refuseUnsafeWorkspace(dir);
      if (await isNewFolder(dir)) writable.add(dir);
      await requireWritable(dir);
      return follow(await mods.openWorkspace(dir, root));
    },
    'workspace.fromArchive': async ({ archive, dir, root }) => {
      await refuseUnsafeWorkspace(dir);
      const opened = await mods.fromArchive(archive, dir, root);
      writable.add(dir);
      return follow(opened);
    },
    'workspace.files': async ({ dir }) => mods.files(dir),
    // The install path is an archive path (forward slashes); the workspace code places it safely.
    'workspace.override': async ({ dir, root, path }) => {
      await requireWritable(dir);
      refuseDotFolders(join(dir, insideWorkspace(path)), 'file name');
      return mods.override(dir, root, path);
    },
    'workspace.readText': async ({ dir, path }) => mods.readText(dir, insideWorkspace(path)),
    'workspace.writeText': async ({ dir, path, text, expectedHash }) => {
      await requireWritable(dir);
      const rel = insideWorkspace(path);
      refuseDotFolders(join(dir, rel), 'file name');
      try {
        return await mods.writeText(dir, rel, text, expectedHash);
      } catch (err) {
        if (err instanceof WriteConflict) throw new HostError('conflict', err.message);
        throw err;
      }
    },
    'workspace.checkTdf': async ({ text }) => mods.checkTdf(text),
    'workspace.addFiles': async ({ dir, files }) => {
      await requireWritable(dir);
      return { added: await addDroppedFiles(dir, files) };
    },
    // Dropped paths are read only from where the folder browser may look (home, opened installs).
    'workspace.addPaths': async ({ dir, sources }) => {
      await requireWritable(dir);
      return {
        added: await copyDroppedPaths(
          dir,
          sources.map((s) => resolve(s)),
          (s) => requireBrowsable(s, home, installs),
        ),
      };
    },
    'mods.diff': async ({ dir, root, game }) => mods.diff(dir, root, game),
    'mods.impact': async ({ root, archive, name, mod }) =>
      mods.impact(root, archive, { ...(name === undefined ? {} : { name }), ...(mod === undefined ? {} : { mod }) }),
    'mods.export': async ({ dir, target, orderFrom, replaceOriginal, game }, ctx) => {
      await guardTarget(dir, target, replaceOriginal);
      written.add(resolve(target));
      const result = await mods.export({ dir, target, orderFrom, game, signal: ctx.signal, onProgress: abortable(ctx) });
      // An export into the followed install is re-mounted at once (the studio shows it winning without waiting).
      void live?.written(target);
      return result;
    },
    'watch.start': async ({ dir, target, debounceMs, replaceOriginal, game }) => {
      await guardTarget(dir, target, replaceOriginal);
      written.add(resolve(target));
      return mods.watchStart(dir, target, debounceMs, game);
    },
    'watch.stop': async ({ dir }) => mods.watchStop(dir),
    'watch.status': async ({ dir }) => mods.watchStatus(dir),
  };
}
