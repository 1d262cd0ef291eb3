import type { ModsService } from '../mods-service.js';
import { HostError } from '../host/errors.js';
import type { CallTable } from '../host/types.js';
import { safeRelativePath } from '../../../shared/paths.js';
import { abortable } from './archive.js';
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
  | 'workspace.open' | 'workspace.fromArchive' | 'workspace.files' | 'workspace.override' | 'workspace.readText'
  | 'workspace.writeText' | 'workspace.checkTdf' | 'mods.diff' | 'mods.impact' | 'mods.export'
  | 'watch.start' | 'watch.stop' | 'watch.status';

export function modsHandlers(mods: ModsService, live?: LiveFolders): Pick<CallTable, ModsCalls> {
  // The open workspace is followed on disk, so an edit made elsewhere reaches the editor.
  const follow = async <T extends { dir: string }>(opened: T): Promise<T> => {
    await live?.followWorkspace(opened.dir);
    return opened;
  };
  return {
    'workspace.open': async ({ dir, root }) => follow(await mods.openWorkspace(dir, root)),
    'workspace.fromArchive': async ({ archive, dir, root }) => follow(await mods.fromArchive(archive, dir, root)),
    'workspace.files': async ({ dir }) => mods.files(dir),
    // The install path is an archive path (forward slashes); the workspace code places it safely.
    'workspace.override': async ({ dir, root, path }) => mods.override(dir, root, path),
    'workspace.readText': async ({ dir, path }) => mods.readText(dir, insideWorkspace(path)),
    'workspace.writeText': async ({ dir, path, text, expectedHash }) => {
      try {
        return await mods.writeText(dir, insideWorkspace(path), text, expectedHash);
      } catch (err) {
        if (err instanceof WriteConflict) throw new HostError('conflict', err.message);
        throw err;
      }
    },
    'workspace.checkTdf': async ({ text }) => mods.checkTdf(text),
    'mods.diff': async ({ dir, root, game }) => mods.diff(dir, root, game),
    'mods.impact': async ({ root, archive, name, mod }) => mods.impact(root, archive, { ...(name === undefined ? {} : { name }), ...(mod === undefined ? {} : { mod }) }),
    'mods.export': async ({ dir, target, orderFrom }, ctx) =>
      mods.export({ dir, target, orderFrom, signal: ctx.signal, onProgress: abortable(ctx) }),
    'watch.start': async ({ dir, target, debounceMs }) => mods.watchStart(dir, target, debounceMs),
    'watch.stop': async ({ dir }) => mods.watchStop(dir),
    'watch.status': async ({ dir }) => mods.watchStatus(dir),
  };
}
