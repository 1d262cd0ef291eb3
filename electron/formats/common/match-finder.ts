/**
 * Longest-match search for the 4 KiB-window LZ77 encoders (Pangya's, and HPI's greedy reference). Each
 * encoder owns its token format; this module only answers "what is the longest earlier match at position
 * `pos`?" within a window. (HPI's own encoder and Daikatana's 257-byte window have searches of their own.)
 *
 * Hash chains over 3-byte prefixes find matches of 3 bytes and more; a separate table of the last position
 * of every 2-byte prefix finds 2-byte matches (both formats accept them), so the search is as good as
 * scanning the whole window for the formats' short maximum lengths.
 */

export interface MatchFinderOptions {
  /** Largest distance back (4095 for a 4 KiB ring). */
  maxDistance: number;
  minLength: number;
  maxLength: number;
  /** When false, a match is never longer than its distance (for readers that copy with memmove). */
  allowOverlap: boolean;
  /**
   * Source positions p with p % mod === rem are never referenced. HPI's LZ77 addresses its ring by absolute
   * index and reserves index 0 as the terminator, so the byte that would sit there cannot be a match source.
   */
  skipSource?: { mod: number; rem: number };
  /** How many chain links to follow at most (the search stops early anyway once maxLength is reached). */
  maxChain?: number;
}

export interface Match {
  length: number;
  distance: number;
}

const MAX_HASH_BITS = 15;
const NO_MATCH: Match = { length: 0, distance: 0 };

export class MatchFinder {
  /** Newest position of each 3-byte hash; sized to the input, so a finder for a small file is cheap to make. */
  private head = new Int32Array(0);
  private hashShift = 0;
  /** Newest position of each 2-byte prefix, hashed into a table sized like `head` (exact at 16 bits). */
  private last2 = new Int32Array(0);
  private shift2 = 0;
  /** prev[pos & mask] = previous position with the same 3-byte hash; the window bounds how far back we look. */
  private prev = new Int32Array(0);
  /** prev2[pos & mask] = previous position with the same 2-byte prefix. */
  private prev2 = new Int32Array(0);
  private mask = 0;
  private inserted = 0;
  private data: Uint8Array = new Uint8Array(0);

  constructor(
    data: Uint8Array,
    private readonly options: MatchFinderOptions,
  ) {
    this.reset(data);
  }

  /**
   * Start over on new input. The tables are kept when they are large enough, and only the part this input
   * uses is cleared: an encoder that works chunk by chunk then allocates nothing per chunk.
   */
  reset(data: Uint8Array): void {
    this.data = data;
    this.inserted = 0;
    // Chain slots are indexed by position & mask: a table larger than the window (so a live slot is never
    // reused) or than the input (so no slot is ever reused), whichever is smaller. Chain slots need no
    // clearing: a position's slot is written when it is inserted, before any search can reach it.
    let size = 1;
    while (size <= this.options.maxDistance && size < data.length) size <<= 1;
    if (this.prev.length < size) {
      this.prev = new Int32Array(size);
      this.prev2 = new Int32Array(size);
    }
    this.mask = size - 1;
    let bits = 8;
    while (bits < MAX_HASH_BITS && 1 << bits < data.length) bits++;
    if (this.head.length < 1 << bits) this.head = new Int32Array(1 << bits);
    this.head.fill(-1, 0, 1 << bits);
    this.hashShift = 32 - bits;
    const bits2 = Math.min(16, bits + 1);
    if (this.last2.length < 1 << bits2) this.last2 = new Int32Array(1 << bits2);
    this.last2.fill(-1, 0, 1 << bits2);
    this.shift2 = 32 - bits2;
  }

  private hash3(pos: number): number {
    const d = this.data;
    // Multiplicative hash of three bytes; the top bits are the best mixed.
    return Math.imul((d[pos]! << 16) | (d[pos + 1]! << 8) | d[pos + 2]!, 0x9e3779b1) >>> this.hashShift;
  }

  private hash2(pos: number): number {
    const k = (this.data[pos]! << 8) | this.data[pos + 1]!;
    return this.shift2 === 16 ? k : Math.imul(k, 0x9e3779b1) >>> this.shift2;
  }

  /** Record every position before `pos` (positions are inserted in order, once each). */
  private insertUpTo(pos: number): void {
    const d = this.data;
    const end = Math.min(pos, d.length);
    for (let p = this.inserted; p < end; p++) {
      if (p + 1 < d.length) {
        const k = this.hash2(p);
        this.prev2[p & this.mask] = this.last2[k]!;
        this.last2[k] = p;
      }
      if (p + 2 < d.length) {
        const h = this.hash3(p);
        this.prev[p & this.mask] = this.head[h]!;
        this.head[h] = p;
      }
    }
    if (end > this.inserted) this.inserted = end;
  }

  /** Distance of the match `longest` found last (0 when it found none). */
  distance = 0;

  /** The longest match for the bytes at `pos`, or length 0. Call with non-decreasing `pos`. */
  find(pos: number): Match {
    const length = this.longest(pos);
    return length === 0 ? NO_MATCH : { length, distance: this.distance };
  }

  /**
   * The length of the longest match at `pos` (0 for none), its distance in `distance`: the allocation-free
   * form of `find`, for encoders that search at every position. Call with non-decreasing `pos`.
   */
  longest(pos: number): number {
    const d = this.data;
    const o = this.options;
    this.insertUpTo(pos);
    const remaining = d.length - pos;
    this.distance = 0;
    if (remaining < o.minLength) return 0;
    const maxLen = Math.min(o.maxLength, remaining);
    const lowest = pos - o.maxDistance;
    const skip = o.skipSource;
    let bestLen = 0;
    let bestDist = 0;

    if (remaining >= 3) {
      let candidate = this.head[this.hash3(pos)]!;
      let chain = o.maxChain ?? 1 << 30;
      while (candidate >= 0 && candidate >= lowest && chain-- > 0) {
        const dist = pos - candidate;
        if (!(skip && candidate % skip.mod === skip.rem)) {
          const limit = o.allowOverlap ? maxLen : Math.min(maxLen, dist);
          // Check the byte just past the current best first: most candidates fail there.
          if (limit > bestLen && d[candidate + bestLen] === d[pos + bestLen]) {
            let len = 0;
            while (len < limit && d[candidate + len] === d[pos + len]) len++;
            if (len > bestLen) {
              bestLen = len;
              bestDist = dist;
              if (len === maxLen) break;
            }
          }
        }
        const next = this.prev[candidate & this.mask]!;
        // A slot reused by a newer position means the chain left the window.
        if (next >= candidate) break;
        candidate = next;
      }
    }
    if (bestLen < 2 && o.minLength <= 2 && remaining >= 2) {
      // Nearest acceptable 2-byte match.
      // In a hashed table other prefixes share the chain, hence the byte check.
      let candidate = this.last2[this.hash2(pos)]!;
      while (candidate >= 0 && candidate >= lowest) {
        const dist = pos - candidate;
        if (
          d[candidate] === d[pos] &&
          d[candidate + 1] === d[pos + 1] &&
          (o.allowOverlap || dist >= 2) &&
          !(skip && candidate % skip.mod === skip.rem)
        ) {
          bestLen = 2;
          bestDist = dist;
          break;
        }
        const next = this.prev2[candidate & this.mask]!;
        if (next >= candidate) break;
        candidate = next;
      }
    }
    if (bestLen < o.minLength) return 0;
    this.distance = bestDist;
    return bestLen;
  }
}
