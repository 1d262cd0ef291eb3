import { pathKey } from '../../shared/paths.js';
import { fail } from '../../shared/errors.js';
import { isCanonicalAscii } from './keys.js';

/**
 * The merged index's key → path-number table: open addressing over keys packed four bytes to a word,
 * hashed in the same pass that folds the query to upper-case ASCII.
 *
 * Why this layout: a lookup on a full install is bound by memory and by the work per character, not by
 * the probe. Key strings and a pointer array spread over the JS heap cost four dependent cache misses per
 * lookup; here a lookup reads two typed arrays. The slot holds an 8-bit tag of the key's hash, which rules
 * out almost every wrong slot without touching the key, and the offset of the key's record; the record
 * holds the key's byte length, its path number and its bytes, so one cache line usually answers. The
 * query is folded and packed into words while it is hashed, and compared a word (four characters) at a
 * time.
 *
 * Keys are stored as bytes: ASCII as itself, any other UTF-16 unit as three bytes (lead byte 0xE0–0xEF),
 * which keeps distinct keys distinct. An ASCII query is looked up directly. A query that is not canonical
 * (a `\`, a leading, trailing or doubled `/`) cannot equal a stored key, which is canonical, so only a
 * miss needs checking for that; such a query, and any non-ASCII one, takes the general route (`pathKey`,
 * then an exact probe).
 */

/** FNV-1a's prime, one step per word; `mix` then spreads every word's bits over the slot index and tag. */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Slots hold `tag << 24 | (record offset + 1)`; 0 is a free slot. */
const MAX_RECORD_WORDS = 0xfffffe;
/** A record is [byte length, path number, the key's bytes four to a word, zero-padded]. */
const RECORD_HEADER = 2;

/**
 * Four ASCII bytes folded to upper case at once, without a branch on the letter case (which mixed-case
 * paths mispredict): adding 0x1f sets a byte's top bit from 'a' up, adding 0x05 from '{' up (no byte
 * carries into the next, all being below 128), so the two differ exactly on a–z, whose 0x20 bit is
 * then cleared. Bytes of 128 and above must not occur (callers check for them apart).
 */
function upperAscii(word: number): number {
  const letters = ((word + 0x1f1f1f1f) & ~(word + 0x05050505) & 0x80808080) >>> 2;
  return word ^ letters;
}

/** The final avalanche of MurmurHash3: FNV moves a word's bits only upwards, the slot index is the low bits. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Byte length of a key in the table's encoding (see the class comment). */
function encodedLength(key: string): number {
  let bytes = key.length;
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) > 127) bytes += 2;
  return bytes;
}

/**
 * Packs `key` (already a key: folded, canonical; `bytes` long in the table's encoding) into `out` from
 * word `at`, four bytes to a word, zero-padded, and returns its hash.
 */
function packKey(key: string, bytes: number, out: Int32Array, at: number): number {
  let h = FNV_OFFSET;
  let word = 0;
  let shift = 0;
  let k = at;
  for (let i = 0; i < key.length; i++) {
    const u = key.charCodeAt(i);
    // The unit's bytes, first byte lowest: itself, or three bytes for a unit above 127.
    let sequence = u;
    let count = 1;
    if (u > 127) {
      sequence = (0xe0 | (u >>> 12)) | ((0x80 | ((u >>> 6) & 63)) << 8) | ((0x80 | (u & 63)) << 16);
      count = 3;
    }
    for (; count > 0; count--, sequence >>>= 8) {
      word |= (sequence & 0xff) << shift;
      shift += 8;
      if (shift === 32) {
        out[k++] = word;
        h = Math.imul(h ^ word, FNV_PRIME);
        word = 0;
        shift = 0;
      }
    }
  }
  if (shift > 0) {
    out[k] = word;
    h = Math.imul(h ^ word, FNV_PRIME);
  }
  return mix(h ^ bytes);
}

export class PathTable {
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** Every key's record, back to back (see RECORD_HEADER). */
  private readonly records: Int32Array;
  /** The longest key's byte length: a longer query is no key as it stands. */
  private readonly longest: number;
  /** The packed query of the current lookup (room for the longest key, so it never grows). */
  private readonly query: Int32Array;
  /** Whether the last `find` query was canonical (the caller then reports it back as it came). */
  lastQueryCanonical = true;

  /** `keys[n]` is the key (pathKey form) of path number n; keys must be distinct. */
  constructor(keys: readonly string[]) {
    let size = 16;
    while (size < keys.length * 2) size <<= 1;
    this.mask = size - 1;
    this.slots = new Int32Array(size);
    const lengths = keys.map(encodedLength);
    let total = 0;
    let longest = 0;
    for (const bytes of lengths) {
      total += RECORD_HEADER + ((bytes + 3) >>> 2);
      longest = Math.max(longest, bytes);
    }
    this.longest = longest;
    this.query = new Int32Array((longest + 3) >>> 2);
    if (total > MAX_RECORD_WORDS) fail('unsupported', `${keys.length} paths are more than one index holds`);
    const records = (this.records = new Int32Array(total));
    let at = 0;
    for (let n = 0; n < keys.length; n++) {
      const bytes = lengths[n]!;
      records[at] = bytes;
      records[at + 1] = n;
      const h = packKey(keys[n]!, bytes, records, at + RECORD_HEADER);
      let slot = h & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = (h & 0xff000000) | (at + 1);
      at += RECORD_HEADER + ((bytes + 3) >>> 2);
    }
  }

  /** The number of a path in any case and spelling, or -1. Sets `lastQueryCanonical`. */
  find(path: string): number {
    const length = path.length;
    // A query longer than every key skips straight to the miss below: only a spelling with extra
    // slashes could still name a key.
    if (length <= this.longest) {
      const query = this.query;
      // One pass folds a–z, packs four characters to a word and hashes the words; units above 127 are
      // only collected here and looked at once, after the loop.
      let h = FNV_OFFSET;
      let high = 0;
      let k = 0;
      let i = 0;
      for (; i + 3 < length; i += 4) {
        const a = path.charCodeAt(i);
        const b = path.charCodeAt(i + 1);
        const c = path.charCodeAt(i + 2);
        const d = path.charCodeAt(i + 3);
        high |= a | b | c | d;
        const word = upperAscii(a | (b << 8) | (c << 16) | (d << 24));
        query[k++] = word;
        h = Math.imul(h ^ word, FNV_PRIME);
      }
      if (i < length) {
        let word = 0;
        for (let shift = 0; i < length; i++, shift += 8) {
          const c = path.charCodeAt(i);
          high |= c;
          word |= c << shift;
        }
        word = upperAscii(word);
        query[k++] = word;
        h = Math.imul(h ^ word, FNV_PRIME);
      }
      if (high > 127) return this.findGeneral(path);
      const n = this.probe(mix(h ^ length), length, k);
      if (n >= 0) {
        // A hit equals a stored key, so it is canonical.
        this.lastQueryCanonical = true;
        return n;
      }
    }
    // A miss: final for a canonical query; any other may be a spelling of a key.
    if (!isCanonicalAscii(path)) return this.findGeneral(path);
    this.lastQueryCanonical = true;
    return -1;
  }

  private findGeneral(path: string): number {
    this.lastQueryCanonical = false;
    return this.findKey(pathKey(path));
  }

  /** The number of an exact key (already folded and canonical), or -1. */
  findKey(key: string): number {
    const bytes = encodedLength(key);
    if (bytes > this.longest) return -1;
    const words = (bytes + 3) >>> 2;
    this.query.fill(0, 0, words);
    return this.probe(packKey(key, bytes, this.query, 0), bytes, words);
  }

  /** The path number whose record matches the packed query (`words` words, `bytes` long), or -1. */
  private probe(h: number, bytes: number, words: number): number {
    const { slots, mask, records, query } = this;
    const tag = h & 0xff000000;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot]!;
      if (held === 0) return -1;
      if ((held & 0xff000000) !== tag) continue;
      const at = (held & 0xffffff) - 1;
      if (records[at] !== bytes) continue;
      const key = at + RECORD_HEADER;
      let j = 0;
      while (j < words && query[j] === records[key + j]) j++;
      if (j === words) return records[at + 1]!;
    }
  }
}
