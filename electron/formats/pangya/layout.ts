import { fail } from '../../../shared/errors.js';
import { xteaEncipher, xteaEncipherWords, type XteaKey } from './xtea.js';
import { xorBytes, xorSize } from './xor.js';

/**
 * The Pangya PAK layout: file data from offset 0, then the table, then a 9-byte trailer.
 *
 *   trailer (last 9 bytes)       table entry (14 bytes + name)
 *   0  u32 tableOffset           0  u8  nameLength
 *   4  u32 entryCount            1  u8  type: low nibble 0 stored, 1 LZ77, 2 directory, 3 LZ77 type 3;
 *   8  u8  0x12 signature                high nibble 0x00/0x10 XOR metadata, 0x20 XTEA metadata
 *                                2  u32 offset        (XTEA: enciphered with realSize as one block)
 *                                6  u32 packedSize    (always plain)
 *                                10 u32 realSize      (XOR: ^ 0x71; XTEA: the block's second word)
 *                                14 name[nameLength]  (XOR: bytes ^ 0x71, then one extra byte;
 *                                                      XTEA: whole 8-byte blocks, enciphered)
 *
 * This module reads and writes that structure without interpreting names or keys.
 */

export const TRAILER_SIZE = 9;
export const TRAILER_SIGNATURE = 0x12;
export const ENTRY_HEADER_SIZE = 14;
/** The smallest entry: an XOR entry with a 1-byte name and its extra byte (an XTEA name is at least 8). */
export const MIN_ENTRY_SIZE = ENTRY_HEADER_SIZE + 2;
export const MAX_NAME_LENGTH = 255;
export const U32_MAX = 0xffffffff;

export type MetadataCipher = 'xor' | 'xtea';
export type StorageKind = 0 | 1 | 2 | 3;
export const KIND_STORED = 0;
export const KIND_LZ77 = 1;
export const KIND_DIR = 2;
export const KIND_LZ77X = 3;
const XTEA_NIBBLE = 0x20;

export interface Trailer {
  tableOffset: number;
  entryCount: number;
  /** Bytes between the table's start and the trailer. */
  tableBytes: number;
}

/** Parse and bound the trailer: the table must lie inside the file and hold `entryCount` entries at least. */
export function parseTrailer(trailer: Uint8Array, fileSize: number): Trailer {
  if (fileSize < TRAILER_SIZE) fail('truncated', `file of ${fileSize} bytes is shorter than the ${TRAILER_SIZE}-byte Pangya trailer`);
  const view = new DataView(trailer.buffer, trailer.byteOffset, trailer.byteLength);
  const signature = trailer[8]!;
  if (signature !== TRAILER_SIGNATURE) {
    fail('bad-magic', `Pangya trailer signature is 0x${signature.toString(16)}, expected 0x12`, {
      expected: TRAILER_SIGNATURE,
      actual: signature,
    });
  }
  const tableOffset = view.getUint32(0, true);
  const entryCount = view.getUint32(4, true);
  const tableEnd = fileSize - TRAILER_SIZE;
  if (tableOffset > tableEnd) {
    fail('out-of-bounds', `Pangya table offset ${tableOffset} is past the trailer at ${tableEnd}`, {
      offset: tableOffset,
      expected: tableEnd,
    });
  }
  const tableBytes = tableEnd - tableOffset;
  // Bound the count by the table's size before anything is allocated for it.
  if (entryCount > Math.floor(tableBytes / MIN_ENTRY_SIZE)) {
    fail(
      'bad-count',
      `Pangya table declares ${entryCount} entries, but its ${tableBytes} bytes hold at most ${Math.floor(tableBytes / MIN_ENTRY_SIZE)}`,
      {
        expected: Math.floor(tableBytes / MIN_ENTRY_SIZE),
        actual: entryCount,
      },
    );
  }
  return { tableOffset, entryCount, tableBytes };
}

/** One table entry as stored: numbers and name bytes still enciphered. */
export interface RawEntry {
  index: number;
  /** File offset of the entry, for messages. */
  at: number;
  cipher: MetadataCipher;
  kind: StorageKind;
  type: number;
  offset: number;
  packedSize: number;
  realSize: number;
  /** Where the name's stored bytes start in the table walked (a position, not a view: a table has thousands). */
  nameAt: number;
  nameLength: number;
}

/**
 * Walk `count` entries of `table` (which starts at file offset `tableOffset`). Only the structure is
 * checked here: every entry inside the table, a known type, a non-empty name, XTEA names in whole blocks.
 * Returns the entries and where the walk ended (bytes into the table).
 */
export function walkTable(table: Uint8Array, tableOffset: number, count: number): { entries: RawEntry[]; end: number } {
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const entries: RawEntry[] = [];
  let p = 0;
  for (let index = 0; index < count; index++) {
    const at = tableOffset + p;
    if (p + ENTRY_HEADER_SIZE > table.length) {
      fail('truncated', `Pangya entry ${index} at ${at} overflows the table: ${p} + ${ENTRY_HEADER_SIZE} > ${table.length}`, {
        offset: at,
      });
    }
    const nameLength = table[p]!;
    const type = table[p + 1]!;
    const nibble = type & 0xf0;
    const kind = type & 0x0f;
    if (kind > 3 || nibble > XTEA_NIBBLE)
      fail('unsupported', `Pangya entry ${index} at ${at} has unknown type 0x${type.toString(16)}`, { offset: at, actual: type });
    const cipher: MetadataCipher = nibble === XTEA_NIBBLE ? 'xtea' : 'xor';
    if (nameLength === 0) fail('bad-name', `Pangya entry ${index} at ${at} has an empty name`, { offset: at });
    if (cipher === 'xtea' && nameLength % 8 !== 0) {
      fail('bad-name', `Pangya XTEA entry ${index} at ${at} has a name of ${nameLength} bytes, not whole 8-byte blocks`, {
        offset: at,
        actual: nameLength,
      });
    }
    const size = ENTRY_HEADER_SIZE + nameLength + (cipher === 'xor' ? 1 : 0);
    if (p + size > table.length) {
      fail('truncated', `Pangya entry ${index} at ${at} overflows the table: ${p} + ${size} > ${table.length}`, { offset: at });
    }
    entries.push({
      index,
      at,
      cipher,
      kind: kind as StorageKind,
      type,
      offset: view.getUint32(p + 2, true),
      packedSize: view.getUint32(p + 6, true),
      realSize: view.getUint32(p + 10, true),
      nameAt: p + ENTRY_HEADER_SIZE,
      nameLength,
    });
    p += size;
  }
  return { entries, end: p };
}

/** An entry to write, in the clear. */
export interface PlainEntry {
  kind: StorageKind;
  offset: number;
  packedSize: number;
  realSize: number;
  /** Name bytes (CP949), unpadded. */
  name: Uint8Array;
}

/** Bytes an entry's name takes once written (XTEA pads to whole blocks). */
export const storedNameLength = (nameLength: number, cipher: MetadataCipher) =>
  cipher === 'xtea' ? Math.ceil(nameLength / 8) * 8 : nameLength;

/** Serialise one entry with its metadata cipher (`key` for XTEA). */
export function encodeEntry(entry: PlainEntry, cipher: MetadataCipher, key: XteaKey | null): Uint8Array {
  const nameLength = storedNameLength(entry.name.length, cipher);
  if (entry.name.length === 0 || nameLength > MAX_NAME_LENGTH) throw new Error(`entry name of ${entry.name.length} bytes cannot be stored`);
  const out = new Uint8Array(ENTRY_HEADER_SIZE + nameLength + (cipher === 'xor' ? 1 : 0));
  const view = new DataView(out.buffer);
  out[0] = nameLength;
  view.setUint32(6, entry.packedSize, true);
  if (cipher === 'xor') {
    out[1] = entry.kind;
    view.setUint32(2, entry.offset, true);
    view.setUint32(10, xorSize(entry.realSize), true);
    out.set(xorBytes(entry.name), ENTRY_HEADER_SIZE);
    // The extra byte after an XOR name is written as 0, as the game's own archives have it.
    out[ENTRY_HEADER_SIZE + nameLength] = 0;
  } else {
    if (!key) throw new Error('an XTEA entry needs a key');
    out[1] = XTEA_NIBBLE | entry.kind;
    const [v0, v1] = xteaEncipherWords(entry.offset, entry.realSize, key);
    view.setUint32(2, v0, true);
    view.setUint32(10, v1, true);
    const name = new Uint8Array(nameLength);
    name.set(entry.name);
    out.set(xteaEncipher(name, key), ENTRY_HEADER_SIZE);
  }
  return out;
}

export function encodeTrailer(tableOffset: number, entryCount: number): Uint8Array {
  const out = new Uint8Array(TRAILER_SIZE);
  const view = new DataView(out.buffer);
  view.setUint32(0, tableOffset, true);
  view.setUint32(4, entryCount, true);
  out[8] = TRAILER_SIGNATURE;
  return out;
}
