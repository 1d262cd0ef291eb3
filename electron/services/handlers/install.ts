import type { InstallService } from '../install-service.js';
import { extractPaths, type MountedInstall } from '../../vfs/index.js';
import type { CallTable } from '../host/types.js';
import type { RecentInstalls } from './app.js';
import { toPreview } from './preview.js';
import { refuseDotFolders, refuseExtractionIntoInstall, refuseOverwrite, requireInstall, KnownInstalls } from '../host/reach.js';
import type { LiveFolders } from '../live-install.js';
import { listModFolders } from '../mod-folders.js';

/**
 * The Home, Files and Definitions screens: a game install through the layered filesystem. `install.open`
 * reuses the cached mount while the folder is unchanged (InstallService, see install-signature.ts) and
 * mounts afresh when it changed (the user exported a mod into it, added an archive...); it remembers the
 * install as recent. The other calls use the cached mount, mounting with default options if the install
 * was allowed (the demo, a ROOT given on the command line) but not opened yet.
 */
export type InstallCalls =
  | 'install.open'
  | 'install.stats'
  | 'install.tree'
  | 'install.resolve'
  | 'install.defs'
  | 'install.conflicts'
  | 'install.read'
  | 'install.extract'
  | 'install.modFolders';

/** The cached mount of an allowed install, mounted with default options if it was not opened yet. */
export const openedInstall =
  (installs: InstallService) =>
  (root: string): Promise<MountedInstall> =>
    installs.get(root).catch(() => installs.open(root));

export function installHandlers(
  installs: InstallService,
  recent: RecentInstalls,
  known = new KnownInstalls(),
  live?: LiveFolders,
): Pick<CallTable, InstallCalls> {
  const opened = openedInstall(installs);
  return {
    'install.open': async ({ root, game, disc, noDisc, mod }) => {
      // Only a folder holding game archives (or folders that do) is opened, so a grant never covers /etc or a home folder.
      await requireInstall(root);
      const install = await installs.open(root, { game, disc, noDisc, mod });
      // The studio asks for the tree the moment this answers: it is built while the install is remembered
      // and followed below (those wait on the disk), instead of after. A failure is the tree call's to report.
      setImmediate(() => {
        try {
          install.tree();
        } catch {
          // install.tree builds it again and answers with the error.
        }
      });
      await known.add(install.root);
      await recent.add(install.root);
      // From now on this install owns the screens, followed on disk (another one stops being followed).
      await live?.followInstall(install.root, { game, disc, noDisc, mod });
      return { ...install.report(), root: install.root, stats: install.stats() };
    },
    'install.stats': async ({ root }) => (await opened(root)).stats(),
    'install.modFolders': async ({ root, game }) => listModFolders(root, game),
    'install.tree': async ({ root }) => (await opened(root)).tree(),
    'install.resolve': async ({ root, path }) => (await opened(root)).resolve(path),
    'install.defs': async ({ root, kind }) => (await opened(root)).defs(kind),
    'install.conflicts': async ({ root }) => (await opened(root)).conflicts(),
    'install.read': async ({ root, path, archive, maxBytes }) => {
      const install = await opened(root);
      const bytes = await install.read(path, archive);
      // Name the provider the bytes came from: the one asked for, or the winner.
      const from = archive !== undefined ? archive : (install.resolve(path).winner?.archive ?? null);
      return toPreview(path, bytes, from, maxBytes);
    },
    'install.extract': async ({ root, paths, target, overwrite }, ctx) => {
      refuseDotFolders(target, 'target folder');
      await known.add(root);
      await refuseExtractionIntoInstall(target, known);
      await refuseOverwrite(target, overwrite);
      return extractPaths(await opened(root), paths, target, { signal: ctx.signal, onProgress: ctx.progress });
    },
  };
}
