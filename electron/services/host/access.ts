import type { CallName } from '../../../shared/contract.js';

/**
 * Which request fields name paths on disk, and what each does to the allowlist:
 * - `open-folder` / `open-file`: the user opened, typed or picked it (a path field in the browser, a
 *   picker in Electron); granted once the call succeeds.
 * - `target-folder` / `target-file`: a destination the user chose; granted before the call so the work
 *   can write there.
 * - `use`: must already be granted, or the call is refused with 'not-allowed' before anything runs.
 * - `reach`: only looked at, never granted: the handler checks it against the host's reach (the user's
 *   home and the opened installs, no dot-folders; see reach.ts requireBrowsable).
 * Every path field of every call is listed: a call without paths has an empty list.
 */
export type FieldAccess = 'open-folder' | 'open-file' | 'target-folder' | 'target-file' | 'use' | 'reach';

export const pathFields: Record<CallName, Readonly<Record<string, FieldAccess>>> = {
  'app.info': {},
  'install.open': { root: 'open-folder', disc: 'open-folder' },
  'install.recent': {},
  'install.stats': { root: 'use' },
  'install.tree': { root: 'use' },
  'install.resolve': { root: 'use' },
  'install.defs': { root: 'use' },
  'install.conflicts': { root: 'use' },
  'install.read': { root: 'use' },
  'install.extract': { root: 'use', target: 'target-folder' },
  'install.grep': { root: 'use' },
  'install.check': { root: 'use' },
  'install.units': { root: 'use' },
  'archive.open': { path: 'open-file' },
  'archive.read': { path: 'use' },
  'archive.extract': { path: 'use', target: 'target-folder' },
  'archive.verify': { path: 'use' },
  // The host writes the bytes to a temporary copy of its own (granted there).
  'archive.openBytes': {},
  // `path` is a path inside the install, not on disk.
  'asset.view': { root: 'use', file: 'use' },
  'dialog.pickFolder': {},
  'dialog.pickFile': {},
  'folders.list': { path: 'reach' },
  'extract.defaultTarget': { from: 'use' },
  'shell.reveal': { path: 'use' },
  'shell.dragOut': { root: 'use' },
  'jobs.cancel': {},
  'workspace.open': { dir: 'open-folder', root: 'use' },
  'workspace.fromArchive': { archive: 'open-file', dir: 'target-folder', root: 'use' },
  'workspace.files': { dir: 'use' },
  'workspace.override': { dir: 'use', root: 'use' },
  'workspace.readText': { dir: 'use' },
  'workspace.writeText': { dir: 'use' },
  'workspace.checkTdf': {},
  // `path`s are relative to the workspace.
  'workspace.addFiles': { dir: 'use' },
  // `sources` (an array) are checked by the handler against the host's reach.
  'workspace.addPaths': { dir: 'use' },
  'mods.diff': { dir: 'use', root: 'use' },
  'mods.impact': { root: 'use', archive: 'use' },
  'mods.export': { dir: 'use', target: 'target-file', orderFrom: 'use' },
  'watch.start': { dir: 'use', target: 'target-file' },
  'watch.stop': { dir: 'use' },
  'watch.status': { dir: 'use' },
};
