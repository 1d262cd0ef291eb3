import { pathKey } from '../../shared/paths.js';

/**
 * The merged index's key → path-number table: open addressing over typed arrays, hashed in the same pass
 * that folds the query to upper-case ASCII. A lookup allocates nothing for a canonical path (ASCII, `/`
 * separators, no leading, trailing or doubled slash): no upper-cased copy, no engine string hashing, and
 * the comparison against the stored key folds case on the fly. Other spellings take the general route
 * (`pathKey`, then the same probe).
 */

const EMPTY = -1;

/** FNV-1a over the upper-cased code units of `key` (which must already be a key: folded, canonical). */
function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class PathTable {
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly hashes: Uint32Array;
  /** Whether the last `find` query was canonical (the caller then reports it back as it came). */
  lastQueryCanonical = true;

  /** `keys[n]` is the key (pathKey form) of path number n; keys must be distinct. */
  constructor(private readonly keys: readonly string[]) {
    let size = 16;
    while (size < keys.length * 2) size <<= 1;
    this.slots = new Int32Array(size).fill(EMPTY);
    this.mask = size - 1;
    this.hashes = new Uint32Array(keys.length);
    for (let n = 0; n < keys.length; n++) {
      const h = hashKey(keys[n]!);
      this.hashes[n] = h;
      let slot = h & this.mask;
      while (this.slots[slot] !== EMPTY) slot = (slot + 1) & this.mask;
      this.slots[slot] = n;
    }
  }

  /** The number of an exact key, or -1. */
  findKey(key: string): number {
    return this.probe(key, hashKey(key), false);
  }

  /** The number of a path in any case and spelling, or -1. Sets `lastQueryCanonical`. */
  find(path: string): number {
    // One pass: fold a–z, hash, and check the path is canonical.
    let h = 0x811c9dc5;
    let canonical = true;
    let afterSlash = true;
    const n = path.length;
    for (let i = 0; i < n; i++) {
      let c = path.charCodeAt(i);
      if (c >= 97 && c <= 122) c -= 32;
      else if (c === 47) {
        if (afterSlash) canonical = false;
        afterSlash = true;
        h = Math.imul(h ^ c, 0x01000193);
        continue;
      } else if (c > 127 || c === 92) canonical = false;
      afterSlash = false;
      h = Math.imul(h ^ c, 0x01000193);
    }
    if (n > 0 && afterSlash) canonical = false;
    this.lastQueryCanonical = canonical;
    if (!canonical) return this.findKey(pathKey(path));
    return this.probe(path, h >>> 0, true);
  }

  private probe(query: string, hash: number, fold: boolean): number {
    const { slots, mask, hashes, keys } = this;
    let slot = hash & mask;
    for (;;) {
      const n = slots[slot]!;
      if (n === EMPTY) return -1;
      if (hashes[n] === hash && sameKey(keys[n]!, query, fold)) return n;
      slot = (slot + 1) & mask;
    }
  }
}

/** `key` (folded) equals `query`, folding the query's a–z when `fold`. */
function sameKey(key: string, query: string, fold: boolean): boolean {
  if (key.length !== query.length) return false;
  if (!fold) return key === query;
  for (let i = 0; i < key.length; i++) {
    let c = query.charCodeAt(i);
    if (c >= 97 && c <= 122) c -= 32;
    if (c !== key.charCodeAt(i)) return false;
  }
  return true;
}
