/**
 * Longest-match search for the 4 KiB-window LZ77 encoders (Pangya's, and HPI's greedy reference). Each
 * encoder owns its token format; this module only answers "what is the longest earlier match at position
 * `pos`?" within a window. (HPI's own encoder and Daikatana's 257-byte window have searches of their own.)
 *
 * Hash chains over 4-byte prefixes find matches of 4 bytes and more; exact chains of each 2-byte prefix
 * give the nearest match of 3 bytes, else of 2 (both formats accept them). Chains of 3-byte prefixes held
 * every record of a model or map table that repeats 3 bytes every 4, and a search walked them all; the
 * 4-byte chains leave those out, and all a 3-byte match needs is the nearest. With no `maxChain` the search
 * is as good as scanning the whole window.
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
  /** How many links of each chain to follow at most (the search stops early anyway once maxLength is reached). */
  maxChain?: number;
}

export interface Match {
  length: number;
  distance: number;
}

const HEAD_BITS = 15;
/**
 * Positions in the tables are absolute: each input starts more than a window past the end of the last, so
 * what an earlier input left is never followed, and no table needs clearing on reset. FAR is out of every
 * window.
 */
const FAR = -(1 << 30);
const NO_MATCH: Match = { length: 0, distance: 0 };

export class MatchFinder {
  /** Newest absolute position of each 4-byte hash, and of each 2-byte prefix (exact). */
  private readonly head4 = new Int32Array(1 << HEAD_BITS).fill(FAR);
  private readonly head2 = new Int32Array(1 << 16).fill(FAR);
  /** prev[pos & mask] = the previous position with the same key: a ring larger than the window, so a live link is never overwritten. */
  private readonly prev4: Int32Array;
  private readonly prev2: Int32Array;
  private readonly mask: number;
  private readonly maxChain: number;
  private base = 0;
  private nextBase = 0;
  private inserted = 0;
  private data: Uint8Array = new Uint8Array(0);

  constructor(
    data: Uint8Array,
    private readonly options: MatchFinderOptions,
  ) {
    let slots = 1;
    while (slots <= options.maxDistance) slots <<= 1;
    this.prev4 = new Int32Array(slots);
    this.prev2 = new Int32Array(slots);
    this.mask = slots - 1;
    this.maxChain = options.maxChain ?? 1 << 30;
    this.reset(data);
  }

  /** Start over on new input; nothing is cleared or allocated (see FAR). */
  reset(data: Uint8Array): void {
    const slots = this.mask + 1;
    if (this.nextBase > (1 << 30) - data.length - 2 * slots) {
      this.head4.fill(FAR);
      this.head2.fill(FAR);
      this.nextBase = 0;
    }
    this.base = this.nextBase;
    this.nextBase += data.length + slots;
    this.data = data;
    this.inserted = 0;
  }

  /** Record every position before `pos` (positions are inserted in order, once each). */
  private insertUpTo(pos: number): void {
    const d = this.data;
    const end = Math.min(pos, d.length - 1);
    const lastQuad = d.length - 4;
    for (let p = this.inserted; p < end; p++) {
      const pair = (d[p]! << 8) | d[p + 1]!;
      this.prev2[p & this.mask] = this.head2[pair]!;
      this.head2[pair] = this.base + p;
      if (p <= lastQuad) {
        const h = Math.imul((pair << 16) | (d[p + 2]! << 8) | d[p + 3]!, 0x9e3779b1) >>> (32 - HEAD_BITS);
        this.prev4[p & this.mask] = this.head4[h]!;
        this.head4[h] = this.base + p;
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
    if (remaining < o.minLength || remaining < 2) return 0;
    const maxLen = Math.min(o.maxLength, remaining);
    const base = this.base;
    const lowest = base + pos - o.maxDistance;
    const skip = o.skipSource;
    const first = d[pos]!;
    let bestLen = 0;
    let bestDist = 0;
    if (remaining >= 4) {
      let candidate =
        this.head4[Math.imul((first << 24) | (d[pos + 1]! << 16) | (d[pos + 2]! << 8) | d[pos + 3]!, 0x9e3779b1) >>> (32 - HEAD_BITS)]!;
      for (let chain = this.maxChain; candidate >= lowest && chain > 0; chain--) {
        const c = candidate - base;
        const dist = pos - c;
        const limit = o.allowOverlap || dist >= maxLen ? maxLen : dist;
        // The byte just past the best so far first: most candidates fail there (and hashes collide).
        if (limit > bestLen && d[c + bestLen] === d[pos + bestLen] && d[c] === first && !(skip && c % skip.mod === skip.rem)) {
          let len = 1;
          while (len < limit && d[c + len] === d[pos + len]) len++;
          if (len > bestLen) {
            bestLen = len;
            bestDist = dist;
            if (len === maxLen) break;
          }
        }
        candidate = this.prev4[c & this.mask]!;
      }
    }
    if (bestLen < 3) {
      // The nearest match of 3 bytes (extended, should a chain limit have hidden a longer one), else of 2.
      const least = o.allowOverlap ? 1 : 2;
      let candidate = this.head2[(first << 8) | d[pos + 1]!]!;
      for (let chain = this.maxChain; candidate >= lowest && chain > 0; chain--) {
        const c = candidate - base;
        const dist = pos - c;
        if (dist >= least && !(skip && c % skip.mod === skip.rem)) {
          const limit = o.allowOverlap || dist >= maxLen ? maxLen : dist;
          if (limit >= 3 && d[c + 2] === d[pos + 2]) {
            let len = 3;
            while (len < limit && d[c + len] === d[pos + len]) len++;
            bestLen = len;
            bestDist = dist;
            break;
          }
          if (bestLen < 2) {
            bestLen = 2;
            bestDist = dist;
          }
        }
        candidate = this.prev2[c & this.mask]!;
      }
    }
    if (bestLen < o.minLength) return 0;
    this.distance = bestDist;
    return bestLen;
  }
}
