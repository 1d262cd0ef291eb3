/**
 * Path rules shared by every layer (pure: no Node, no DOM).
 * Archive paths use forward slashes and keep their stored case; comparisons are case-insensitive in
 * upper-case ASCII, the way TA compares names.
 */

/** Turn a stored name into the canonical archive path: `\` → `/`, no leading or doubled slashes. */
export function normalizeArchivePath(name: string): string {
  return name
    .replace(/\\/g, '/')
    .replace(/\/{2,}/g, '/')
    .replace(/^\/+/, '')
    .replace(/\/+$/, '');
}

/** The key a path is looked up by: upper-case ASCII only (so non-ASCII bytes keep their identity). */
export function pathKey(path: string): string {
  return normalizeArchivePath(path).replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32));
}

/**
 * A name safeRelativePath keeps as it is: no drive letter, no leading slash, no backslash or NUL, no
 * empty, `.` or `..` segment.
 */
const CANONICAL_RELATIVE = /^(?![a-zA-Z]:|\/|\.\.?(?:\/|$))(?:[^\\/\0]|\/(?!\/|$|\.\.?(?:\/|$)))+$/;

/**
 * The relative path an entry may be extracted to, or null when it would climb out of the target:
 * `..` segments, a leading slash or backslash, a drive letter, or NUL. Backslashes count as separators,
 * since Windows tools and Pangya archives use them.
 */
export function safeRelativePath(name: string): string | null {
  // Most names are already in the form this returns: one test, no arrays (an extraction asks for 30,000).
  if (CANONICAL_RELATIVE.test(name)) return name;
  if (name.includes('\0')) return null;
  if (/^[a-zA-Z]:/.test(name)) return null;
  if (/^[\\/]/.test(name)) return null;
  const parts = name.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.length === 0) return null;
  if (parts.some((p) => p === '..')) return null;
  return parts.join('/');
}

/** Glob-free helper: the parent folder of an archive path ('' at the top). */
export function parentPath(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}
