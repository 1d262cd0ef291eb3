import { ByteReader } from '../../bytes/reader.js';
import { fail } from '../../errors.js';
import { checkImageSize, paletteFromRgb, type Palette } from '../image.js';
import { mipSize } from './miptex.js';

/**
 * WAL textures.
 * Quake 2 (100-byte header): name[32], u32 width, u32 height, u32 offsets[4], animname[32] (the next frame
 * of an animated texture), i32 flags, i32 contents, i32 value; four mip levels; the palette is the game's
 * (pics/colormap.pcx). Quake 2 draws walls opaque.
 * Daikatana (version byte 3): u8 version, name[32], 3 unused bytes, u32 width, u32 height, u32 offsets[9],
 * animname[32], i32 flags, i32 contents, its own palette (256 × RGB), i32 value; up to nine levels (as many
 * as halving the smaller side allows); index 255 is transparent.
 */

export const Q2_WAL_HEADER_SIZE = 100;
export const DK_WAL_VERSION = 3;
export const DK_WAL_HEADER_SIZE = 1 + 32 + 3 + 8 + 9 * 4 + 32 + 8 + 768 + 4;

export interface Wal {
  game: 'quake2' | 'daikatana';
  name: string;
  width: number;
  height: number;
  offsets: number[];
  animName: string;
  flags: number;
  contents: number;
  value: number;
  mips: { width: number; height: number; indices: Uint8Array }[];
  /** Daikatana's own palette. */
  palette?: Palette;
  transparentIndex: number;
}

export function isDaikatanaWal(bytes: Uint8Array): boolean {
  return bytes[0] === DK_WAL_VERSION;
}

function readMips(reader: ByteReader, name: string, width: number, height: number, offsets: number[]): Wal['mips'] {
  return offsets.map((offset, level) => {
    const size = mipSize(width, height, level);
    return { ...size, indices: reader.slice(offset, size.width * size.height, `${name} mip ${level} (${size.width} × ${size.height})`) };
  });
}

function checkSize(reader: ByteReader, width: number, height: number): void {
  if (width === 0 || height === 0) fail('bad-count', `${reader.what}: texture is ${width} × ${height} pixels`);
  checkImageSize(reader.what, width, height);
}

export function decodeWal(bytes: Uint8Array, what: string): Wal {
  const reader = new ByteReader(bytes, what);
  if (isDaikatanaWal(bytes)) {
    reader.check('Daikatana WAL header', 0, DK_WAL_HEADER_SIZE);
    const name = reader.fixedString(1, 32);
    const width = reader.u32(36, 'width');
    const height = reader.u32(40, 'height');
    checkSize(reader, width, height);
    const levels = Math.min(9, Math.floor(Math.log2(Math.min(width, height))) + 1);
    const offsets = Array.from({ length: levels }, (_, i) => reader.u32(44 + i * 4, `mip offset ${i}`));
    const animName = reader.fixedString(80, 32, 'animation name');
    const flags = reader.i32(112, 'flags');
    const contents = reader.i32(116, 'contents');
    const palette = paletteFromRgb(`palette of ${what}`, reader.slice(120, 768, 'palette'));
    const value = reader.i32(888, 'value');
    return {
      game: 'daikatana',
      name,
      width,
      height,
      offsets,
      animName,
      flags,
      contents,
      value,
      mips: readMips(reader, what, width, height, offsets),
      palette,
      transparentIndex: 255,
    };
  }
  reader.check('Quake 2 WAL header', 0, Q2_WAL_HEADER_SIZE);
  const name = reader.fixedString(0, 32);
  const width = reader.u32(32, 'width');
  const height = reader.u32(36, 'height');
  checkSize(reader, width, height);
  const offsets = Array.from({ length: 4 }, (_, i) => reader.u32(40 + i * 4, `mip offset ${i}`));
  const animName = reader.fixedString(56, 32, 'animation name');
  const flags = reader.i32(88, 'flags');
  const contents = reader.i32(92, 'contents');
  const value = reader.i32(96, 'value');
  return {
    game: 'quake2',
    name,
    width,
    height,
    offsets,
    animName,
    flags,
    contents,
    value,
    mips: readMips(reader, what, width, height, offsets),
    transparentIndex: -1,
  };
}
