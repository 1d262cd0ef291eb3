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
