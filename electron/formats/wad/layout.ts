import type { ByteSource } from '../../io/byte-source.js';
import { checkRange, fail } from '../../../shared/errors.js';
import { ByteReader } from '../../../shared/bytes/reader.js';
import type { WadVersion } from '../../../shared/assets/quake/wad-types.js';

/**
 * WAD2 (Quake) and WAD3 (Half-Life): a 12-byte header `magic, i32 numlumps, i32 infotableofs`, the lumps,
 * and a directory of 32-byte entries:
 *   i32 filepos, i32 disksize, i32 size, u8 type, u8 compression, u8 pad[2], char name[16]
 * Names are NUL-padded; a name that fills all 16 bytes has no NUL (the engine copies 16 bytes at most).
 * Compression 1 (LZSS) is declared in id's headers but no tool ever wrote it.
 */

export const WAD_HEADER_SIZE = 12;
export const WAD_ENTRY_SIZE = 32;
export const WAD_NAME_SIZE = 16;

export interface WadRecord {
  readonly name: string;
  readonly offset: number;
  readonly diskSize: number;
  readonly size: number;
  readonly type: number;
  readonly compression: number;
}

export interface WadDirectory {
  readonly version: WadVersion;
  readonly records: readonly WadRecord[];
  readonly warnings: readonly string[];
}

/** The WAD version the first four bytes name, or null. */
export function wadMagicVersion(head: Uint8Array): WadVersion | null {
  if (head.length < 4 || head[0] !== 0x57 || head[1] !== 0x41 || head[2] !== 0x44) return null; // 'WAD'
  return head[3] === 0x32 ? 2 : head[3] === 0x33 ? 3 : null;
}

export async function readWadDirectory(source: ByteSource): Promise<WadDirectory> {
  if (source.size < WAD_HEADER_SIZE) fail('truncated', `WAD header cut off: the file has ${source.size} of its ${WAD_HEADER_SIZE} bytes`);
  const header = new ByteReader(await source.read(0, WAD_HEADER_SIZE), 'WAD header');
  const version = wadMagicVersion(header.bytes);
  if (!version) fail('bad-magic', 'not a WAD: the file does not start with WAD2 or WAD3');
  const count = header.i32(4, 'lump count');
  const dirOffset = header.i32(8, 'directory offset');
  if (count < 0) fail('bad-count', `WAD${version} lump count is negative (${count})`, { actual: count });
  if (count > 0 && dirOffset < WAD_HEADER_SIZE)
    fail('out-of-bounds', `WAD${version} directory at ${dirOffset} overlaps the ${WAD_HEADER_SIZE}-byte header`, { offset: dirOffset });
  checkRange(`WAD${version} directory (${count} × ${WAD_ENTRY_SIZE} bytes)`, dirOffset, count * WAD_ENTRY_SIZE, source.size);
  const dir = new ByteReader(await source.read(dirOffset, count * WAD_ENTRY_SIZE), `WAD${version} directory`);
  const records: WadRecord[] = [];
  const warnings: string[] = [];
  for (let i = 0; i < count; i++) {
    const at = i * WAD_ENTRY_SIZE;
    const offset = dir.i32(at);
    const diskSize = dir.i32(at + 4);
    const size = dir.i32(at + 8);
    const type = dir.u8(at + 12);
    const compression = dir.u8(at + 13);
    const name = dir.fixedString(at + 16, WAD_NAME_SIZE);
    const label = `lump ${i} (${JSON.stringify(name)})`;
    if (name.length === 0) fail('bad-name', `WAD${version} ${label}: the name is empty`);
    for (let c = 0; c < name.length; c++) {
      const code = name.charCodeAt(c);
      if (code < 0x20 || code === 0x7f || name[c] === '/' || name[c] === '\\') {
        fail('bad-name', `WAD${version} ${label}: the name has character 0x${code.toString(16).padStart(2, '0')} at byte ${c}`);
      }
    }
    if (diskSize < 0 || size < 0) fail('bad-count', `WAD${version} ${label}: size ${size} / disk size ${diskSize} is negative`);
    if (offset < 0 || offset + diskSize > source.size) {
      fail('out-of-bounds', `WAD${version} ${label}: data ${offset} + ${diskSize} lies outside the file (${source.size} bytes)`, {
        offset,
        expected: source.size,
        actual: offset + diskSize,
      });
    }
    if (compression === 0 && size !== diskSize)
      warnings.push(`${name}: size ${size} differs from its disk size ${diskSize} (the disk size is read)`);
    if (compression > 1) warnings.push(`${name}: unknown compression ${compression}`);
    records.push({ name, offset, diskSize, size, type, compression });
  }
  return { version, records, warnings };
}

/** A lump name as its 16-byte field, or why it cannot be one. */
export function encodeWadName(name: string): Uint8Array | string {
  if (name.length === 0) return 'an empty name cannot be stored';
  if (name.length > WAD_NAME_SIZE - 1)
    return `${JSON.stringify(name)} is ${name.length} characters long; WAD lump names hold at most ${WAD_NAME_SIZE - 1}`;
  const field = new Uint8Array(WAD_NAME_SIZE);
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c > 0xff) return `${JSON.stringify(name)} has a character outside latin1`;
    if (c < 0x20 || c === 0x7f || c === 0x2f || c === 0x5c)
      return `${JSON.stringify(name)} has character 0x${c.toString(16)}, which a lump name cannot hold (WADs have no folders)`;
    field[i] = c;
  }
  return field;
}
