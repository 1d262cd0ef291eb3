import { describe, expect, it } from 'vitest';
import { MatchFinder, type MatchFinderOptions } from '../../../../electron/formats/common/match-finder.js';
import { prng } from '../../../helpers/prng.js';

const ring: MatchFinderOptions = { maxDistance: 4095, minLength: 2, maxLength: 17, allowOverlap: true };

/** The reference: scan the whole window for the longest match (nearest first on ties is not required). */
function bruteForce(data: Uint8Array, pos: number, o: MatchFinderOptions): number {
  let best = 0;
  for (let c = Math.max(0, pos - o.maxDistance); c < pos; c++) {
    if (o.skipSource && c % o.skipSource.mod === o.skipSource.rem) continue;
    const limit = Math.min(o.maxLength, data.length - pos, o.allowOverlap ? Infinity : pos - c);
    let len = 0;
    while (len < limit && data[c + len] === data[pos + len]) len++;
    if (len > best) best = len;
  }
  return best >= o.minLength ? best : 0;
}

function sample(seed: number, length: number, alphabet: number): Uint8Array {
  const rand = prng(seed);
  return Uint8Array.from({ length }, () => Math.floor(rand() * alphabet));
}

describe('MatchFinder', () => {
  it('finds the same longest match as a full window scan', () => {
    // Sizes on both sides of the table sizing (small inputs get small hashed tables).
    for (const [seed, alphabet, length] of [
      [1, 2, 9000],
      [2, 4, 9000],
      [3, 16, 9000],
      [4, 256, 9000],
      [5, 256, 70_000],
      [6, 4, 300],
      [7, 16, 40],
    ] as const) {
      const data = sample(seed, length, alphabet);
      for (const o of [ring, { ...ring, allowOverlap: false }, { ...ring, skipSource: { mod: 4096, rem: 4095 } }]) {
        const finder = new MatchFinder(data, o);
        for (let pos = 0; pos < data.length; pos += 7) {
          const m = finder.find(pos);
          expect(m.length, `seed ${seed} pos ${pos}`).toBe(bruteForce(data, pos, o));
          if (m.length > 0) {
            expect(m.distance).toBeGreaterThan(0);
            expect(m.distance).toBeLessThanOrEqual(o.maxDistance);
            if (!o.allowOverlap) expect(m.length).toBeLessThanOrEqual(m.distance);
            if (o.skipSource) expect((pos - m.distance) % 4096).not.toBe(4095);
            expect(data.subarray(pos - m.distance, pos - m.distance + m.length)).toEqual(data.subarray(pos, pos + m.length));
          }
        }
      }
    }
  });

  it('answers after reset exactly as a new finder would, whether the tables grow, shrink or stay', () => {
    // Large then small then large again: a stale head or pair entry from the previous input would point at
    // bytes not yet inserted, or outside the new data.
    const inputs = [sample(11, 70_000, 4), sample(12, 300, 4), sample(13, 9000, 16), sample(14, 70_000, 2)];
    const reused = new MatchFinder(inputs[0]!, ring);
    for (const data of inputs) {
      reused.reset(data);
      const fresh = new MatchFinder(data, ring);
      for (let pos = 0; pos < data.length; pos += 3) {
        const length = reused.longest(pos);
        expect(length, `pos ${pos} of ${data.length}`).toBe(fresh.find(pos).length);
        expect(length).toBe(bruteForce(data, pos, ring));
        if (length > 0)
          expect(data.subarray(pos - reused.distance, pos - reused.distance + length)).toEqual(data.subarray(pos, pos + length));
      }
    }
  });

  it('reports overlapping runs only when overlap is allowed', () => {
    const data = new Uint8Array(40).fill(7);
    expect(new MatchFinder(data, ring).find(1)).toEqual({ length: 17, distance: 1 });
    expect(new MatchFinder(data, { ...ring, allowOverlap: false }).find(1)).toEqual({ length: 0, distance: 0 });
    expect(new MatchFinder(data, { ...ring, allowOverlap: false }).find(10).length).toBe(10);
  });

  it('never reaches past the window', () => {
    const data = new Uint8Array(5000);
    data.set([1, 2, 3, 4], 0);
    data.set([1, 2, 3, 4], 4096 + 10);
    const finder = new MatchFinder(data, { ...ring, maxDistance: 4095 });
    expect(finder.find(4096 + 10).length).toBeLessThan(4);
  });

  it('finds a long match behind many records that share its first 3 bytes, within a short chain limit', () => {
    // Model- and map-like tables: 100 records 11 22 33 k, then a copy of records 10..13 at the end. Every
    // record starts with the same 3 bytes, so a chain of 3-byte prefixes puts the copy's source 90 links back.
    const records = Uint8Array.from({ length: 400 }, (_, i) => (i % 4 === 3 ? i >> 2 : [0x11, 0x22, 0x33][i % 4]!));
    const data = Uint8Array.from([...records, ...records.subarray(40, 56)]);
    const pos = records.length;
    const finder = new MatchFinder(data, { ...ring, maxChain: 8 });
    expect(finder.find(pos)).toEqual({ length: 16, distance: pos - 40 });
    expect(bruteForce(data, pos, ring)).toBe(16);
  });
});
