import { ByteReader } from '../../bytes/reader.js';
import { fail } from '../../errors.js';
import { checkImageSize, type Palette } from '../image.js';
import { readCountedPalette } from './palette.js';

/**
 * Quake's qpic (`gfx/*.lmp` and WAD2 type 0x42): u32 width, u32 height, width × height indices, drawn with
 * index 255 transparent (Draw_TransPic; GL ports upload 255 as alpha 0). Half-Life's WAD3 qpic follows the
 * pixels with its own palette (u16 count, RGB).
 * `conchars` in Quake's gfx.wad has no header at all: 128 × 128 raw indices, index 0 transparent (the
 * console font's background; GL Quake turns 0 into 255 before uploading).
 */

export const QPIC_HEADER_SIZE = 8;
export const CONCHARS_SIZE = 128;

export interface Qpic {
  width: number;
  height: number;
  indices: Uint8Array;
  palette?: Palette;
  transparentIndex: number;
}

export function decodeQpic(bytes: Uint8Array, what: string, embeddedPalette: boolean): Qpic {
  const reader = new ByteReader(bytes, what);
  const width = reader.u32(0, 'qpic width');
  const height = reader.u32(4, 'qpic height');
  checkImageSize(what, width, height);
  const indices = reader.slice(QPIC_HEADER_SIZE, width * height, `qpic pixels (${width} × ${height})`);
  const palette = embeddedPalette ? readCountedPalette(reader, QPIC_HEADER_SIZE + width * height, `palette of ${what}`) : undefined;
  return { width, height, indices, palette, transparentIndex: 255 };
}

/** Quake's console font: the lump's name is `conchars` and it is exactly 128 × 128 bytes. */
export function isConchars(name: string, bytes: Uint8Array): boolean {
  return /(^|\/)conchars(\.lmp)?$/i.test(name) && bytes.length === CONCHARS_SIZE * CONCHARS_SIZE;
}

export function decodeConchars(bytes: Uint8Array, what: string): Qpic {
  if (bytes.length !== CONCHARS_SIZE * CONCHARS_SIZE) {
    fail('size-mismatch', `${what}: conchars is ${CONCHARS_SIZE} × ${CONCHARS_SIZE} raw bytes, found ${bytes.length}`, {
      expected: CONCHARS_SIZE * CONCHARS_SIZE,
      actual: bytes.length,
    });
  }
  return { width: CONCHARS_SIZE, height: CONCHARS_SIZE, indices: bytes, transparentIndex: 0 };
}

/** Whether `bytes` are exactly a qpic (with Half-Life's palette when `embeddedPalette`): for lumps of unknown type. */
export function looksLikeQpic(bytes: Uint8Array, embeddedPalette: boolean): boolean {
  if (bytes.length < QPIC_HEADER_SIZE) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const width = view.getUint32(0, true);
  const height = view.getUint32(4, true);
  if (width === 0 || height === 0 || width > 4096 || height > 4096) return false;
  const pixels = QPIC_HEADER_SIZE + width * height;
  if (!embeddedPalette) return bytes.length === pixels;
  // Valve's tools pad the palette to a 4-byte boundary; accept the lump with or without that padding.
  return bytes.length >= pixels + 2 + 768 && bytes.length <= pixels + 2 + 768 + 4;
}

/** A qpic's bytes (Quake: no palette). */
export function encodeQpic(width: number, height: number, indices: Uint8Array): Uint8Array {
  const out = new Uint8Array(QPIC_HEADER_SIZE + width * height);
  const view = new DataView(out.buffer);
  view.setUint32(0, width, true);
  view.setUint32(4, height, true);
  out.set(indices.subarray(0, width * height), QPIC_HEADER_SIZE);
  return out;
}
