import type { InstallOptions, InstallService, OpenInstall } from '../install-service.js';
import { installSignature } from './install-signature.js';
import type { CallTable } from '../host/types.js';
import type { RecentInstalls } from './app.js';
import { toPreview } from './preview.js';
import { refuseDotFolders, refuseExtractionIntoInstall, refuseOverwrite, requireInstall, KnownInstalls } from '../host/reach.js';
import type { LiveFolders } from '../live-install.js';

/**
 * The Home, Files and Definitions screens: a game install through the layered filesystem. `install.open`
 * reuses the cached mount while the folder is unchanged (see install-signature.ts) and mounts afresh when
 * it changed (the user exported a mod into it, added an archive...); it remembers the install as recent.
 * The other calls use the cached mount, mounting with default options if the install was allowed (the
 * demo, a ROOT given on the command line) but not opened yet. `warm()` starts the first mount of the
 * initial install while the page is still loading.
 */
export type InstallCalls =
  | 'install.open' | 'install.stats' | 'install.tree' | 'install.resolve' | 'install.defs' | 'install.conflicts'
  | 'install.read' | 'install.extract';

export class InstallOpener {
  private readonly signatures = new Map<string, string>();
  constructor(private readonly installs: InstallService) {}

  /** Mount `root` with these options, again only if the folder changed since the last mount (or `force`). */
  async open(root: string, options: InstallOptions, force = false): Promise<OpenInstall> {
    const signature = `${JSON.stringify([options.game, options.disc, options.noDisc, options.mod])}\n${await installSignature(root, options.noDisc ? undefined : options.disc)}`;
    const refresh = force || this.signatures.get(root) !== signature;
    this.signatures.set(root, signature);
    try {
      return await this.installs.open(root, { ...options, refresh });
    } catch (err) {
      this.signatures.delete(root);
      throw err;
    }
  }

  /** Start mounting in the background; a failure is reported when the renderer opens it. */
  warm(root: string): Promise<OpenInstall | null> {
    return this.open(root, {}).catch(() => null);
  }
}

/** The cached mount of an allowed install, mounted with default options if it was not opened yet. */
export const openedInstall = (installs: InstallService, opener: InstallOpener) => (root: string): Promise<OpenInstall> => installs.get(root).catch(() => opener.open(root, {}));

export function installHandlers(installs: InstallService, opener: InstallOpener, recent: RecentInstalls, known = new KnownInstalls(), live?: LiveFolders): Pick<CallTable, InstallCalls> {
  const opened = openedInstall(installs, opener);
  return {
    'install.open': async ({ root, game, disc, noDisc, mod }) => {
      // Only a folder holding game archives (or folders that do) is opened, so a grant never covers /etc or a home folder.
      await requireInstall(root);
      const install = await opener.open(root, { game, disc, noDisc, mod });
      await known.add(install.root);
      await recent.add(install.root);
      // From now on this install owns the screens, followed on disk (another one stops being followed).
      await live?.followInstall(install.root, { game, disc, noDisc, mod });
      return { ...install.report(), root: install.root, stats: install.stats() };
    },
    'install.stats': async ({ root }) => (await opened(root)).stats(),
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
      return (await opened(root)).extract(paths, target, { signal: ctx.signal, onProgress: ctx.progress });
    },
  };
}
