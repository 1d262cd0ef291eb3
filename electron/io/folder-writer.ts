import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Writes extracted files, creating each parent folder once (extractions write thousands of files into a
 * few hundred folders). Callers have already made `out` safe (inside their target).
 */
export class FolderWriter {
  private readonly made = new Set<string>();

  async write(out: string, data: Uint8Array): Promise<void> {
    const dir = dirname(out);
    if (!this.made.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.made.add(dir);
    }
    await writeFile(out, data);
  }
}

/**
 * Run `task` over `items` with at most `inFlight` at once, in order of starting. Reading and writing a few
 * files at a time overlaps disk and decoding while memory stays bounded by the files in flight.
 */
export async function forEachInFlight<T>(items: readonly T[], inFlight: number, task: (item: T) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      await task(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, items.length) }, lane));
}
