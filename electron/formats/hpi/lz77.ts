/**
 * HPI's LZ77 (SQSH method 1), one chunk at a time, pure over Uint8Array.
 *
 * A 4096-byte ring, zero-filled, write position starting at 1. A flag byte announces 8 tokens, LSB first:
 * 0 = a literal byte; 1 = a u16 `v` whose top 12 bits are an ABSOLUTE ring index (not a distance) and low
 * 4 bits are length - 2. Index 0 ends the stream, so the encoder never references the byte stored there.
 *
 * Output position q lives at ring index (q + 1) & 0xFFF, so the decoder works straight on the output
 * array: index `off` read at output position q is the byte `((q + 1 - off) & 0xFFF) || 4096` back, and
 * anything before the chunk's start is one of the ring's initial zeros.
 */
import { fail } from '../../../shared/errors.js';
import { MatchFinder, type MatchFinderOptions } from '../common/match-finder.js';

const RING_MASK = 0xfff;
export const LZ77_MIN_MATCH = 2;
export const LZ77_MAX_MATCH = 17;
/** Most output per input byte: a flag byte and 8 matches (17 bytes) yield 8 × 17 = 136 bytes. */
export const LZ77_MAX_RATIO = 8;

/**
 * Output position q sits at ring index (q + 1) & 0xFFF; index 0 is the terminator, so positions with
 * q % 4096 === 4095 can never be a match source. Distances stop at 4095 (4096 would reach the slot
 * about to be overwritten, which the format allows but HPIPack never writes).
 */
export const HPI_MATCH_OPTIONS: MatchFinderOptions = {
  maxDistance: 4095,
  minLength: LZ77_MIN_MATCH,
  maxLength: LZ77_MAX_MATCH,
  allowOverlap: true,
  skipSource: { mod: 4096, rem: 4095 },
};

/**
 * Decode one LZ77 chunk that must produce exactly `size` bytes, into `into` (its first `size` bytes) when
 * given, else a new array.
 *
 * While a whole flag group's input (8 tokens, read 8 bytes past the last literal) and output (8 × 17 bytes,
 * written up to 20 bytes past the last match) are in bounds, a group runs without per-token checks and in
 * words: each run of literals is one 8-byte copy, and a match 4 or more bytes back is five 4-byte copies (a
 * byte repeated, one word filled five times); the bytes written past a token's end are overwritten by the
 * tokens after it. The last group of a chunk takes the checked path, byte by byte.
 */
export function decodeLz77(src: Uint8Array, size: number, into?: Uint8Array): Uint8Array {
  const out = into && into.length >= size ? into.subarray(0, size) : new Uint8Array(size);
  const n = src.length;
  const input = new DataView(src.buffer, src.byteOffset, n);
  const output = new DataView(out.buffer, out.byteOffset, size);
  const fastInput = n - 24;
  const fastOutput = size - 8 * LZ77_MAX_MATCH - 8;
  let ip = 0;
  let q = 0;
  outer: while (ip < n) {
    // A sentinel bit above the 8 flags: the group ends when it is shifted out.
    let flags = src[ip++]! | 0x100;
    if (ip <= fastInput && q <= fastOutput) {
      for (;;) {
        // The literals up to the next match (the lowest set bit): 8 bytes copied, as many kept.
        output.setUint32(q, input.getUint32(ip, true), true);
        output.setUint32(q + 4, input.getUint32(ip + 4, true), true);
        const literals = 31 - Math.clz32(flags & -flags);
        q += literals;
        ip += literals;
        flags >>>= literals + 1;
        if (flags === 0) break;
        const v = input.getUint16(ip, true);
        ip += 2;
        if (v < 16) break outer;
        // An absolute ring index becomes a distance; 0 means the slot about to be overwritten (4096 back).
        const distance = (q + 1 - (v >>> 4)) & RING_MASK || 4096;
        const s = q - distance;
        const len = (v & 0xf) + 2;
        if (s < 0) {
          // Before the chunk's start the ring holds zeros.
          const end = q + len;
          const zeros = Math.min(-s, len);
          out.fill(0, q, q + zeros);
          q += zeros;
          for (let t = 0; q < end;) out[q++] = out[t++]!;
        } else if (distance >= 4) {
          // Each word's source lies wholly before it, so word copies repeat an overlap as the ring does.
          output.setUint32(q, output.getUint32(s, true), true);
          output.setUint32(q + 4, output.getUint32(s + 4, true), true);
          output.setUint32(q + 8, output.getUint32(s + 8, true), true);
          output.setUint32(q + 12, output.getUint32(s + 12, true), true);
          output.setUint32(q + 16, output.getUint32(s + 16, true), true);
          q += len;
        } else if (distance === 1) {
          const w = Math.imul(out[s]!, 0x01010101);
          output.setUint32(q, w, true);
          output.setUint32(q + 4, w, true);
          output.setUint32(q + 8, w, true);
          output.setUint32(q + 12, w, true);
          output.setUint32(q + 16, w, true);
          q += len;
        } else {
          // 2 or 3 back: byte by byte, in order.
          const end = q + len;
          for (let t = s; q < end;) out[q++] = out[t++]!;
        }
      }
      continue;
    }
    for (; flags !== 1; flags >>>= 1) {
      if (ip >= n) break outer;
      if ((flags & 1) === 0) {
        if (q >= size) fail('bad-stream', `LZ77 output overruns its ${size} bytes at input ${ip}`, { offset: ip, expected: size });
        out[q++] = src[ip++]!;
        continue;
      }
      if (ip + 2 > n) fail('bad-stream', `LZ77 match cut off at input ${ip} of ${n}`, { offset: ip, expected: ip + 2, actual: n });
      const v = src[ip]! | (src[ip + 1]! << 8);
      ip += 2;
      if (v < 16) break outer;
      const len = (v & 0xf) + 2;
      if (q + len > size)
        fail('bad-stream', `LZ77 output overruns its ${size} bytes: ${q} + ${len}`, { offset: ip, expected: size, actual: q + len });
      let s = q - ((q + 1 - (v >>> 4)) & RING_MASK || 4096);
      const end = q + len;
      if (s < 0) {
        const zeros = Math.min(-s, len);
        out.fill(0, q, q + zeros);
        q += zeros;
        s += zeros;
      }
      while (q < end) out[q++] = out[s++]!;
    }
  }
  if (q !== size) fail('size-mismatch', `LZ77 stream produced ${q} bytes, expected ${size}`, { expected: size, actual: q });
  return out;
}

/**
 * Where tokens are written before the result is cut to size: kept between calls (one per thread, the
 * encoders are synchronous), so a chunk costs one exact-size array rather than a worst-case one.
 */
let tokenScratch = new Uint8Array(0);

/** A token writer shared by the encoders: flag bytes reserved 8 tokens ahead, always a terminator. */
class TokenWriter {
  readonly out: Uint8Array;
  private o = 0;
  private flagAt = 0;
  private bit = 8;

  constructor(inputLength: number) {
    // Worst case: every byte a literal (9/8 of the input) plus the terminator and its flag byte.
    const worst = inputLength + (inputLength >>> 3) + 4;
    if (tokenScratch.length < worst) tokenScratch = new Uint8Array(Math.max(worst, 65536 + 8192 + 4));
    this.out = tokenScratch;
  }

  private nextFlag(): void {
    if (this.bit === 8) {
      this.flagAt = this.o++;
      this.out[this.flagAt] = 0;
      this.bit = 0;
    }
  }

  literal(byte: number): void {
    this.nextFlag();
    this.bit++;
    this.out[this.o++] = byte;
  }

  match(ringIndex: number, length: number): void {
    this.nextFlag();
    // flagAt is the flag byte nextFlag() just reserved inside `out`.
    this.out[this.flagAt] = this.out[this.flagAt]! | (1 << this.bit++);
    const v = (ringIndex << 4) | (length - 2);
    this.out[this.o++] = v & 0xff;
    this.out[this.o++] = v >>> 8;
  }

  finish(): Uint8Array {
    return this.finishView().slice();
  }

  /** The stream as a view of the thread's scratch: valid until the next encode in this thread. */
  finishView(): Uint8Array {
    this.match(0, 2); // ring index 0 = the terminator; its length bits are ignored
    return this.out.subarray(0, this.o);
  }
}

/** Ring index of output position `pos - distance`: where the decoder will find those bytes. */
const sourceIndex = (pos: number, distance: number) => (pos - distance + 1) & RING_MASK;

/** Tree nodes visited per position at most: beyond this the search stops (see encodeLz77). */
const MAX_VISITS = 24;
/** Bits per token: the flag bit plus a byte (literal) or a 16-bit ring index and length (match, whatever its distance). */
const LITERAL_BITS = 9;
const MATCH_BITS = 17;
/**
 * Tree roots by a hash of 3 bytes: 16,384 of them (64 KiB) stay in the core's cache, where 65,536 did not;
 * a window holds at most 4,095 positions, so collisions stay rare.
 */
const ROOT_BITS = 14;
/**
 * Tree positions are absolute: each input starts 4096 past the end of the last, so an entry left by an
 * earlier chunk is more than a window away and never followed, and the roots need no clearing per chunk
 * (filling 256 KiB for a 4 KB file cost more than encoding it). FAR is out of every window too.
 */
const FAR = -8192;

/**
 * Per-thread tables, kept between chunks (the encoder is synchronous): a pack encodes thousands of 64 KiB
 * chunks, and allocating them each time cost 7% of the encoder's time and left dead tables in every worker.
 * HPI v2 writes a file as one chunk, so they grow to the largest input met.
 */
const rootTable = new Int32Array(1 << ROOT_BITS).fill(FAR);
/** The latest position of each 2-byte pair, low 16 bits; checked against the bytes before use, so never cleared. */
const lastPairTable = new Uint16Array(65536);
let sonTable = new Int32Array(0);
let lenTable = new Uint8Array(0);
let distTable = new Uint16Array(0);
let costTable = new Int32Array(0);
let takeTable = new Uint8Array(0);
function growTables(n: number): void {
  if (lenTable.length > n) return;
  const size = Math.max(n + 1, 65537);
  sonTable = new Int32Array(2 * size);
  lenTable = new Uint8Array(size);
  distTable = new Uint16Array(size);
  costTable = new Int32Array(size);
  takeTable = new Uint8Array(size);
}
let base = 0;

/**
 * Optimal parse. Every token has a fixed cost whatever its distance (9 bits a literal, 17 a match), and
 * any prefix of a match (2 bytes or more) is a match too, so the longest match at each position is all a
 * shortest-path search needs: pass 1 finds it at every position, pass 2 walks back from the end choosing,
 * at each position, a literal or the match length that leaves the fewest bits.
 *
 * Pass 1 keeps, for each 3-byte hash, a binary search tree of the earlier positions in the window ordered
 * by the bytes that follow (LZMA's "binary tree" match finder): inserting the current position walks down
 * the tree and meets the longest match on the way. A node that matches the full 17 bytes is replaced by the
 * new position, which keeps repetitive data cheap. Hash chains found the same matches only by following
 * hundreds of links in text; with the tree, the parse is 2-4% smaller than lazy matching at its speed.
 * Where the tree has no match of 2, the latest earlier position of the same 2 bytes gives one.
 */
export function encodeLz77(data: Uint8Array): Uint8Array {
  return encodeLz77View(data).slice();
}

/** encodeLz77's stream as a view of this thread's scratch, valid until its next encode: for callers that copy it at once (a chunk's payload). */
export function encodeLz77View(data: Uint8Array): Uint8Array {
  const n = data.length;
  const w = new TokenWriter(n);
  if (n === 0) return w.finishView();
  growTables(n);
  findLongestMatches(data);
  // Locals, not module bindings, in the hot loops (each module binding is a load per use).
  const len = lenTable;
  const dist = distTable;
  const cost = costTable;
  const take = takeTable;
  // The fewest bits from each position to the end. That count never rises from one position to the next
  // (a parse from p gives one from p + 1 no longer: drop a literal, or shorten the first match by a byte),
  // so of a match's lengths the longest always leaves the fewest: the choice is a literal or the longest.
  cost[n] = 0;
  for (let pos = n - 1; pos >= 0; pos--) {
    const literal = cost[pos + 1]! + LITERAL_BITS;
    const l = len[pos]!;
    const match = l > 0 ? cost[pos + l]! + MATCH_BITS : literal + 1;
    if (match <= literal) {
      cost[pos] = match;
      take[pos] = l;
    } else {
      cost[pos] = literal;
      take[pos] = 0;
    }
  }
  for (let pos = 0; pos < n;) {
    const k = take[pos]!;
    if (k === 0) {
      w.literal(data[pos]!);
      pos++;
    } else {
      w.match(sourceIndex(pos, dist[pos]!), k);
      pos += k;
    }
  }
  return w.finishView();
}

/** Pass 1: `len[pos]` / `dist[pos]` = the longest match found at each position of `data` (0: none). */
function findLongestMatches(data: Uint8Array): void {
  const n = data.length;
  const root = rootTable;
  const son = sonTable;
  const lastPair = lastPairTable;
  const len = lenTable;
  const dist = distTable;
  if (base > (1 << 30) - n - 8192) {
    root.fill(FAR);
    base = 0;
  }
  const b = base;
  base += n + 4096;
  // Four bytes per step while matching: runs and repeated text compare 17 bytes at most positions.
  const words = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let pos = 0; pos < n; pos++) {
    const remaining = n - pos;
    len[pos] = 0;
    if (remaining < 2) break;
    const limit = remaining < LZ77_MAX_MATCH ? remaining : LZ77_MAX_MATCH;
    const pair = (data[pos]! << 8) | data[pos + 1]!;
    let bestLen = 0;
    let bestDist = 0;
    if (remaining >= 3) {
      const abs = b + pos;
      const key = Math.imul((pair << 8) | data[pos + 2]!, 0x9e3779b1) >>> (32 - ROOT_BITS);
      let candidate = root[key]!;
      root[key] = abs;
      // Where the next smaller / larger node hangs: son[2p] holds p's smaller subtree, son[2p + 1] its larger.
      let smallerSlot = 2 * pos;
      let largerSlot = 2 * pos + 1;
      let smallerLen = 0;
      let largerLen = 0;
      let visits = MAX_VISITS;
      for (;;) {
        if (abs - candidate > 4095 || visits-- === 0) {
          son[smallerSlot] = FAR;
          son[largerSlot] = FAR;
          break;
        }
        const c = candidate - b;
        // Both neighbours agree with this position for min(smallerLen, largerLen) bytes, so this node does too.
        let l = smallerLen < largerLen ? smallerLen : largerLen;
        while (l + 4 <= limit && words.getUint32(c + l, true) === words.getUint32(pos + l, true)) l += 4;
        while (l < limit && data[c + l] === data[pos + l]) l++;
        // The byte at ring index 0 is the terminator's: a match may not start there.
        if (l > bestLen && (c & RING_MASK) !== RING_MASK) {
          bestLen = l;
          bestDist = pos - c;
        }
        if (l === limit) {
          // The new position takes the node's place and its subtrees (it matches everything the node did).
          son[smallerSlot] = son[2 * c]!;
          son[largerSlot] = son[2 * c + 1]!;
          break;
        }
        if (data[c + l]! < data[pos + l]!) {
          son[smallerSlot] = candidate;
          smallerSlot = 2 * c + 1;
          candidate = son[smallerSlot]!;
          smallerLen = l;
        } else {
          son[largerSlot] = candidate;
          largerSlot = 2 * c;
          candidate = son[largerSlot]!;
          largerLen = l;
        }
      }
    }
    if (bestLen < 2) {
      // The table may hold a position of an earlier chunk: only bytes that match here count.
      const near = lastPair[pair]!;
      bestLen = 0;
      if (
        near < pos &&
        pos - near <= 4095 &&
        (near & RING_MASK) !== RING_MASK &&
        data[near] === data[pos] &&
        data[near + 1] === data[pos + 1]
      ) {
        bestLen = 2;
        bestDist = pos - near;
      }
    }
    lastPair[pair] = pos;
    len[pos] = bestLen;
    dist[pos] = bestDist;
  }
}

/** The reference the lazy encoder is measured against: take the longest match at each step. */
export function encodeLz77Greedy(data: Uint8Array): Uint8Array {
  const n = data.length;
  const finder = new MatchFinder(data, HPI_MATCH_OPTIONS);
  const w = new TokenWriter(n);
  for (let pos = 0; pos < n;) {
    const length = finder.longest(pos);
    if (length >= LZ77_MIN_MATCH) {
      w.match(sourceIndex(pos, finder.distance), length);
      pos += length;
    } else {
      w.literal(data[pos]!);
      pos++;
    }
  }
  return w.finish();
}
