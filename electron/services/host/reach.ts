import { constants } from 'node:fs';
import { copyFile, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { isInside, realOrNearest } from '../../io/real-path.js';
import { extensionOf } from '../../vfs/names.js';
import { HostError } from './errors.js';

/**
 * What the studio's host lets a call read and write, beyond the allowlist (which only says what the user
 * named): an install is a folder that holds game archives (or the game's data folders that do); its own
 * files are never replaced without the request's explicit confirmation (`replaceOriginal`), and then a
 * backup NAME.bak is kept beside; nothing is extracted into an install; workspaces are written only when the
 * host created them or the user picked them, and nothing is written into a dot-folder (.ssh, .git, ...).
 */

/** The archives of every supported game, by extension. */
const GAME_ARCHIVES: ReadonlySet<string> = new Set(['HPI', 'UFO', 'CCX', 'GP3', 'PAK', 'SIN']);
/** How many subfolders are looked into for archives (Quake's id1, Quake 2's baseq2, Daikatana's data). */
const DATA_FOLDERS = 32;
/** The folders of loose game data a TA / TA: Kingdoms install reads beside (or instead of) its archives. */
const GAME_DATA_FOLDERS: ReadonlySet<string> = new Set([
  'UNITS',
  'GAMEDATA',
  'MAPS',
  'ANIMS',
  'FEATURES',
  'WEAPONS',
  'UNITPICS',
  'SCRIPTS',
  'OBJECTS3D',
  'SOUNDS',
  'TEXTURES',
  'GUIS',
  'BITMAPS',
  'PALETTES',
  'CAMPAIGNS',
  'ID1',
  'BASEQ2',
]);

async function namesIn(dir: string): Promise<{ files: string[]; folders: string[] } | null> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return {
      files: entries.filter((e) => e.isFile()).map((e) => e.name),
      folders: entries.filter((e) => e.isDirectory()).map((e) => e.name),
    };
  } catch {
    return null;
  }
}

/** Whether the folder itself holds game archives. */
export async function holdsGameArchives(dir: string): Promise<boolean> {
  const names = await namesIn(dir);
  return names !== null && names.files.some((n) => GAME_ARCHIVES.has(extensionOf(n)));
}

/** An install: a folder that holds game archives, the game's data folders, or folders holding archives (a Quake folder holding id1/). */
export async function looksLikeInstall(dir: string): Promise<boolean> {
  const names = await namesIn(dir);
  if (names === null) return false;
  if (names.files.some((n) => GAME_ARCHIVES.has(extensionOf(n)))) return true;
  if (names.folders.some((n) => GAME_DATA_FOLDERS.has(n.toUpperCase()))) return true;
  let looked = 0;
  for (const folder of names.folders.sort()) {
    if (folder.startsWith('.') || looked++ >= DATA_FOLDERS) continue;
    if (await holdsGameArchives(join(dir, folder))) return true;
  }
  return false;
}

export async function requireInstall(root: string): Promise<void> {
  if (!(await looksLikeInstall(root)))
    throw new HostError(
      'not-allowed',
      `${root}: not a game install (it holds no game archives, no game data folders, no folders holding archives)`,
    );
}

/**
 * The installs this host opened (install.open, the initial install), to tell whether a path lies in one.
 * Paths are compared by their real location (a link to an install counts as the install).
 */
export class KnownInstalls {
  private readonly roots = new Map<string, string>();

  async add(root: string): Promise<void> {
    this.roots.set(resolve(root), await realOrNearest(resolve(root)));
  }

  /** The installs opened so far, as given. */
  list(): string[] {
    return [...this.roots.keys()];
  }

  /** The opened install `path` lies in (by name and by real path), or null; a folder merely holding archives does not count. */
  async opened(path: string): Promise<string | null> {
    const abs = resolve(path);
    const real = await realOrNearest(abs);
    for (const [root, realRoot] of this.roots) if (isInside(root, abs) && isInside(realRoot, real)) return root;
    return null;
  }

  /**
   * The install `path` is in: an opened install it lies in (by name or real path), or the folder itself
   * when it holds game archives (an install not opened yet). Null when neither.
   */
  async holding(path: string): Promise<string | null> {
    const abs = resolve(path);
    const real = await realOrNearest(abs);
    for (const [root, realRoot] of this.roots) if (isInside(root, abs) || isInside(realRoot, real)) return root;
    if (await holdsGameArchives(abs)) return abs;
    return null;
  }
}

/** Extraction (of an archive or of an install's files) into an install folder or below one is refused. */
export async function refuseExtractionIntoInstall(target: string, installs: KnownInstalls): Promise<void> {
  const install = await installs.holding(target);
  if (install !== null) throw new HostError('not-allowed', `${target}: inside the install ${install}; extract into a folder outside it`);
}

/**
 * Extraction over a folder that already holds files needs the user's yes (`overwrite`): refused with
 * 'conflict' (the studio then asks) otherwise. A missing or empty folder is fine; a file there is not.
 */
export async function refuseOverwrite(target: string, overwrite: boolean | undefined): Promise<void> {
  const info = await stat(target).catch(() => null);
  if (info === null) return;
  if (!info.isDirectory()) throw new HostError('failed', `${target} is a file, not a folder; choose another target`);
  const names = await readdir(target);
  if (names.length > 0 && overwrite !== true) {
    throw new HostError(
      'conflict',
      `${target} already exists and holds ${names.length} item${names.length === 1 ? '' : 's'}; files of the same name would be replaced`,
    );
  }
}

/** A workspace inside an install would write over the install's own files: refused. */
export async function refuseWorkspaceInInstall(dir: string, installs: KnownInstalls): Promise<void> {
  const install = await installs.holding(dir);
  if (install !== null)
    throw new HostError('not-allowed', `${dir}: inside the install ${install}; keep the workspace in a folder of its own outside it`);
}

/**
 * A dot-folder or dot-file anywhere in the path (.ssh, .git, .bashrc) is never written. A Wine prefix's
 * drive (~/.wine/drive_c/...) is where Windows games live on Linux, so what lies below a drive_c counts.
 */
export function refuseDotFolders(path: string, what: string): void {
  const hidden = dotFolderIn(path);
  if (hidden !== undefined)
    throw new HostError('not-allowed', `${path}: the studio does not write into dot-folders (${hidden}); choose another ${what}`);
}

/** The first dot-folder (or dot-file) named in `path`, not counting what lies below a Wine drive_c. */
export function dotFolderIn(path: string): string | undefined {
  const parts = resolve(path).split(/[\\/]+/);
  const drive = parts.findIndex((p) => p.toLowerCase() === 'drive_c');
  return parts.find((p, i) => p.startsWith('.') && p !== '.' && (drive < 0 || i > drive));
}

/**
 * Where the browser's folder browser may look, and what a dropped path may be copied from: the user's
 * home and the opened installs (by the path as written and by its real path, so a link does not lead
 * out), never through a dot-folder. Refused with 'not-allowed' otherwise.
 */
export async function requireBrowsable(path: string, home: string, installs: KnownInstalls): Promise<void> {
  const hidden = dotFolderIn(path);
  if (hidden !== undefined) throw new HostError('not-allowed', `${path}: dot-folders (${hidden}) are not shown`);
  const abs = resolve(path);
  const real = await realOrNearest(abs);
  const realHome = await realOrNearest(resolve(home));
  // A link below home into one of its dot-folders (~/.ssh) counts as that dot-folder.
  const hiddenBelow = relative(realHome, real)
    .split(/[\\/]+/)
    .some((p) => p.startsWith('.') && p !== '.' && p !== '..');
  if (isInside(resolve(home), abs) && isInside(realHome, real) && !hiddenBelow) return;
  if ((await installs.opened(abs)) !== null) return;
  throw new HostError('not-allowed', `${path}: outside your home folder and the opened installs`);
}

/**
 * Before an export or a watch replaces `target`: when it is an existing file of an install that the studio
 * did not write (`own`), refuse unless confirmed, and when confirmed keep the original as NAME.bak (the
 * first backup is kept: it is the install's own file).
 */
export async function guardOriginal(target: string, confirmed: boolean, own: boolean): Promise<{ backup: string | null }> {
  const info = await stat(target).catch(() => null);
  if (!info?.isFile() || own || !(await holdsGameArchives(dirname(target)))) return { backup: null };
  const backup = `${target}.bak`;
  if (!confirmed) {
    throw new HostError(
      'not-allowed',
      `${basename(target)} is one of the install's own files: replacing it needs confirmation, and then the original is kept as ${basename(backup)}`,
    );
  }
  try {
    await copyFile(target, backup, constants.COPYFILE_EXCL);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return { backup };
}

/** Folders the studio may write as workspaces: created by it, or picked by the user in a native picker. */
export class WritableWorkspaces {
  private readonly dirs = new Set<string>();

  add(dir: string): void {
    this.dirs.add(resolve(dir));
  }

  has(dir: string): boolean {
    return this.dirs.has(resolve(dir));
  }
}
