import { ByteReader } from '../../bytes/reader.js';
import { fail } from '../../errors.js';
import { checkImageSize, type Palette } from '../image.js';
import { readCountedPalette } from './palette.js';

/**
 * Miptex: the textures of Quake and Half-Life WADs and of their BSPs' texture lump.
 *   name[16], u32 width, u32 height, u32 offsets[4]   (40 bytes; offsets from the miptex's start)
 *   then four mip levels of paletted pixels: w×h, w/2×h/2, w/4×h/4, w/8×h/8.
 * Half-Life's copies (WAD3, BSP 30) follow the last level with their own palette: u16 count, count × RGB.
 * A BSP 30 texture whose offsets are all 0 is not embedded: the map names a WAD that holds it.
 * Names starting with `{` are drawn with index 255 transparent (Half-Life; Quake source ports agree).
 */

export const MIPTEX_HEADER_SIZE = 40;
export const MIP_LEVELS = 4;
export const MIPTEX_NAME_SIZE = 16;

export interface MiptexHeader {
  name: string;
  width: number;
  height: number;
  offsets: number[];
}

export interface Miptex extends MiptexHeader {
  /** The mip levels present (4, or none for a texture kept outside the BSP). */
  mips: { width: number; height: number; indices: Uint8Array }[];
  /** Half-Life's own palette, when the texture carries one. */
  palette?: Palette;
  /** The index drawn as nothing (255 for `{` textures), or -1. */
  transparentIndex: number;
}

export function mipSize(width: number, height: number, level: number): { width: number; height: number } {
  return { width: Math.floor(width / (1 << level)), height: Math.floor(height / (1 << level)) };
}

export function readMiptexHeader(reader: ByteReader, at = 0): MiptexHeader {
  reader.check('miptex header', at, MIPTEX_HEADER_SIZE);
  const name = reader.fixedString(at, MIPTEX_NAME_SIZE, 'miptex name');
  const width = reader.u32(at + 16, 'miptex width');
  const height = reader.u32(at + 20, 'miptex height');
  if (width === 0 || height === 0) fail('bad-count', `${reader.what}: miptex ${JSON.stringify(name)} is ${width} × ${height} pixels`);
  checkImageSize(`${reader.what}: miptex ${name}`, width, height);
  const offsets: number[] = [];
  for (let i = 0; i < MIP_LEVELS; i++) offsets.push(reader.u32(at + 24 + i * 4, `miptex offset ${i}`));
  return { name, width, height, offsets };
}

export function transparentIndexFor(name: string): number {
  return name.startsWith('{') ? 255 : -1;
}

/**
 * Decode the miptex at `at` in `reader` (a WAD lump: at 0; a BSP texture lump: at its directory offset).
 * `embeddedPalette`: the texture carries Half-Life's palette after its last level.
 */
export function decodeMiptexAt(reader: ByteReader, at: number, embeddedPalette: boolean): Miptex {
  const header = readMiptexHeader(reader, at);
  const { name, width, height, offsets } = header;
  const transparentIndex = transparentIndexFor(name);
  if (offsets.every((o) => o === 0)) return { ...header, mips: [], transparentIndex };
  const mips: Miptex['mips'] = [];
  let end = 0;
  for (let level = 0; level < MIP_LEVELS; level++) {
    const size = mipSize(width, height, level);
    const start = at + offsets[level]!;
    const indices = reader.slice(start, size.width * size.height, `miptex ${name} mip ${level} (${size.width} × ${size.height})`);
    mips.push({ ...size, indices });
    end = Math.max(end, start + indices.length);
  }
  const palette = embeddedPalette ? readCountedPalette(reader, end, `palette of ${name}`) : undefined;
  return { ...header, mips, palette, transparentIndex };
}

export function decodeMiptex(bytes: Uint8Array, what: string, embeddedPalette: boolean): Miptex {
  return decodeMiptexAt(new ByteReader(bytes, what), 0, embeddedPalette);
}

/** Whether `bytes` look like a miptex (header in range, offsets inside the lump): for lumps of unknown type. */
export function looksLikeMiptex(bytes: Uint8Array): boolean {
  if (bytes.length < MIPTEX_HEADER_SIZE) return false;
  try {
    const header = readMiptexHeader(new ByteReader(bytes));
    return header.offsets.every((o, level) => {
      const size = mipSize(header.width, header.height, level);
      return o >= MIPTEX_HEADER_SIZE && o + size.width * size.height <= bytes.length;
    });
  } catch {
    return false;
  }
}

/**
 * A miptex's bytes: header, the four levels back to back, then (Half-Life) u16 256, the palette's 768
 * bytes and 2 bytes of padding, as Valve's tools write it.
 */
export function encodeMiptex(
  name: string,
  width: number,
  height: number,
  levels: readonly Uint8Array[],
  paletteRgb?: Uint8Array,
): Uint8Array {
  if (levels.length !== MIP_LEVELS) throw new Error(`a miptex has ${MIP_LEVELS} levels, ${levels.length} given`);
  const nameBytes = new Uint8Array(MIPTEX_NAME_SIZE);
  for (let i = 0; i < name.length && i < MIPTEX_NAME_SIZE - 1; i++) nameBytes[i] = name.charCodeAt(i) & 0xff;
  const pixels = levels.reduce((n, l) => n + l.length, 0);
  const size = MIPTEX_HEADER_SIZE + pixels + (paletteRgb ? 2 + 768 + 2 : 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(nameBytes, 0);
  view.setUint32(16, width, true);
  view.setUint32(20, height, true);
  let at = MIPTEX_HEADER_SIZE;
  levels.forEach((level, i) => {
    const expected = mipSize(width, height, i);
    if (level.length !== expected.width * expected.height)
      throw new Error(`mip ${i} of ${name} has ${level.length} pixels, not ${expected.width} × ${expected.height}`);
    view.setUint32(24 + i * 4, at, true);
    out.set(level, at);
    at += level.length;
  });
  if (paletteRgb) {
    view.setUint16(at, 256, true);
    out.set(paletteRgb.subarray(0, 768), at + 2);
  }
  return out;
}
