import { pathKey } from '../../shared/paths.js';
import { fail } from '../formats/errors.js';

/**
 * The merged index's key → path-number table: open addressing, hashed in the same pass that folds the
 * query to upper-case ASCII.
 *
 * Why this layout: a lookup on a full install is bound by memory, not arithmetic. Key strings and a
 * pointer array spread over the JS heap cost four dependent cache misses per lookup; here a lookup reads
 * three small typed arrays (about 2.4 MB for 60,000 paths, so they stay in the last-level cache): the slot,
 * which holds the path number and an 8-bit tag of the key's hash that rules out almost every wrong slot
 * without touching the key; the key's offset; and the keys' characters, back to back. A canonical query
 * (ASCII, `/` separators, no leading, trailing or doubled slash) allocates nothing and is checked without a
 * branch per character; other spellings take the general route (`pathKey`, then an exact probe).
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Slots hold `tag << 24 | (n + 1)`; 0 is a free slot. */
const MAX_KEYS = 0xfffffe;

/** ASCII folded to upper case, by table: no branch on the letter case, which mixed-case paths mispredict. */
const FOLD = new Uint8Array(128);
for (let c = 0; c < 128; c++) FOLD[c] = c >= 97 && c <= 122 ? c - 32 : c;
/** Separator classes: 1 for `/`, 2 for `\` (which only the general route folds). */
const SEPARATOR = new Uint8Array(128);
SEPARATOR[47] = 1;
SEPARATOR[92] = 2;

/**
 * FNV-1a over the code units of `key` (which must already be a key: folded, canonical), two units per
 * step: half the multiplications in the chain that bounds the hashing loop. The slot index comes from
 * the low bits, which FNV derives from the low bits of every step's input, i.e. from both units.
 */
function hashKey(key: string): number {
  let h = FNV_OFFSET;
  const length = key.length;
  let i = 0;
  for (; i + 1 < length; i += 2) h = Math.imul(h ^ (key.charCodeAt(i) | (key.charCodeAt(i + 1) << 16)), FNV_PRIME);
  if (i < length) h = Math.imul(h ^ key.charCodeAt(i), FNV_PRIME);
  return h;
}

export class PathTable {
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** Key n is `chars[starts[n] .. starts[n + 1])`. */
  private readonly starts: Int32Array;
  /** Every key's code units, back to back; one byte each unless some key needs more. */
  private readonly chars: Uint8Array | Uint16Array;
  /** Whether the last `find` query was canonical (the caller then reports it back as it came). */
  lastQueryCanonical = true;

  /** `keys[n]` is the key (pathKey form) of path number n; keys must be distinct. */
  constructor(keys: readonly string[]) {
    if (keys.length > MAX_KEYS) fail('unsupported', `${keys.length} paths are more than one index holds (${MAX_KEYS})`);
    let size = 16;
    while (size < keys.length * 2) size <<= 1;
    this.mask = size - 1;
    this.slots = new Int32Array(size);
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
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = (h & 0xff000000) | (n + 1);
    }
    this.starts[keys.length] = offset;
  }

  /** The number of a path in any case and spelling, or -1. Sets `lastQueryCanonical`. */
  find(path: string): number {
    // One pass folds a–z and hashes; what would make the path non-canonical is only collected here
    // (units above 127, a backslash, a slash after a slash) and looked at once, after the loop.
    const length = path.length;
    let h = FNV_OFFSET;
    let high = 0;
    let bad = 0;
    let afterSlash = 0;
    let i = 0;
    for (; i + 1 < length; i += 2) {
      const c = path.charCodeAt(i);
      const d = path.charCodeAt(i + 1);
      high |= c | d;
      const sc = SEPARATOR[c & 127]!;
      const sd = SEPARATOR[d & 127]!;
      bad |= (sc & 2) | (sc & afterSlash) | (sd & 2) | (sd & sc);
      afterSlash = sd & 1;
      h = Math.imul(h ^ (FOLD[c & 127]! | (FOLD[d & 127]! << 16)), FNV_PRIME);
    }
    if (i < length) {
      const c = path.charCodeAt(i);
      high |= c;
      const sc = SEPARATOR[c & 127]!;
      bad |= (sc & 2) | (sc & afterSlash);
      afterSlash = sc & 1;
      h = Math.imul(h ^ FOLD[c & 127]!, FNV_PRIME);
    }
    if (high > 127 || bad !== 0 || (length > 0 && (path.charCodeAt(0) === 47 || afterSlash !== 0))) {
      this.lastQueryCanonical = false;
      return this.findKey(pathKey(path));
    }
    this.lastQueryCanonical = true;
    const { slots, mask, starts, chars } = this;
    const tag = h & 0xff000000;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot]!;
      if (held === 0) return -1;
      if ((held & 0xff000000) !== tag) continue;
      const n = (held & 0xffffff) - 1;
      const start = starts[n]!;
      if (starts[n + 1]! - start !== length) continue;
      let i = 0;
      while (i < length && FOLD[path.charCodeAt(i)] === chars[start + i]) i++;
      if (i === length) return n;
    }
  }

  /**
   * The number of an exact key (already folded and canonical), or -1. The same probe as at the end of
   * `find`, with an exact comparison instead of a folding one: one shared probe that folds only units
   * below 128 made the first 100,000 lookups about 8 ms slower (A/B, 10 bench runs each), so the hot
   * path keeps its own copy.
   */
  findKey(key: string): number {
    const { slots, mask, starts, chars } = this;
    const h = hashKey(key);
    const tag = h & 0xff000000;
    const length = key.length;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot]!;
      if (held === 0) return -1;
      if ((held & 0xff000000) !== tag) continue;
      const n = (held & 0xffffff) - 1;
      const start = starts[n]!;
      if (starts[n + 1]! - start !== length) continue;
      let i = 0;
      while (i < length && key.charCodeAt(i) === chars[start + i]) i++;
      if (i === length) return n;
    }
  }
}
