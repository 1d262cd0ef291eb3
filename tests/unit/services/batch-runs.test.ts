import { describe, expect, it } from 'vitest';
import { batchEnds, BatchRuns } from '../../../electron/services/batch-runs.js';
import { prng } from '../../../shared/prng.js';

/** Every batch taken, in turns decided by `pick`, as [thread, batch] pairs. */
function drain(runs: BatchRuns, threads: number, pick: (live: number[]) => number): [number, number][] {
  const taken: [number, number][] = [];
  const live = Array.from({ length: threads }, (_, i) => i);
  while (live.length > 0) {
    const at = pick(live);
    const thread = live[at]!;
    const batch = runs.take(thread);
    if (batch < 0) live.splice(at, 1);
    else taken.push([thread, batch]);
  }
  return taken;
}

describe('BatchRuns', () => {
  it('gives each thread a run of consecutive batches of its own, in order', () => {
    const runs = new BatchRuns(10, 2);
    expect([runs.take(0), runs.take(1), runs.take(0), runs.take(1), runs.take(0)]).toEqual([0, 5, 1, 6, 2]);
  });

  it('hands out every batch exactly once, whoever asks and in whatever order', () => {
    const random = prng(7);
    for (const [batches, threads] of [
      [0, 1],
      [1, 3],
      [2, 2],
      [7, 3],
      [100, 2],
      [101, 4],
    ] as const) {
      for (let trial = 0; trial < 20; trial++) {
        const taken = drain(new BatchRuns(batches, threads), threads, (live) => Math.floor(random() * live.length));
        expect(taken.map(([, b]) => b).sort((a, b) => a - b)).toEqual(Array.from({ length: batches }, (_, i) => i));
      }
    }
  });

  it('lets a thread whose run is done take the back half of the largest run left', () => {
    const runs = new BatchRuns(8, 2);
    // Thread 1 (batches 4-7) finishes while thread 0 has taken only batch 0.
    expect(runs.take(0)).toBe(0);
    expect([runs.take(1), runs.take(1), runs.take(1), runs.take(1)]).toEqual([4, 5, 6, 7]);
    // Thread 0 still has 1, 2, 3: it keeps 1 and 2, thread 1 takes 3, then the last one left.
    expect(runs.take(1)).toBe(3);
    expect(runs.take(0)).toBe(1);
    expect(runs.take(1)).toBe(2);
    expect(runs.take(0)).toBe(-1);
    expect(runs.empty).toBe(true);
  });

  it('leaves the run of a thread that never asks to the others', () => {
    const taken = drain(new BatchRuns(12, 3), 2, () => 0);
    expect(taken.map(([, b]) => b).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('keeps the threads apart: two threads taking turns meet about once', () => {
    let turn = 0;
    const taken = drain(new BatchRuns(64, 2), 2, (live) => turn++ % live.length);
    const owners = Array<number>(64);
    for (const [thread, batch] of taken) owners[batch] = thread;
    const changes = owners.filter((owner, i) => i > 0 && owner !== owners[i - 1]).length;
    // Alternate batches would change owner 63 times.
    expect(changes).toBeLessThanOrEqual(2);
  });
});

describe('batchEnds', () => {
  it('cuts 32 entries to a batch, or fewer that reach 4 MiB, and ends the last batch at the last entry', () => {
    const small = Array.from({ length: 70 }, (_, i) => i);
    expect(batchEnds(small, () => 1000)).toEqual([32, 64, 70]);
    // Entries 3 and 5 are large: a batch ends with the entry that takes it to 4 MiB.
    const sizes = [10, 10, 10, 4 << 20, 10, 3 << 20, 1 << 20, 10];
    expect(batchEnds([0, 1, 2, 3, 4, 5, 6, 7], (i) => sizes[i]!)).toEqual([4, 7, 8]);
    expect(batchEnds([], () => 1)).toEqual([]);
  });
});
