/**
 * Files' bytes in order, with the next reads already in flight: packing many small files is bound by the
 * time each open/read takes, so while one file is compressed the following ones are being read. The
 * window is bounded by count and bytes, so memory stays at a few files whatever the archive.
 */
import type { PackFile } from '../archive.js';

const MAX_FILES = 8;
const MAX_BYTES = 8 << 20;

export async function* readAhead<T extends { file: PackFile }>(items: readonly T[]): AsyncGenerator<{ item: T; data: Uint8Array }> {
  const pending: { item: T; data: Promise<Uint8Array> }[] = [];
  let next = 0;
  let inFlight = 0;
  const fill = () => {
    // Always keep at least one read going; more only while the window has room.
    while (next < items.length && (pending.length === 0 || (pending.length < MAX_FILES && inFlight + items[next]!.file.size <= MAX_BYTES))) {
      const item = items[next++]!;
      inFlight += item.file.size;
      const data = item.file.read();
      // A failed read surfaces when its turn comes; until then it must not count as unhandled.
      data.catch(() => {});
      pending.push({ item, data });
    }
  };
  fill();
  while (pending.length > 0) {
    const head = pending.shift()!;
    const data = await head.data;
    inFlight -= head.item.file.size;
    fill();
    yield { item: head.item, data };
  }
}
