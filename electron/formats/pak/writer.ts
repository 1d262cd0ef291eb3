import type { ByteSink } from '../../io/byte-sink.js';
import { FileScratch, readPackFile, type PackFile, type PackOptions } from '../archive.js';
import { fail } from '../../../shared/errors.js';
import { encodeName, packHeaderBytes, type PackLayout, type PackRecord } from './layout.js';

/**
 * The writer shared by the 'PACK' family: header, then each file's data in the given order, then the
 * directory, then the header patched with where the directory went. Only one file's bytes are held at a
 * time. Names are checked against the layout's field before anything is written.
 */

/** How one file is stored: Quake and SiN store it as is; Daikatana may compress it. */
export type PackEncoder = (file: PackFile, data: Uint8Array) => { stored: Uint8Array; compressed: boolean };

const storeAsIs: PackEncoder = (_file, data) => ({ stored: data, compressed: false });

/** Offsets and lengths are signed 32-bit fields. */
const MAX_OFFSET = 0x7fffffff;

export async function writePack(
  files: readonly PackFile[],
  sink: ByteSink,
  options: PackOptions,
  layout: PackLayout,
  encode: PackEncoder = storeAsIs,
): Promise<void> {
  const names = files.map((f) => encodeName(f.path, layout));
  const start = sink.position;
  await sink.write(packHeaderBytes({ dirOffset: 0, dirLength: 0 }, layout.magic));
  const records: Omit<PackRecord, 'name'>[] = [];
  // Each file's bytes are written before the next is read, so one array serves them all.
  const scratch = new FileScratch();
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    const data = await readPackFile(file, scratch);
    const { stored, compressed } = encode(file, data);
    const offset = sink.position - start;
    if (offset + stored.length > MAX_OFFSET)
      fail('refused', `cannot write ${layout.label}: ${file.path} would end past 2 GiB, beyond the format's 32-bit offsets`);
    await sink.write(stored);
    records.push({ offset, length: data.length, storedLength: stored.length, compressed });
    options.onProgress?.(i + 1, files.length);
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
