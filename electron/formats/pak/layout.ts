import type { ByteSource } from '../../io/byte-source.js';
import { checkRange, fail } from '../../../shared/errors.js';

/**
 * The 'PACK' family: Quake / Half-Life / Quake 2 (64-byte entries), SiN (128-byte entries) and Daikatana
 * (72-byte entries) share one 12-byte header `'PACK', i32 dirOffset, i32 dirLength`; only the directory
 * entry differs. The magic cannot tell them apart, so each layout is validated against the whole
 * directory and the file size (see recognition.ts for which one is preferred when several fit).
 */

export const HEADER_SIZE = 12;
/** The family's magic; SiN writes its own, 'SPAK', and older tools wrote SiN's 128-byte entries under 'PACK'. */
export type PackMagic = 'PACK' | 'SPAK';
const MAGICS: readonly PackMagic[] = ['PACK', 'SPAK'];

/** The largest a Daikatana stream expands: opcodes 0x7F (65 zeros from 1 byte) and 0xBF (65 bytes from 2). */
export const DK_MAX_EXPANSION = 65;

/** One directory entry as the file states it, checked against the file but not yet decoded. */
export interface PackRecord {
  /** The stored name, one char per byte (latin1), so the raw bytes survive. */
  readonly name: string;
  readonly offset: number;
  /** Uncompressed length. */
  readonly length: number;
  /** Bytes the data takes in the file. */
  readonly storedLength: number;
  readonly compressed: boolean;
  /** Daikatana's compressedLength as stored (for stored entries it should equal `length`). */
  readonly declaredCompressedLength?: number;
}

export interface PackLayout {
  readonly id: 'pak' | 'sin' | 'daikatana';
  readonly label: string;
  /** The magic written; read are `readMagics`. */
  readonly magic: PackMagic;
  readonly readMagics: readonly PackMagic[];
  readonly entrySize: number;
  readonly nameSize: number;
  /**
   * The record of `name` with the fields after it at `at`, or a string saying why they cannot be this
   * layout's. Made whole here, not spread into a record with the name: one object per entry, not two.
   */
  readRecord(view: DataView, at: number, fileSize: number, name: string): PackRecord | string;
  writeFields(view: DataView, at: number, record: Omit<PackRecord, 'name'>): void;
}

/** Quake and SiN: `i32 offset, i32 length`, the data stored as is. */
function plainRecord(view: DataView, at: number, fileSize: number, name: string): PackRecord | string {
  const offset = view.getInt32(at, true);
  const length = view.getInt32(at + 4, true);
  if (offset < 0 || length < 0 || offset + length > fileSize) return `data ${offset} + ${length} lies outside the file (${fileSize} bytes)`;
  return { name, offset, length, storedLength: length, compressed: false };
}

function writePlainFields(view: DataView, at: number, r: Omit<PackRecord, 'name'>): void {
  view.setInt32(at, r.offset, true);
  view.setInt32(at + 4, r.length, true);
}

export const QUAKE_LAYOUT: PackLayout = {
  id: 'pak',
  label: 'Quake PAK',
  magic: 'PACK',
  readMagics: ['PACK'],
  entrySize: 64,
  nameSize: 56,
  readRecord: plainRecord,
  writeFields: writePlainFields,
};
export const SIN_LAYOUT: PackLayout = {
  id: 'sin',
  label: 'SiN PAK',
  magic: 'SPAK',
  readMagics: ['SPAK', 'PACK'],
  entrySize: 128,
  nameSize: 120,
  readRecord: plainRecord,
  writeFields: writePlainFields,
};

export const DAIKATANA_LAYOUT: PackLayout = {
  id: 'daikatana',
  label: 'Daikatana PAK',
  magic: 'PACK',
  readMagics: ['PACK'],
  entrySize: 72,
  nameSize: 56,
  readRecord(view, at, fileSize, name) {
    const offset = view.getInt32(at, true);
    const length = view.getInt32(at + 4, true);
    const compressedLength = view.getInt32(at + 8, true);
    const flag = view.getInt32(at + 12, true);
    if (flag !== 0 && flag !== 1) return `compressed flag is ${flag}, not 0 or 1`;
    if (offset < 0 || length < 0 || compressedLength < 0 || compressedLength > fileSize) {
      return `offset ${offset}, length ${length} or compressedLength ${compressedLength} is impossible in a ${fileSize}-byte file`;
    }
    const compressed = flag === 1;
    const storedLength = compressed ? compressedLength : length;
    if (offset + storedLength > fileSize) return `data ${offset} + ${storedLength} lies outside the file (${fileSize} bytes)`;
    // A declared size the codec cannot reach from the packed bytes would make us allocate for nothing.
    if (compressed && length > compressedLength * DK_MAX_EXPANSION) {
      return `length ${length} cannot come from ${compressedLength} compressed bytes (at most ${DK_MAX_EXPANSION}×)`;
    }
    return { name, offset, length, storedLength, compressed, declaredCompressedLength: compressedLength };
  },
  writeFields(view, at, r) {
    view.setInt32(at, r.offset, true);
    view.setInt32(at + 4, r.length, true);
    view.setInt32(at + 8, r.storedLength, true);
    view.setInt32(at + 12, r.compressed ? 1 : 0, true);
  },
};

/** In registry order: when several layouts fit equally well, the first wins (Quake is by far the most common). */
export const PACK_LAYOUTS: readonly PackLayout[] = [QUAKE_LAYOUT, SIN_LAYOUT, DAIKATANA_LAYOUT];

export interface PackHeader {
  readonly dirOffset: number;
  readonly dirLength: number;
}

/** The family magic the file starts with ('PACK', or SiN's 'SPAK'), or null. */
export async function packMagicOf(source: ByteSource): Promise<PackMagic | null> {
  if (source.size < 4) return null;
  const bytes = await source.read(0, 4);
  const text = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
  return MAGICS.find((m) => m === text) ?? null;
}

/** The header of a file that starts with 'PACK' or 'SPAK'. */
export async function readPackHeader(source: ByteSource): Promise<PackHeader> {
  if (source.size < HEADER_SIZE) fail('truncated', `PACK header cut off: the file has ${source.size} of its ${HEADER_SIZE} bytes`);
  const bytes = await source.read(0, HEADER_SIZE);
  const view = new DataView(bytes.buffer, bytes.byteOffset, HEADER_SIZE);
  return { dirOffset: view.getInt32(4, true), dirLength: view.getInt32(8, true) };
}

/** The 12-byte header of a new archive. */
export function packHeaderBytes(header: PackHeader, magic: PackMagic = 'PACK'): Uint8Array {
  const bytes = new Uint8Array(HEADER_SIZE);
  for (let i = 0; i < 4; i++) bytes[i] = magic.charCodeAt(i);
  const view = new DataView(bytes.buffer);
  view.setInt32(4, header.dirOffset, true);
  view.setInt32(8, header.dirLength, true);
  return bytes;
}

/** Check that the directory lies inside the file (after the header) and read it. */
export async function readPackDirectory(source: ByteSource, header: PackHeader): Promise<Uint8Array> {
  const { dirOffset, dirLength } = header;
  if (dirLength < 0) fail('bad-count', `PACK directory length is negative (${dirLength})`);
  if (dirLength > 0 && dirOffset < HEADER_SIZE)
    fail('out-of-bounds', `PACK directory at ${dirOffset} overlaps the ${HEADER_SIZE}-byte header`);
  checkRange('directory', dirOffset, dirLength, source.size);
  return source.read(dirOffset, dirLength);
}

/** A control character (other than the NUL that ends a name): names are text. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL_CHARACTER = /[\x01-\x1f\x7f]/;

export type LayoutReading = { readonly records: readonly PackRecord[] } | { readonly reason: string };

/**
 * Read `dir` as `layout`'s entries, checking every field against the file: the length divisible by the
 * entry size, names NUL-terminated inside their field, non-empty and free of control characters,
 * every entry's data inside the file. The first problem found is the reason it does not fit.
 */
export function readLayout(dir: Uint8Array, fileSize: number, layout: PackLayout): LayoutReading {
  const { entrySize, nameSize } = layout;
  if (dir.length % entrySize !== 0) {
    return { reason: `directory length ${dir.length} is not a multiple of the ${entrySize}-byte ${layout.label} entry` };
  }
  const view = new DataView(dir.buffer, dir.byteOffset, dir.length);
  // The whole directory decoded once (latin1: one char per byte); each name is a slice of it.
  const text = Buffer.from(dir.buffer, dir.byteOffset, dir.length).toString('latin1');
  const records: PackRecord[] = [];
  for (let at = 0, i = 0; at < dir.length; at += entrySize, i++) {
    const limit = at + nameSize;
    const nul = dir.indexOf(0, at);
    const end = nul < 0 || nul > limit ? limit : nul;
    const name = text.slice(at, end);
    const control = CONTROL_CHARACTER.exec(name);
    if (control) {
      const c = name.charCodeAt(control.index);
      return { reason: `entry ${i}: name has control character 0x${c.toString(16).padStart(2, '0')} at byte ${control.index}` };
    }
    if (end === limit) return { reason: `entry ${i}: name is not NUL-terminated within its ${nameSize} bytes` };
    if (end === at) return { reason: `entry ${i}: name is empty` };
    const record = layout.readRecord(view, limit, fileSize, name);
    if (typeof record === 'string') return { reason: `entry ${i}: ${record}` };
    records.push(record);
  }
  return { records };
}

/** A name as the bytes a directory stores (latin1); FormatError('bad-name') when `layout` cannot store it. */
export function encodeName(name: string, layout: PackLayout): Uint8Array {
  const refuse = (why: string): never => fail('bad-name', `cannot write ${layout.label}: ${why}`);
  if (name.length === 0) refuse('an empty name cannot be stored');
  const bytes = new Uint8Array(name.length);
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c > 0xff) refuse(`${JSON.stringify(name)} has a character outside latin1, which ${layout.label} names cannot hold`);
    if (c < 0x20 || c === 0x7f) refuse(`${JSON.stringify(name)} has control character 0x${c.toString(16)}`);
    bytes[i] = c;
  }
  if (bytes.length > layout.nameSize - 1) {
    refuse(
      `${JSON.stringify(name)} is ${bytes.length} bytes long; ${layout.label} names hold at most ${layout.nameSize - 1} (a ${layout.nameSize}-byte field with its NUL)`,
    );
  }
  return bytes;
}
