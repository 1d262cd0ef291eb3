import { basename } from 'node:path';
import { isAtomicTemporary } from '../io/byte-sink.js';

/**
 * What a workspace folder holds that is not part of the mod: editors' swap and backup files, desktop
 * litter, and the temporary file of a save in flight (renamed into place a moment later). Export, diff, file lists and watch all skip the same names, so what the
 * watcher reacts to is exactly what the export packs.
 */
const junkNames = new Set(['.DS_STORE', 'THUMBS.DB', 'DESKTOP.INI', '4913']);

/** True for a base name (or a path, whose last part is checked) that no export should contain. */
export function isWorkspaceJunk(nameOrPath: string): boolean {
  const name = basename(nameOrPath.replace(/\\/g, '/'));
  const upper = name.toUpperCase();
  if (junkNames.has(upper) || isAtomicTemporary(name)) return true;
  // vim swap files (.x.swp, .x.swo), emacs backups (x~) and lock/autosave files (.#x, #x#).
  if (/\.sw[a-p]$/i.test(name) && name.startsWith('.')) return true;
  return name.endsWith('~') || name.startsWith('.#') || (name.startsWith('#') && name.endsWith('#'));
}
