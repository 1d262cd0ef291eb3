import { pathKey } from '../../shared/paths.js';

/**
 * The lookup key of a path, exactly `pathKey` from shared/paths.ts, but fast for the usual case: a path
 * that is already canonical (ASCII, `/` separators, no leading, trailing or doubled slash) needs only the
 * native upper-casing, which for ASCII touches a–z alone. Anything else takes the general route.
 * The merged index computes one key per entry at mount, and each lookup one key for its query.
 */
export function isCanonicalAscii(path: string): boolean {
  const n = path.length;
  if (n === 0) return true;
  let prevSlash = true; // a slash at position 0 counts as "after a slash"
  for (let i = 0; i < n; i++) {
    const c = path.charCodeAt(i);
    if (c > 127 || c === 92) return false;
    if (c === 47) {
      if (prevSlash) return false;
      prevSlash = true;
    } else prevSlash = false;
  }
  return !prevSlash;
}

export function lookupKey(path: string): string {
  return isCanonicalAscii(path) ? path.toUpperCase() : pathKey(path);
}

/** Anything that makes a path of a joined list non-canonical (see isCanonicalAscii), NUL being the separator. */
// eslint-disable-next-line no-control-regex -- NUL is the separator, and 0x00-0x7F is ASCII
const NOT_CANONICAL = /[^\x00-\x7f]|\\|(?:^|\0)\/|\/(?:\0|$)|\/\//;

/**
 * `lookupKey` of each path, for a whole entry list at once: the paths joined with NUL and checked by one
 * regular expression, natively, then each upper-cased natively. In a fresh process a loop over every
 * character runs cold: this takes half the time. (Upper-casing the joined text and splitting it was
 * quicker still, but gave sliced strings as keys, which made every lookup a third slower.) A NUL inside
 * a path can only make the check refuse a list, which then takes the key of each path.
 */
export function lookupKeys(paths: readonly string[]): string[] {
  if (NOT_CANONICAL.test(paths.join('\0'))) return paths.map(lookupKey);
  const keys = new Array<string>(paths.length);
  for (let i = 0; i < paths.length; i++) keys[i] = paths[i]!.toUpperCase();
  return keys;
}
