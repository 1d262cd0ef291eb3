import { pathKey } from '../../shared/paths.js';

/**
 * The merged index's key → path-number table: open addressing, hashed in the same pass that folds the
 * query to upper-case ASCII.
 *
 * Why this layout: a lookup on a full install is bound by cache misses, not arithmetic. Key strings and a
 * pointer array spread over the JS heap cost four dependent misses per lookup; here every byte a lookup
 * reads sits in four small typed arrays (about 2.6 MB for 60,000 paths, so they stay in the last-level
 * cache): the slot's path number, a one-byte tag from the hash that rules out almost every wrong slot
 * without touching the key, the key's offset, and the keys' characters back to back. A canonical query
 * (ASCII, `/` separators, no leading, trailing or doubled slash) allocates nothing; other spellings take
 * the general route (`pathKey`, then the same probe).
 */

const EMPTY = -1;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** ASCII folded to upper case, by table: no branch on the letter case, which mixed-case paths mispredict. */
const FOLD = new Uint8Array(128);
for (let c = 0; c < 128; c++) FOLD[c] = c >= 97 && c <= 122 ? c - 32 : c;

/** FNV-1a over the code units of `key` (which must already be a key: folded, canonical). */
function hashKey(key: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), FNV_PRIME);
  return h | 0;
}

/** The slot tag of a hash: its top byte (the slot index comes from the low bits, so the two are independent). */
const tagOf = (hash: number) => hash >>> 24;

export class PathTable {
  /** Per slot: the path number, or EMPTY. */
  private readonly slots: Int32Array;
  /** Per slot: the tag of its key's hash. */
  private readonly tags: Uint8Array;
  private readonly mask: number;
  /** Key n is `chars[starts[n] .. starts[n + 1])`. */
  private readonly starts: Int32Array;
  /** Every key's code units, back to back; one byte each unless some key needs more. */
  private readonly chars: Uint8Array | Uint16Array;
  /** Whether the last `find` query was canonical (the caller then reports it back as it came). */
  lastQueryCanonical = true;

  /** `keys[n]` is the key (pathKey form) of path number n; keys must be distinct. */
  constructor(keys: readonly string[]) {
    let size = 16;
    while (size < keys.length * 2) size <<= 1;
    this.mask = size - 1;
    this.slots = new Int32Array(size).fill(EMPTY);
    this.tags = new Uint8Array(size);
    this.starts = new Int32Array(keys.length + 1);
    let total = 0;
    let wide = false;
    for (const key of keys) {
      total += key.length;
      for (let i = 0; i < key.length && !wide; i++) wide = key.charCodeAt(i) > 255;
    }
    const chars = (this.chars = wide ? new Uint16Array(total) : new Uint8Array(total));
    let offset = 0;
    for (let n = 0; n < keys.length; n++) {
      const key = keys[n]!;
      this.starts[n] = offset;
      for (let i = 0; i < key.length; i++) chars[offset + i] = key.charCodeAt(i);
      offset += key.length;
      const h = hashKey(key);
      let slot = h & this.mask;
      while (this.slots[slot] !== EMPTY) slot = (slot + 1) & this.mask;
      this.slots[slot] = n;
      this.tags[slot] = tagOf(h);
    }
    this.starts[keys.length] = offset;
  }

  /** The number of an exact key, or -1. */
  findKey(key: string): number {
    return this.probe(key, hashKey(key), false);
  }

  /** The number of a path in any case and spelling, or -1. Sets `lastQueryCanonical`. */
  find(path: string): number {
    // One pass: fold a–z, hash, and check the path is canonical.
    let h = FNV_OFFSET;
    let afterSlash = true;
    const n = path.length;
    for (let i = 0; i < n; i++) {
      const c = path.charCodeAt(i);
      if (c > 127 || c === 92) return this.general(path);
      if (c === 47) {
        if (afterSlash) return this.general(path);
        afterSlash = true;
      } else afterSlash = false;
      h = Math.imul(h ^ FOLD[c]!, FNV_PRIME);
    }
    if (n > 0 && afterSlash) return this.general(path);
    this.lastQueryCanonical = true;
    return this.probe(path, h | 0, true);
  }

  /** A query that is not canonical: fold it the long way, then look the key up. */
  private general(path: string): number {
    this.lastQueryCanonical = false;
    return this.findKey(pathKey(path));
  }

  private probe(query: string, hash: number, fold: boolean): number {
    const { slots, tags, mask } = this;
    const tag = tagOf(hash);
    let slot = hash & mask;
    for (;;) {
      const n = slots[slot]!;
      if (n === EMPTY) return -1;
      if (tags[slot] === tag && this.sameKey(n, query, fold)) return n;
      slot = (slot + 1) & mask;
    }
  }

  /** Key n equals `query`, folding the query's a–z when `fold` (a canonical query is ASCII: find checked). */
  private sameKey(n: number, query: string, fold: boolean): boolean {
    const { chars, starts } = this;
    const start = starts[n]!;
    const length = query.length;
    if (starts[n + 1]! - start !== length) return false;
    if (fold) {
      for (let i = 0; i < length; i++) if (FOLD[query.charCodeAt(i)] !== chars[start + i]) return false;
    } else {
      for (let i = 0; i < length; i++) if (query.charCodeAt(i) !== chars[start + i]) return false;
    }
    return true;
  }
}
