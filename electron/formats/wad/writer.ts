import type { ByteSink } from '../../io/byte-sink.js';
import { FileScratch, readPackFile, type PackFile, type PackOptions } from '../archive.js';
import { fail } from '../../../shared/errors.js';
import { wadTypeCode, type WadLumpKind, type WadVersion } from '../../../shared/assets/quake/wad-types.js';
import { guessLumpKind } from '../../../shared/assets/quake/wad-lumps.js';
import { WAD_ENTRY_SIZE, WAD_HEADER_SIZE, encodeWadName } from './layout.js';

/**
 * Writes a WAD2 or WAD3: header, each lump in the given order (each starting on a 4-byte boundary, as
 * qlumpy and Valve's tools align them), then the directory. A lump's type comes from its bytes (see
 * guessLumpKind); `convert` turns a file that is not a lump yet (a PNG) into a named lump of a known kind.
 * Same files in, same bytes out.
 */

export interface WadLump {
  name: string;
  kind: WadLumpKind;
  bytes: Uint8Array;
}

export type LumpConverter = (file: PackFile, data: Uint8Array, version: WadVersion, options: PackOptions) => WadLump | null;

const MAX_OFFSET = 0x7fffffff;

export async function writeWad(files: readonly PackFile[], sink: ByteSink, options: PackOptions, convert?: LumpConverter): Promise<void> {
  const version = options.wadVersion ?? 2;
  const magic = new Uint8Array([0x57, 0x41, 0x44, version === 2 ? 0x32 : 0x33]);
  const start = sink.position;
  await sink.write(headerBytes(magic, 0, 0));
  const entries: { name: Uint8Array; offset: number; size: number; type: number }[] = [];
  // Each file's bytes are written before the next is read, so one array serves them all.
  const scratch = new FileScratch();
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    const data = await readPackFile(file, scratch);
    const lump = convert?.(file, data, version, options) ?? { name: file.path, kind: guessLumpKind(file.path, data, version), bytes: data };
    const name = encodeWadName(lump.name);
    if (typeof name === 'string') fail('refused', `cannot write WAD${version}: ${file.path}: ${name}`);
    const offset = sink.position - start;
    if (offset + lump.bytes.length > MAX_OFFSET)
      fail('refused', `cannot write WAD${version}: ${file.path} would end past 2 GiB, beyond the format's 32-bit offsets`);
    await sink.write(lump.bytes);
    const pad = (4 - (lump.bytes.length % 4)) % 4;
    if (pad > 0) await sink.write(new Uint8Array(pad));
    entries.push({ name, offset, size: lump.bytes.length, type: wadTypeCode(version, lump.kind) });
    options.onProgress?.(i + 1, files.length);
  }
  const dirOffset = sink.position - start;
  const dir = new Uint8Array(entries.length * WAD_ENTRY_SIZE);
  const view = new DataView(dir.buffer);
  entries.forEach((e, i) => {
    const at = i * WAD_ENTRY_SIZE;
    view.setInt32(at, e.offset, true);
    view.setInt32(at + 4, e.size, true);
    view.setInt32(at + 8, e.size, true);
    dir[at + 12] = e.type;
    dir.set(e.name, at + 16);
  });
  await sink.write(dir);
  await sink.writeAt(start, headerBytes(magic, entries.length, dirOffset));
}

function headerBytes(magic: Uint8Array, count: number, dirOffset: number): Uint8Array {
  const bytes = new Uint8Array(WAD_HEADER_SIZE);
  bytes.set(magic);
  const view = new DataView(bytes.buffer);
  view.setInt32(4, count, true);
  view.setInt32(8, dirOffset, true);
  return bytes;
}
