import type { ByteSink } from '../../io/byte-sink.js';
import type { PackFile, PackOptions } from '../archive.js';
import { fail } from '../../../shared/errors.js';
import { compressInOrder } from '../compress-order.js';
import { encodeName, packHeaderBytes, type PackLayout, type PackRecord } from './layout.js';

/**
 * The writer shared by the 'PACK' family: header, then each file's data in the given order, then the
 * directory, then the header patched with where the directory went. Only one file's bytes are held at a
 * time. Names are checked against the layout's field before anything is written.
 */

/**
 * How one file is stored: 0 as it is (Quake and SiN always), else the file-codecs.ts method that may
 * compress it (Daikatana); a file whose compressed form would not be smaller is stored.
 */
export type PackMethodOf = (file: PackFile) => number;

const storeAsIs: PackMethodOf = () => 0;

/** Offsets and lengths are signed 32-bit fields. */
const MAX_OFFSET = 0x7fffffff;

export async function writePack(
  files: readonly PackFile[],
  sink: ByteSink,
  options: PackOptions,
  layout: PackLayout,
  methodOf: PackMethodOf = storeAsIs,
): Promise<void> {
  const names = files.map((f) => encodeName(f.path, layout));
  const start = sink.position;
  await sink.write(packHeaderBytes({ dirOffset: 0, dirLength: 0 }, layout.magic));
  const records: Omit<PackRecord, 'name'>[] = [];
  // Read and compressed in order (on every core when the options bring workers), at most a window of files held.
  const items = files.map((file, index) => ({ file, index }));
  for await (const { item, data, chunks } of compressInOrder(items, (i) => methodOf(i.file), options)) {
    const file = item.file;
    const stored = chunks?.[0] ?? data;
    const offset = sink.position - start;
    if (offset + stored.length > MAX_OFFSET)
      fail('refused', `cannot write ${layout.label}: ${file.path} would end past 2 GiB, beyond the format's 32-bit offsets`);
    await sink.write(stored);
    records.push({ offset, length: data.length, storedLength: stored.length, compressed: chunks !== null && chunks !== undefined });
    options.onProgress?.(item.index + 1, files.length);
  }
  const dirOffset = sink.position - start;
  const dir = new Uint8Array(files.length * layout.entrySize);
  if (dirOffset + dir.length > MAX_OFFSET) fail('refused', `cannot write ${layout.label}: the directory would end past 2 GiB`);
  const view = new DataView(dir.buffer);
  records.forEach((r, i) => {
    const at = i * layout.entrySize;
    dir.set(names[i]!, at);
    layout.writeFields(view, at + layout.nameSize, r);
  });
  await sink.write(dir);
  await sink.writeAt(start, packHeaderBytes({ dirOffset, dirLength: dir.length }, layout.magic));
}
