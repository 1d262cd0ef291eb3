/**
 * Daikatana's PAK compression (opcodes.ts), pure over Uint8Array: a greedy parse that takes, at each
 * position, the cheapest cover among a zero run (1 byte), a byte run (2 bytes) and a back-reference
 * (2 bytes, never longer than its distance, so memmove readers agree), else a literal byte.
 *
 * The search is the shared match finder's (common/match-finder.ts), written out for this 257-byte window
 * and 63-byte copies: hash chains over 4-byte prefixes find copies of 4 bytes and more (records that share
 * 3 bytes every few bytes, as in BSP and model tables, made 3-byte chains 64 links long at every other
 * position); exact chains of each 2-byte prefix give the nearest copy of 3 bytes, else of 2. Only a copy
 * longer than the run at the same position is looked for, and inside a run only its last positions are
 * hashed: the others share one prefix. Through the finder itself, with its options and fields, the same
 * streams took 25-30 % longer.
 */
import * as opcodes from './opcodes.js';

// Local constants: an imported binding is read from its module at each use, which the hot loops below pay for
// (10 % of the encoder's time on the bench corpus where modules are not bundled).
const { COPY, COPY_MAX, COPY_MIN, DISTANCE_MAX, DISTANCE_MIN, END, LITERAL_MAX, LITERALS, RUN, RUN_MAX, ZERO_RUN_MIN, ZEROS } = opcodes;

/** 4-byte chain links followed per search at most; the chains are short, so this rarely binds. */
const MAX_CHAIN = 64;
/**
 * 2-byte chain links followed for a copy of 3 bytes (or 2), and positions hashed at the end of a run (a
 * copy from further inside would start with a run as long): with 8 and 4, the sample WALs came out 1 %
 * larger than an exhaustive search gives; with 64 and 16, 0.03 % smaller than the 3-byte-chain finder
 * used before made them over all samples, at 2.2× its speed on the bench corpus (4× on its PCX-like files).
 */
const PAIR_CHAIN = 64;
const RUN_TAIL_HASHED = 16;
/** Chain links by position, a ring larger than the window: a live link is never overwritten. */
const SLOTS = 512;
const SLOT_MASK = SLOTS - 1;
const HEAD_BITS = 14;
/**
 * Positions in the tables are absolute: each input starts more than a window past the end of the last,
 * so what an earlier input left is never followed, and no table needs clearing per file. FAR is out of
 * every window.
 */
const FAR = -(1 << 30);

/** Per-thread tables, kept between inputs (the encoder is synchronous). */
const head4 = new Int32Array(1 << HEAD_BITS).fill(FAR);
const prev4 = new Int32Array(SLOTS).fill(FAR);
const head2 = new Int32Array(1 << 16).fill(FAR);
const prev2 = new Int32Array(SLOTS).fill(FAR);
let nextBaseAt = 0;

function nextBase(n: number): number {
  if (nextBaseAt > (1 << 30) - n - 2 * SLOTS) {
    head4.fill(FAR);
    head2.fill(FAR);
    nextBaseAt = 0;
  }
  const base = nextBaseAt;
  nextBaseAt += n + SLOTS;
  return base;
}

const hash4 = (data: Uint8Array, p: number) =>
  Math.imul((data[p]! << 24) | (data[p + 1]! << 16) | (data[p + 2]! << 8) | data[p + 3]!, 0x9e3779b1) >>> (32 - HEAD_BITS);

/** Chain positions `from` to `to` (exclusive) of an input starting at absolute `base`. */
function insert(data: Uint8Array, base: number, from: number, to: number): void {
  const lastQuad = data.length - 4;
  for (let p = from; p < to; p++) {
    const pair = (data[p]! << 8) | data[p + 1]!;
    prev2[p & SLOT_MASK] = head2[pair]!;
    head2[pair] = base + p;
    if (p <= lastQuad) {
      const h = hash4(data, p);
      prev4[p & SLOT_MASK] = head4[h]!;
      head4[h] = base + p;
    }
  }
}

/** The worst case: every byte a literal, an opcode per 64, and the end marker. */
export function dkCompressBound(n: number): number {
  return n + Math.ceil(n / LITERAL_MAX) + 1;
}

export function dkCompress(data: Uint8Array): Uint8Array {
  return dkCompressInto(data).slice();
}

/** dkCompress's stream, written into `into` when it holds dkCompressBound(data.length) bytes (a view of it), else into a new array. */
export function dkCompressInto(data: Uint8Array, into?: Uint8Array): Uint8Array {
  const n = data.length;
  const bound = dkCompressBound(n);
  const out = into && into.length >= bound ? into : new Uint8Array(bound);
  const base = nextBase(n);
  let hashed = 0;
  let op = 0;
  let litStart = 0;
  let i = 0;
  while (i < n) {
    const b = data[i]!;
    const maxRun = Math.min(RUN_MAX, n - i);
    let run = 1;
    while (run < maxRun && data[i + run] === b) run++;
    const pending = i > litStart;
    // Saving of each choice over literals: covered bytes minus its cost. A 2-byte cover only pays when
    // no literal is pending (it would cost the literal a new opcode later).
    const zeroGain = b === 0 && run >= ZERO_RUN_MIN ? run - 1 : 0;
    const runGain = run >= 3 || (run === 2 && !pending) ? run - 2 : -1;
    // A copy beats the run only when longer (than the run + 1 for zeros, whose opcode costs 1 byte).
    const maxLength = Math.min(COPY_MAX, n - i);
    let length = run < 2 ? 1 : b === 0 ? run + 1 : run;
    let distance = 0;
    if (length < maxLength) {
      insert(data, base, hashed, i);
      hashed = i;
      const lowest = base + i - DISTANCE_MAX;
      if (i + 3 < n) {
        let c = head4[hash4(data, i)]!;
        for (let chain = MAX_CHAIN; c >= lowest && chain > 0; chain--) {
          const from = c - base;
          const d = i - from;
          const limit = d < maxLength ? d : maxLength;
          // The byte just past the best so far first: most candidates fail there (and hashes collide).
          if (limit > length && data[from + length] === data[i + length] && data[from] === b) {
            let len = 1;
            while (len < limit && data[from + len] === data[i + len]) len++;
            if (len > length) {
              length = len;
              distance = d;
              if (len === maxLength) break;
            }
          }
          c = prev4[from & SLOT_MASK]!;
        }
      }
      if (length < 3) {
        // Every copy costs the same: the nearest of 3 bytes, else the nearest of 2.
        const want = maxLength >= 3 ? 3 : 2;
        let c = head2[(b << 8) | data[i + 1]!]!;
        for (let chain = PAIR_CHAIN; c >= lowest && chain > 0; chain--) {
          const from = c - base;
          const d = i - from;
          if (d >= 3 && want === 3 && data[from + 2] === data[i + 2]) {
            length = 3;
            distance = d;
            break;
          }
          if (d >= 2 && length < 2) {
            length = 2;
            distance = d;
            if (want === 2) break;
          }
          c = prev2[from & SLOT_MASK]!;
        }
      }
    }
    const matchGain = distance === 0 ? -1 : length >= 3 || !pending ? length - 2 : -1;
    let cover: number;
    if (zeroGain > 0 && zeroGain >= runGain && zeroGain >= matchGain) cover = 0;
    else if (runGain >= 0 && runGain >= matchGain) cover = 1;
    else if (matchGain >= 0) cover = 2;
    else {
      i++;
      continue;
    }
    while (litStart < i) {
      const len = Math.min(LITERAL_MAX, i - litStart);
      out[op++] = LITERALS + len - 1;
      for (let k = 0; k < len; k++) out[op++] = data[litStart + k]!;
      litStart += len;
    }
    if (cover === 2) {
      out[op++] = COPY + length - COPY_MIN;
      out[op++] = distance - DISTANCE_MIN;
      i += length;
    } else {
      if (cover === 0) out[op++] = ZEROS + run - ZERO_RUN_MIN;
      else {
        out[op++] = RUN + run - 2;
        out[op++] = b;
      }
      if (run > RUN_TAIL_HASHED) {
        insert(data, base, hashed, i);
        hashed = i + run - RUN_TAIL_HASHED;
      }
      i += run;
    }
    litStart = i;
  }
  op = flushLiterals(data, litStart, n, out, op);
  out[op++] = END;
  return out.subarray(0, op);
}

/** data[from, to) as literal opcodes of up to 64 bytes at `op`; returns the new end. */
function flushLiterals(data: Uint8Array, from: number, to: number, out: Uint8Array, op: number): number {
  while (from < to) {
    const len = Math.min(LITERAL_MAX, to - from);
    out[op++] = LITERALS + len - 1;
    for (let k = 0; k < len; k++) out[op++] = data[from + k]!;
    from += len;
  }
  return op;
}
