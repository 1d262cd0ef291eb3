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
 * `lookupKey` of each path, for a whole entry list at once: the paths joined with NUL, checked by one
 * regular expression, upper-cased once and split again, natively. Half the time of a key per path in a
 * fresh process, where a loop over every character runs cold. A list the check refuses, or whose paths
 * hold a NUL themselves, takes the key of each path instead.
 */
export function lookupKeys(paths: readonly string[]): string[] {
  if (paths.length === 0) return [];
  const joined = paths.join('\0');
  if (!NOT_CANONICAL.test(joined)) {
    const keys = joined.toUpperCase().split('\0');
    if (keys.length === paths.length) return keys;
  }
  return paths.map(lookupKey);
}
