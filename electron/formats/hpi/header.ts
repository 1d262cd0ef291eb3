/**
 * HPI headers. Both versions start 'HAPI' + a version word; saved games reuse the wrapper with 'BANK'.
 *
 * v1 (20 bytes, plain): 0x00 'HAPI' 0x04 0x00010000 0x08 DirectorySize (absolute END of the directory)
 *   0x0C HeaderKey 0x10 Start (directory offset, 0x14)
 * v2 (32 bytes): 0x00 'HAPI' 0x04 0x00020000 0x08 DirBlock 0x0C DirSize 0x10 NameBlock 0x14 NameSize
 *   0x18 Data (0x20) 0x1C Last78
 */
import type { ByteSource } from '../../io/byte-source.js';
import { checkRange, fail } from '../../../shared/errors.js';

export const HAPI = 0x49504148; // 'HAPI'
export const BANK = 0x4b4e4142; // 'BANK'
export const VERSION_1 = 0x00010000;
export const VERSION_2 = 0x00020000;
export const V1_HEADER_SIZE = 20;
export const V2_HEADER_SIZE = 32;

export type HpiKind = 'v1' | 'v2' | 'bank';

/** What the first 8 bytes say, or null when they are not HPI at all. */
export async function sniffHpi(source: ByteSource): Promise<HpiKind | null> {
  if (source.size < 8) return null;
  const view = dataView(await source.read(0, 8));
  const marker = view.getUint32(0, true);
  const version = view.getUint32(4, true);
  if (marker === BANK || (marker === HAPI && version === BANK)) return 'bank';
  if (marker !== HAPI) return null;
  if (version === VERSION_1) return 'v1';
  if (version === VERSION_2) return 'v2';
  return null;
}

export function dataView(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export interface V1Header {
  /** Absolute end of the directory (the header is included). */
  directoryEnd: number;
  headerKey: number;
  /** Absolute start of the directory. */
  start: number;
}

export async function readV1Header(source: ByteSource): Promise<V1Header> {
  const view = dataView(await source.read(0, V1_HEADER_SIZE));
  const header = { directoryEnd: view.getUint32(8, true), headerKey: view.getUint32(12, true), start: view.getUint32(16, true) };
  if (header.start < V1_HEADER_SIZE || header.start > header.directoryEnd) {
    fail(
      'out-of-bounds',
      `directory start ${header.start} must lie between the header's end (${V1_HEADER_SIZE}) and the directory's end (${header.directoryEnd})`,
      {
        offset: 16,
        actual: header.start,
      },
    );
  }
  checkRange('directory', header.start, header.directoryEnd - header.start, source.size);
  return header;
}

export interface V2Header {
  dirBlock: number;
  dirSize: number;
  nameBlock: number;
  nameSize: number;
  data: number;
  last78: number;
}

export async function readV2Header(source: ByteSource): Promise<V2Header> {
  const view = dataView(await source.read(0, V2_HEADER_SIZE));
  const u = (at: number) => view.getUint32(at, true);
  const header = { dirBlock: u(8), dirSize: u(12), nameBlock: u(16), nameSize: u(20), data: u(24), last78: u(28) };
  checkRange('directory block', header.dirBlock, header.dirSize, source.size);
  checkRange('name block', header.nameBlock, header.nameSize, source.size);
  return header;
}
