import { fail } from '../../errors.js';
import { paletteFromRgb, type Palette, type RgbaImage } from '../image.js';
import type { ByteReader } from '../../bytes/reader.js';

/**
 * Palettes of the Quake family: Quake's `gfx/palette.lmp` (768 bytes of RGB), and the palettes Half-Life
 * miptex, qpics and fonts and Daikatana WALs carry after their pixels (a u16 colour count, then RGB).
 */

export const PALETTE_RGB_BYTES = 768;

/** Quake's palette.lmp: exactly 256 RGB triples. */
export function decodePaletteLmp(bytes: Uint8Array, name: string): Palette {
  if (bytes.length !== PALETTE_RGB_BYTES) {
    fail('size-mismatch', `${name}: a palette.lmp is ${PALETTE_RGB_BYTES} bytes of RGB, this one has ${bytes.length}`, {
      expected: PALETTE_RGB_BYTES,
      actual: bytes.length,
    });
  }
  return paletteFromRgb(name, bytes);
}

/**
 * A Half-Life embedded palette at `offset`: u16 colour count (at most 256), then count × RGB. Fewer than
 * 256 colours leave the rest black.
 */
export function readCountedPalette(reader: ByteReader, offset: number, name: string): Palette {
  const count = reader.u16(offset, 'palette colour count');
  if (count > 256) fail('bad-count', `${reader.what}: palette colour count ${count} is more than 256`, { offset, actual: count });
  const rgb = new Uint8Array(PALETTE_RGB_BYTES);
  rgb.set(reader.slice(offset + 2, count * 3, `palette (${count} colours)`));
  return paletteFromRgb(name, rgb);
}

/** The 256 RGB bytes of a palette (for writers). */
export function paletteRgb(palette: Palette): Uint8Array {
  const rgb = new Uint8Array(PALETTE_RGB_BYTES);
  for (let i = 0; i < 256; i++) {
    rgb[i * 3] = palette.rgba[i * 4]!;
    rgb[i * 3 + 1] = palette.rgba[i * 4 + 1]!;
    rgb[i * 3 + 2] = palette.rgba[i * 4 + 2]!;
  }
  return rgb;
}

/** A palette shown as a 16 × 16 grid of 8-pixel swatches (128 × 128), index 0 top left, row by row. */
export function paletteSwatches(palette: Palette): RgbaImage {
  const size = 128;
  const rgba = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const index = (y >> 3) * 16 + (x >> 3);
      rgba.set(palette.rgba.subarray(index * 4, index * 4 + 3), (y * size + x) * 4);
      rgba[(y * size + x) * 4 + 3] = 255;
    }
  }
  return { width: size, height: size, rgba };
}
