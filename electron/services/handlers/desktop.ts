import { access, constants, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { FolderListing } from '../../../shared/contract.js';
import type { CallTable } from '../host/types.js';
import { HostError } from '../host/errors.js';
import { dotFolderIn, requireBrowsable, type KnownInstalls } from '../host/reach.js';
import { extractPaths, type MountedInstall } from '../../vfs/index.js';

/**
 * The folder browser (the browser's stand-in for native pickers), extraction's default target, and what
 * only a desktop shell can do: show a file in the file manager, drag files out to it. `Desktop` is the
 * Electron shell's part (electron/main/desktop.ts); the web host has none and refuses those calls.
 */
export interface Desktop {
  /** Show the file (or folder) selected in the system's file manager. */
  reveal(path: string): void;
  /** Open a folder in the file manager. */
  openFolder(path: string): Promise<void>;
  /** Start dragging these files out of the window (they exist on disk). */
  startDrag(files: string[]): void;
}

/** Where the host looks for places: the user's home, their Downloads folder, and a folder for temporary copies. */
export interface DesktopPlaces {
  home: string;
  downloads: string;
  temp: string;
}

/** The archives the browser's file view offers (the Archive screen opens these), by extension. */
const ARCHIVE_EXTENSIONS: ReadonlySet<string> = new Set(['.hpi', '.ufo', '.ccx', '.gp3', '.pak', '.sin', '.wad']);
/** A folder with more entries than this is listed in part (the browser is for finding a folder, not a catalogue). */
const LIST_LIMIT = 5000;

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true });

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

async function places(where: DesktopPlaces, installs: KnownInstalls): Promise<FolderListing['places']> {
  const list = [{ label: 'Home', path: resolve(where.home) }];
  if (await isFolder(where.downloads)) list.push({ label: 'Downloads', path: resolve(where.downloads) });
  for (const root of installs.list()) list.push({ label: `Install: ${basename(root)}`, path: root });
  return list;
}

export async function listFolder(
  path: string | undefined,
  withFiles: boolean,
  where: DesktopPlaces,
  installs: KnownInstalls,
): Promise<FolderListing> {
  const start = await places(where, installs);
  if (path === undefined) return { path: null, parent: null, folders: [], files: [], places: start };
  await requireBrowsable(path, where.home, installs);
  const entries = await readdir(path, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    throw new HostError(
      err.code === 'ENOENT' || err.code === 'ENOTDIR' ? 'not-found' : 'failed',
      `${path}: ${err.code === 'ENOTDIR' ? 'not a folder' : err.code === 'ENOENT' ? 'no such folder' : 'cannot be read'}`,
    );
  });
  const folders: FolderListing['folders'] = [];
  const files: FolderListing['files'] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.') || folders.length + files.length >= LIST_LIMIT) continue;
    const full = join(path, entry.name);
    // A link is listed by what it points to; entering it is checked again (requireBrowsable follows it).
    const info = entry.isSymbolicLink() ? await stat(full).catch(() => null) : entry;
    if (info?.isDirectory()) folders.push({ name: entry.name, path: full });
    else if (withFiles && info?.isFile() && ARCHIVE_EXTENSIONS.has(extname(entry.name).toLowerCase())) {
      files.push({ name: entry.name, path: full, size: (await stat(full).catch(() => null))?.size ?? 0 });
    }
  }
  const up = dirname(path);
  const parent =
    up !== path &&
    (await requireBrowsable(up, where.home, installs).then(
      () => true,
      () => false,
    ))
      ? up
      : null;
  return { path, parent, folders: folders.sort(byName), files: files.sort(byName), places: start };
}

/** Whether the studio could make a folder in `dir`: it exists, is writable, is no dot-folder and lies in no opened install. */
async function mayExtractInto(dir: string, installs: KnownInstalls): Promise<boolean> {
  if (dotFolderIn(dir) !== undefined || (await installs.opened(dir)) !== null || !(await isFolder(dir))) return false;
  return access(dir, constants.W_OK).then(
    () => true,
    () => false,
  );
}

/**
 * Extraction's default target: a folder named after the archive (or `name`) beside the archive, when that is
 * a folder the studio may write (not an install, which extraction never writes into); otherwise in the
 * user's Downloads folder (the home folder when there is none). `exists` lets the studio ask first.
 */
export async function defaultTarget(
  from: string,
  name: string | undefined,
  where: DesktopPlaces,
  installs: KnownInstalls,
): Promise<{ target: string; exists: boolean }> {
  const info = await stat(from).catch(() => null);
  const stem = name ?? (info?.isFile() ? basename(from, extname(from)) : basename(from));
  const beside = info?.isFile() ? dirname(from) : null;
  const dir =
    beside !== null && (await mayExtractInto(beside, installs))
      ? beside
      : (await isFolder(where.downloads))
        ? resolve(where.downloads)
        : resolve(where.home);
  const target = join(dir, stem || 'extracted');
  return { target, exists: (await stat(target).catch(() => null)) !== null };
}

const desktopOnly = (what: string) =>
  new HostError('not-allowed', `${what} needs the desktop app (npm start); the browser cannot reach the file manager`);

export function desktopHandlers(options: {
  where: DesktopPlaces;
  installs: KnownInstalls;
  desktop: Desktop | null;
  opened: (root: string) => Promise<MountedInstall>;
  /** Temporary folders made for drags, removed when the host closes. */
  scratch: Set<string>;
}): Pick<CallTable, 'folders.list' | 'extract.defaultTarget' | 'shell.reveal' | 'shell.dragOut'> {
  const { where, installs, desktop } = options;
  return {
    'folders.list': async ({ path, files }) => listFolder(path, files === true, where, installs),
    'extract.defaultTarget': async ({ from, name }) => defaultTarget(from, name, where, installs),
    'shell.reveal': async ({ path, open }) => {
      if (!desktop) throw desktopOnly('Showing a file in its folder');
      if (!(await stat(path).catch(() => null))) throw new HostError('not-found', `${path}: no such file or folder`);
      if (open) await desktop.openFolder(path);
      else desktop.reveal(path);
      return { shown: path };
    },
    // Dragged out as real files: extracted first into a temporary folder of the host's own.
    'shell.dragOut': async ({ root, paths, folder }, ctx) => {
      if (!desktop) throw desktopOnly('Dragging files out');
      const temp = await mkdtemp(join(where.temp, 'modpak-drag-'));
      options.scratch.add(temp);
      const result = await extractPaths(await options.opened(root), paths, temp, { signal: ctx.signal, onProgress: ctx.progress });
      const dragged: string[] = [];
      for (const p of folder !== undefined ? [folder] : paths) {
        const full = join(temp, ...p.split('/').filter(Boolean));
        if (full !== temp && (await stat(full).catch(() => null))) dragged.push(full);
      }
      if (dragged.length === 0) throw new HostError('not-found', 'nothing to drag: the files were not found in the install');
      desktop.startDrag(dragged);
      return { files: result.files, dragged };
    },
  };
}

/** Remove the drag folders (the file manager has copied what it took by then). */
export async function removeScratch(scratch: Set<string>): Promise<void> {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true }).catch(() => {});
  scratch.clear();
}
