import { fail } from '../errors.js';

/**
 * Pictures as every asset decoder returns them, and the palette step they share. Pure: no Node, no DOM.
 */

/** An RGBA picture: width × height × 4 bytes, row-major, top row first, straight (not premultiplied) alpha. */
export interface RgbaImage {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** 256 colours as RGBA (1024 bytes); alpha 255 everywhere unless an entry is transparent. */
export interface Palette {
  /** Where it came from, said under a picture: "palettes/PALETTE.PAL from totala1.hpi", "built-in TA palette". */
  name: string;
  rgba: Uint8Array;
}

/** No game picture is larger than this; a header that claims more is damaged (checked before allocating). */
export const MAX_IMAGE_PIXELS = 64 << 20;

/** Fails unless width × height is a picture size a decoder may allocate for. */
export function checkImageSize(what: string, width: number, height: number): void {
  if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width < 0 || height < 0 || width * height > MAX_IMAGE_PIXELS) {
    fail('bad-count', `${what}: ${width} × ${height} pixels is not a picture size (at most ${MAX_IMAGE_PIXELS} pixels)`, {
      actual: width * height,
    });
  }
}

/** A palette from 256 × 3 bytes of R, G, B (Quake's palette.lmp, the end of a PCX). */
export function paletteFromRgb(name: string, rgb: Uint8Array): Palette {
  if (rgb.length < 768)
    fail('truncated', `${name}: a palette needs 768 bytes of RGB, found ${rgb.length}`, { expected: 768, actual: rgb.length });
  const rgba = new Uint8Array(1024);
  for (let i = 0; i < 256; i++) {
    rgba[i * 4] = rgb[i * 3]!;
    rgba[i * 4 + 1] = rgb[i * 3 + 1]!;
    rgba[i * 4 + 2] = rgb[i * 3 + 2]!;
    rgba[i * 4 + 3] = 255;
  }
  return { name, rgba };
}

/**
 * Paletted pixels to RGBA. `transparent`: the index drawn as alpha 0 (GAF's per-frame transparency index,
 * Quake's 255 for `{` textures), or -1 for none.
 */
export function indexedToRgba(width: number, height: number, indices: Uint8Array, palette: Palette, transparent = -1): RgbaImage {
  checkImageSize('picture', width, height);
  const count = width * height;
  if (indices.length < count)
    fail('truncated', `picture: ${width} × ${height} needs ${count} pixels, found ${indices.length}`, {
      expected: count,
      actual: indices.length,
    });
  const rgba = new Uint8Array(count * 4);
  const colours = new Uint32Array(palette.rgba.buffer.slice(palette.rgba.byteOffset, palette.rgba.byteOffset + 1024));
  const out = new Uint32Array(rgba.buffer);
  // One 32-bit store per pixel: the palette's RGBA bytes are already in memory order.
  for (let i = 0; i < count; i++) {
    const index = indices[i]!;
    out[i] = index === transparent ? 0 : colours[index]!;
  }
  return { width, height, rgba };
}
