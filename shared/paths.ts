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

/**
 * Printable ASCII segments (no slash, no backslash) joined by single slashes: already canonical, and
 * upper-cased by toUpperCase exactly as by the ASCII rule. Most stored names are this; a test keeps
 * both paths to the same answers.
 */
const PLAIN_ASCII_PATH = /^[\x20-\x2e\x30-\x5b\x5d-\x7e]+(?:\/[\x20-\x2e\x30-\x5b\x5d-\x7e]+)*$/;

/** The key a path is looked up by: upper-case ASCII only (so non-ASCII bytes keep their identity). */
export function pathKey(path: string): string {
  if (PLAIN_ASCII_PATH.test(path)) return path.toUpperCase();
  return normalizeArchivePath(path).replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32));
}

/** Segments free of NUL, slashes and backslashes joined by single slashes; a `.` or `..` segment in a path. */
const SEPARATED_SEGMENTS = /^[^\0\\/]+(?:\/[^\0\\/]+)*$/;
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;

/**
 * The relative path an entry may be extracted to, or null when it would climb out of the target:
 * `..` segments, a leading slash or backslash, a drive letter, or NUL. Backslashes count as separators,
 * since Windows tools and Pangya archives use them.
 */
export function safeRelativePath(name: string): string | null {
  // The common case needs no splitting: nothing to drop, nothing that climbs.
  if (SEPARATED_SEGMENTS.test(name) && !DOT_SEGMENT.test(name)) return /^[a-zA-Z]:/.test(name) ? null : name;
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
