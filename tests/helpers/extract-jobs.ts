import { expect } from 'vitest';
import { plannedWorkerScript } from '../../electron/services/archive-extract.js';
import { v1Plan } from '../../electron/services/extract-plan.js';
import { HpiV1Archive } from '../../electron/formats/hpi/v1-reader.js';
import { extractWithWorkers, type EntryOutcome } from '../../electron/services/extract-pool.js';
import { withArchive } from '../../electron/formats/index.js';

export type Job = Parameters<typeof extractWithWorkers>[0];

/**
 * Every file of an HPI v1 archive extracted by `extractWithWorkers` with one worker; `more` adds to the
 * job (its `onFile` is called after each outcome is recorded), `check` sees the outcomes and their order.
 */
export async function extractEveryFile(
  archive: string,
  root: string,
  more: (hpi: HpiV1Archive, indices: number[]) => Partial<Job>,
  check: (hpi: HpiV1Archive, indices: number[], outcomes: Map<number, EntryOutcome>, order: number[]) => void,
): Promise<void> {
  const outcomes = new Map<number, EntryOutcome>();
  const order: number[] = [];
  await withArchive(archive, async (opened) => {
    expect(opened).toBeInstanceOf(HpiV1Archive);
    const hpi = opened as HpiV1Archive;
    const indices = hpi.entries.flatMap((e, i) => (e.dir ? [] : [i]));
    const extra = more(hpi, indices);
    await extractWithWorkers({
      archivePath: archive,
      root,
      keepGoing: false,
      indices,
      sizeOf: (i) => hpi.entries[i]!.size,
      workers: 1,
      ...extra,
      onFile: (i, outcome) => {
        order.push(i);
        outcomes.set(i, outcome);
        extra.onFile?.(i, outcome);
      },
    });
    check(hpi, indices, outcomes, order);
  });
}

/** The plan an HPI v1 worker is sent, with the options that go with it. */
export const planned = (hpi: HpiV1Archive, indices: number[]): Partial<Job> => ({
  script: plannedWorkerScript,
  prelude: v1Plan(
    hpi.cipherKey,
    hpi.entries,
    indices,
    indices.map((i) => hpi.entries[i]!.path),
  ),
  ranges: true,
});
