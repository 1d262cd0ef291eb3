import type { InstallService, OpenInstall } from '../install-service.js';
import type { CallTable } from '../host/types.js';
import type { RecentInstalls } from './app.js';
import { toPreview } from './preview.js';

/**
 * The Home, Files and Definitions screens: a game install through the layered filesystem. `install.open`
 * mounts afresh (the user may have changed the folder, e.g. exported a mod into it) and remembers the
 * install as recent; the other calls use the cached mount, mounting with default options if the install
 * was allowed (the demo, a ROOT given on the command line) but not opened yet.
 */
export type InstallCalls =
  | 'install.open' | 'install.stats' | 'install.tree' | 'install.resolve' | 'install.defs' | 'install.conflicts'
  | 'install.read' | 'install.extract';

export function installHandlers(installs: InstallService, recent: RecentInstalls): Pick<CallTable, InstallCalls> {
  const opened = (root: string): Promise<OpenInstall> => installs.get(root).catch(() => installs.open(root));
  return {
    'install.open': async ({ root, game, disc, noDisc }) => {
      const install = await installs.open(root, { game, disc, noDisc, refresh: true });
      await recent.add(install.root);
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
    'install.extract': async ({ root, paths, target }, ctx) =>
      (await opened(root)).extract(paths, target, { signal: ctx.signal, onProgress: ctx.progress }),
  };
}
