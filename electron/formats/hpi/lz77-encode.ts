/**
 * HPI's LZ77 encoder (SQSH method 1), pure over Uint8Array; the stream format is described in lz77.ts.
 *
 * Every token has a fixed cost whatever its distance (9 bits a literal, 17 a match), and any prefix of a
 * match (2 bytes or more) is a match too, so the longest match at each position is all a shortest-path
 * parse needs: pass 1 finds a longest match at every position, pass 2 walks back from the end counting
 * the fewest bits to the end, and pass 3 writes the tokens that reach them.
 *
 * Pass 1 uses hash chains over 4-byte prefixes: adding a position costs a few stores, so every position
 * goes in, but a search only runs where the last match found is nearly used up. Inside a match of length
 * L at distance d, position p + k matches at least L - k bytes at the same d, and that is what its entry
 * gets. Searches follow at most MAX_CHAIN links and stop at 17 bytes. Chains of 4 bytes hold no
 * candidate that agrees in 3 bytes only, so each link is likelier to be a match; a 3-byte match comes
 * from a table of each 3-byte hash's latest position, and a 2-byte match from one of each pair's.
 */

/** formats.md: a match is 2..17 bytes, from at most 4095 bytes back. */
export const LZ77_MIN_MATCH = 2;
export const LZ77_MAX_MATCH = 17;
const MAX_DISTANCE = 4095;
const RING_MASK = 0xfff;
const LITERAL_BITS = 9;
const MATCH_BITS = 17;
/** Chain links followed per search at most (and 17 bytes found ends it). */
const MAX_CHAIN = 16;
/**
 * A search runs where fewer than this many bytes of the last match are left; where more are left, that
 * match is rarely beaten. With 3-byte chains of 32 links, 3 made the sample archives' streams 2.8 % larger
 * than a greedy full-window search and 8 made them 0.5 % smaller; 4-byte chains of 16 links with 8 make
 * them 0.7 % smaller.
 */
const RESEARCH_BELOW = 8;
/** Chain heads by a hash of 4 bytes: 16,384 of them (64 KiB) stay in the core's cache; a window holds 4,095 positions. */
const HEAD_BITS = 14;
/** The latest position of each 3-byte hash: one probe, for the matches of 3 bytes the chains do not hold. */
const TRIPLE_BITS = 15;
/**
 * Positions in the tables are absolute: each input starts 4096 past the end of the last, so an entry left
 * by an earlier input is more than a window away and never followed, and no table needs clearing per
 * chunk (filling them for a 4 KB file cost more than encoding it). FAR is out of every window too.
 */
const FAR = -8192;

/**
 * Per-thread tables, kept between inputs (the encoder is synchronous): a pack encodes thousands of 64 KiB
 * chunks. HPI v2 writes a file as one chunk, so the per-position arrays grow to the largest input met.
 * The hash tables (0.45 MB) are made by the first encode: a thread that only reads never fills them.
 */
interface HashTables {
  head: Int32Array;
  lastTriple: Int32Array;
  /** prev[p & 4095] = the previous position with p's hash: a window is 4095 back, so a live link is never overwritten. */
  prev: Int32Array;
  lastPair: Int32Array;
}
let hashTables: HashTables | null = null;
const hashTablesOfThisThread = (): HashTables =>
  (hashTables ??= {
    head: new Int32Array(1 << HEAD_BITS).fill(FAR),
    lastTriple: new Int32Array(1 << TRIPLE_BITS).fill(FAR),
    prev: new Int32Array(RING_MASK + 1).fill(FAR),
    lastPair: new Int32Array(65536).fill(FAR),
  });
let base = 0;
let lenAt = new Uint8Array(0);
let distAt = new Uint16Array(0);
let bitsFrom = new Int32Array(0);
/** Where tokens are written before the caller copies them: a chunk costs one exact-size array, not a worst-case one. */
let tokens = new Uint8Array(0);

function growTables(n: number): void {
  if (lenAt.length > n) return;
  const size = Math.max(n + 1, 65537);
  lenAt = new Uint8Array(size);
  distAt = new Uint16Array(size);
  bitsFrom = new Int32Array(size);
}

/** This thread's token scratch, with room for the worst case of an `n`-byte input; shared by every HPI LZ77 encoder. */
export function tokenSpace(n: number): Uint8Array {
  // Worst case: every byte a literal (9/8 of the input) plus the terminator and its flag byte.
  const worst = n + (n >>> 3) + 4;
  if (tokens.length < worst) tokens = new Uint8Array(Math.max(worst, 65536 + 8192 + 4));
  return tokens;
}

/** The absolute base for the next input of `n` bytes (tables reset before positions could overflow). */
function nextBase(n: number, tables: HashTables): number {
  if (base > (1 << 30) - n - 8192) {
    tables.head.fill(FAR);
    tables.prev.fill(FAR);
    tables.lastTriple.fill(FAR);
    tables.lastPair.fill(FAR);
    base = 0;
  }
  const b = base;
  base += n + 4096;
  return b;
}

export function encodeLz77(data: Uint8Array): Uint8Array {
  return encodeLz77View(data).slice();
}

/** encodeLz77's stream as a view of this thread's scratch, valid until its next encode: for callers that copy it at once (a chunk's payload). */
export function encodeLz77View(data: Uint8Array): Uint8Array {
  const n = data.length;
  const out = tokenSpace(n);
  if (n === 0) return terminate(out, 0, 0, 0);
  growTables(n);
  findMatches(data);
  const len = lenAt;
  const dist = distAt;
  const bits = bitsFrom;
  // The fewest bits from each position to the end. That count never rises from one position to the next
  // (a parse from p gives one from p + 1 no longer: drop a literal, or shorten the first match by a byte),
  // so of a match's lengths the longest always leaves the fewest: the choice is a literal or the longest.
  bits[n] = 0;
  for (let pos = n - 1; pos >= 0; pos--) {
    const literal = bits[pos + 1]! + LITERAL_BITS;
    const l = len[pos]!;
    const match = l > 0 ? bits[pos + l]! + MATCH_BITS : literal;
    bits[pos] = match < literal ? match : literal;
  }
  let o = 1;
  let flagAt = 0;
  let flags = 0;
  let bit = 0;
  for (let pos = 0; pos < n;) {
    if (bit === 8) {
      out[flagAt] = flags;
      flagAt = o++;
      flags = 0;
      bit = 0;
    }
    const l = len[pos]!;
    if (l > 0 && bits[pos + l]! + MATCH_BITS < bits[pos + 1]! + LITERAL_BITS) {
      flags |= 1 << bit;
      // The decoder finds output position q at ring index (q + 1) & 0xFFF.
      const v = (((pos - dist[pos]! + 1) & RING_MASK) << 4) | (l - 2);
      out[o++] = v & 0xff;
      out[o++] = v >>> 8;
      pos += l;
    } else out[o++] = data[pos++]!;
    bit++;
  }
  return terminate(out, o, flagAt, flags, bit);
}

/**
 * The terminator (a match at ring index 0) after `o` bytes of tokens whose open flag byte is at `flagAt`
 * with `bit` tokens and `flags` so far; returns the stream as a view of `out`.
 */
function terminate(out: Uint8Array, o: number, flagAt: number, flags: number, bit = 0): Uint8Array {
  if (o === 0) {
    o = 1;
    flagAt = 0;
  } else if (bit === 8) {
    out[flagAt] = flags;
    flagAt = o++;
    flags = 0;
    bit = 0;
  }
  out[flagAt] = flags | (1 << bit);
  out[o++] = 0;
  out[o++] = 0;
  return out.subarray(0, o);
}

/** Pass 1: `lenAt[pos]` / `distAt[pos]` = a longest match at each position of `data` (length 0: none). */
function findMatches(data: Uint8Array): void {
  const n = data.length;
  const len = lenAt;
  const dist = distAt;
  const tables = hashTablesOfThisThread();
  const { head, lastTriple, prev, lastPair } = tables;
  const b = nextBase(n, tables);
  // Four bytes per step while matching: runs and repeated text compare 17 bytes at most searches.
  const words = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const chainEnd = n - 3;
  // The last match found, as a distance and where the bytes stop agreeing at that distance: at each later
  // position before that end, the same distance matches up to it.
  let carryEnd = 0;
  let carryDist = 0;
  // A run of one byte: the first position whose 4 bytes are all that byte, and the chain link before it.
  let lastWord = -1;
  let runFrom = FAR;
  let beforeRun = FAR;
  let pos = 0;
  for (; pos < n - 1; pos++) {
    const abs = b + pos;
    const pair = (data[pos]! << 8) | data[pos + 1]!;
    const remaining = n - pos;
    const limit = remaining < LZ77_MAX_MATCH ? remaining : LZ77_MAX_MATCH;
    const left = carryEnd - pos;
    const carry = left < limit ? left : limit;
    // A match may not start at ring index 0 (the terminator's): output positions 4095, 8191, ...
    let bestLen = carry >= 2 && ((pos - carryDist) & RING_MASK) !== RING_MASK ? carry : 0;
    let bestDist = carryDist;
    if (pos < n - 2) {
      // The next 4 bytes, little-endian; at the last 3 positions, the 3 that are left.
      const word = pos < chainEnd ? words.getUint32(pos, true) : data[pos]! | (data[pos + 1]! << 8) | (data[pos + 2]! << 16);
      const tripleKey = Math.imul(word << 8, 0x9e3779b1) >>> (32 - TRIPLE_BITS);
      const triple = lastTriple[tripleKey]!;
      lastTriple[tripleKey] = abs;
      let candidate = FAR;
      let skipAt = -1;
      if (pos < chainEnd) {
        const key = Math.imul(word, 0x9e3779b1) >>> (32 - HEAD_BITS);
        candidate = head[key]!;
        head[key] = abs;
        prev[abs & RING_MASK] = candidate;
        // Inside a run every earlier position of the run matches exactly as far as the one just before:
        // the chain goes from that one straight to the link before the run.
        if (word !== lastWord) {
          runFrom = abs;
          beforeRun = candidate;
          lastWord = word;
        } else if (runFrom < abs - 1) skipAt = abs - 1;
      }
      if (carry < RESEARCH_BELOW) {
        let chain = MAX_CHAIN;
        while (abs - candidate <= MAX_DISTANCE) {
          const c = candidate - b;
          // The byte just past the best so far decides most candidates.
          if (data[c + bestLen] === data[pos + bestLen] && (c & RING_MASK) !== RING_MASK) {
            let l = 0;
            while (l + 4 <= limit && words.getUint32(c + l, true) === words.getUint32(pos + l, true)) l += 4;
            while (l < limit && data[c + l] === data[pos + l]) l++;
            if (l > bestLen) {
              bestLen = l;
              bestDist = pos - c;
              if (l === limit) break;
            }
          }
          if (--chain === 0) break;
          candidate = candidate === skipAt ? beforeRun : prev[candidate & RING_MASK]!;
        }
        // No 4 bytes found: the latest position with the same 3-byte hash, if its bytes agree.
        if (bestLen < 3 && abs - triple <= MAX_DISTANCE) {
          const c = triple - b;
          if (data[c] === data[pos] && data[c + 1] === data[pos + 1] && data[c + 2] === data[pos + 2] && (c & RING_MASK) !== RING_MASK) {
            let l = 3;
            while (l < limit && data[c + l] === data[pos + l]) l++;
            bestLen = l;
            bestDist = pos - c;
          }
        }
      }
    }
    if (bestLen < 2) {
      // A pair seen within the window: a hash collision above may have hidden it.
      const near = lastPair[pair]!;
      bestLen = 0;
      if (abs - near <= MAX_DISTANCE && ((near - b) & RING_MASK) !== RING_MASK) {
        bestLen = 2;
        bestDist = abs - near;
      }
    }
    lastPair[pair] = abs;
    len[pos] = bestLen;
    dist[pos] = bestDist;
    if (bestLen > carry) {
      carryDist = bestDist;
      carryEnd = pos + bestLen;
      // Cut at 17: find where the bytes at this distance really stop agreeing (a run, a repeated block).
      if (bestLen === LZ77_MAX_MATCH) while (carryEnd < n && data[carryEnd] === data[carryEnd - bestDist]) carryEnd++;
    }
  }
  if (pos < n) len[pos] = 0;
}

/**
 * `data` as literals only: for bytes that LZ77 cannot shrink (see lz77CannotShrink), a stream any reader
 * decodes, at the cost of a flag byte per 8 bytes and no search. A view of this thread's scratch.
 */
export function encodeLz77Literals(data: Uint8Array): Uint8Array {
  const n = data.length;
  const out = tokenSpace(n);
  let o = 0;
  let pos = 0;
  for (; pos + 8 <= n; pos += 8) {
    out[o] = 0;
    for (let k = 0; k < 8; k++) out[o + 1 + k] = data[pos + k]!;
    o += 9;
  }
  const rest = n - pos;
  if (o === 0 && rest === 0) return terminate(out, 0, 0, 0);
  if (rest === 0) return terminate(out, o, o - 9, 0, 8);
  const flagAt = o++;
  for (; pos < n; pos++) out[o++] = data[pos]!;
  return terminate(out, o, flagAt, 0, rest);
}

export { lz77CannotShrink } from '../common/lz77-shrink-probe.js';
