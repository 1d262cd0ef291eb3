/**
 * How an extraction is cut into batches (`batchEnds`), and how they are shared between its threads: each
 * thread works through a run of consecutive batches of its own, in stored order, and a thread whose run is
 * done takes the back half of the largest run left. Archives store a folder's files together, so threads
 * handed alternate batches were creating files in the same folder at once, and the kernel serialises
 * creation in one folder (the folder's lock). On the bench corpus (30,000 files in 10 folders, LZ77, two
 * threads) that spinning was 40-200 ms of CPU per extraction (perf: `rwsem_spin_on_owner`); with runs of
 * their own it was under 3 ms. Each thread's reads also stay sequential, which the read-ahead block serves.
 */
export class BatchRuns {
  /** Run i is the batches [next[i], end[i]). */
  private readonly next: number[] = [];
  private readonly end: number[] = [];

  constructor(batches: number, threads: number) {
    const count = Math.max(1, threads);
    for (let i = 0; i < count; i++) {
      this.next.push(Math.floor((batches * i) / count));
      this.end.push(Math.floor((batches * (i + 1)) / count));
    }
  }

  /** Whether any batch is left for anyone. */
  get empty(): boolean {
    return this.next.every((next, i) => next >= this.end[i]!);
  }

  /**
   * The next batch for `thread` (0-based, below the count given): its own run's next one, else the first
   * batch of the back half of the largest run left, which becomes its run. -1 when none is left.
   */
  take(thread: number): number {
    if (this.next[thread]! < this.end[thread]!) return this.next[thread]!++;
    let largest = -1;
    let left = 0;
    for (let i = 0; i < this.next.length; i++) {
      const size = this.end[i]! - this.next[i]!;
      if (size > left) {
        largest = i;
        left = size;
      }
    }
    if (largest < 0) return -1;
    // The owner keeps the front half, rounded up; the thief takes the rest, or a last batch left alone.
    const from = this.next[largest]! + Math.min(Math.ceil(left / 2), left - 1);
    this.next[thread] = from + 1;
    this.end[thread] = this.end[largest]!;
    this.end[largest] = from;
    return from;
  }
}

/** Entries per batch (a message to a worker): enough to amortise messaging, small enough to balance the threads. */
const BATCH_FILES = 32;
const BATCH_BYTES = 4 << 20;

/**
 * The batches of `indices` (their entries' decoded sizes by `sizeOf`), as where each ends in `indices`:
 * BATCH_FILES entries, or fewer that reach BATCH_BYTES. Their items are made as each is handed out.
 */
export function batchEnds(indices: readonly number[], sizeOf: (index: number) => number): number[] {
  const ends: number[] = [];
  let files = 0;
  let bytes = 0;
  for (let i = 0; i < indices.length; i++) {
    files++;
    bytes += sizeOf(indices[i]!);
    if (files >= BATCH_FILES || bytes >= BATCH_BYTES || i === indices.length - 1) {
      ends.push(i + 1);
      files = 0;
      bytes = 0;
    }
  }
  return ends;
}
