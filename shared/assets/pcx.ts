import { fail } from '../errors.js';
import type { RgbaImage } from './image.js';

/**
 * ZSoft PCX → RGBA, for previews. Handles what TA and its tools write: 8 bits per pixel with one plane
 * (paletted, 256-colour palette after a 0x0C marker at the end) or three planes (24-bit RGB, one plane
 * line each of R, G, B per scanline). RLE (encoding 1) and raw (encoding 0) data.
 *
 * Header (128 bytes, little-endian):
 *   0 manufacturer (0x0A)   1 version   2 encoding   3 bitsPerPixel
 *   4 xMin  6 yMin  8 xMax  10 yMax (u16)   16 EGA palette (48)   65 planes   66 bytesPerLine (u16)
 */


const HEADER_SIZE = 128;
const PALETTE_SIZE = 768;
const PALETTE_MARKER = 0x0c;
/** A run of 63 copies costs two bytes: no valid RLE stream expands more than this. */
const MAX_RLE_EXPANSION = 32;
/** Previews stop at 64 megapixels: more is a damaged header, not a game texture. */
const MAX_PIXELS = 64 << 20;

function u16(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8);
}

export interface PcxHeader {
  width: number;
  height: number;
  planes: number;
  bitsPerPixel: number;
  bytesPerLine: number;
  encoding: number;
}

export function readPcxHeader(bytes: Uint8Array): PcxHeader {
  if (bytes.length < HEADER_SIZE) fail('truncated', `PCX header needs ${HEADER_SIZE} bytes, file has ${bytes.length}`);
  if (bytes[0] !== 0x0a) fail('bad-magic', `not a PCX file: first byte is 0x${bytes[0].toString(16).padStart(2, '0')}, expected 0x0a`);
  const encoding = bytes[2];
  const bitsPerPixel = bytes[3];
  const xMin = u16(bytes, 4), yMin = u16(bytes, 6), xMax = u16(bytes, 8), yMax = u16(bytes, 10);
  const planes = bytes[65];
  const bytesPerLine = u16(bytes, 66);
  if (xMax < xMin || yMax < yMin) fail('bad-count', `PCX window is inverted: x ${xMin}..${xMax}, y ${yMin}..${yMax}`);
  const width = xMax - xMin + 1;
  const height = yMax - yMin + 1;
  if (encoding !== 0 && encoding !== 1) fail('unsupported', `PCX encoding ${encoding} is not supported (0 or 1)`);
  if (bitsPerPixel !== 8 || (planes !== 1 && planes !== 3)) {
    fail('unsupported', `PCX with ${bitsPerPixel} bits per pixel and ${planes} planes is not supported (8-bit paletted or 24-bit only)`);
  }
  if (bytesPerLine < width) fail('bad-count', `PCX bytes per line ${bytesPerLine} < width ${width}`);
  if (width * height > MAX_PIXELS) fail('bad-count', `PCX of ${width} × ${height} pixels is larger than ${MAX_PIXELS} pixels`);
  return { width, height, planes, bitsPerPixel, bytesPerLine, encoding };
}

/**
 * Expand the scanline data into `planes × bytesPerLine` bytes per row. Runs may cross scanline ends (some
 * writers do that), so the whole image is decoded as one stream.
 */
function unpack(bytes: Uint8Array, start: number, end: number, size: number, encoding: number): Uint8Array {
  const available = end - start;
  if (encoding === 0) {
    if (available < size) fail('truncated', `PCX pixel data: ${size} bytes needed, ${available} present`);
    return bytes.subarray(start, start + size);
  }
  if (size > available * MAX_RLE_EXPANSION) {
    fail('bad-count', `PCX declares ${size} bytes of pixels, more than ${available} bytes of RLE data can hold`);
  }
  const out = new Uint8Array(size);
  let src = start;
  let dst = 0;
  while (dst < size) {
    if (src >= end) fail('truncated', `PCX RLE data ends at byte ${src} with ${size - dst} of ${size} pixel bytes missing`);
    const b = bytes[src++];
    // Top two bits set: a run of (b & 0x3f) copies of the next byte; anything else is a literal byte.
    if ((b & 0xc0) === 0xc0) {
      if (src >= end) fail('truncated', `PCX RLE run at byte ${src - 1} has no value byte`);
      const value = bytes[src++];
      const count = Math.min(b & 0x3f, size - dst);
      out.fill(value, dst, dst + count);
      dst += count;
    } else {
      out[dst++] = b;
    }
  }
  return out;
}

export function decodePcx(bytes: Uint8Array): RgbaImage {
  const header = readPcxHeader(bytes);
  const { width, height, planes, bytesPerLine } = header;
  const rowBytes = planes * bytesPerLine;
  const rgba = new Uint8Array(width * height * 4);
  if (planes === 1) {
    const paletteAt = bytes.length - PALETTE_SIZE;
    if (paletteAt - 1 < HEADER_SIZE || bytes[paletteAt - 1] !== PALETTE_MARKER) {
      fail('truncated', `8-bit PCX has no 256-colour palette (marker 0x0c expected at byte ${paletteAt - 1} of ${bytes.length})`);
    }
    const pixels = unpack(bytes, HEADER_SIZE, paletteAt - 1, rowBytes * height, header.encoding);
    const palette = bytes.subarray(paletteAt);
    let o = 0;
    for (let y = 0; y < height; y++) {
      const row = y * rowBytes;
      for (let x = 0; x < width; x++) {
        const p = pixels[row + x] * 3;
        rgba[o] = palette[p];
        rgba[o + 1] = palette[p + 1];
        rgba[o + 2] = palette[p + 2];
        rgba[o + 3] = 255;
        o += 4;
      }
    }
  } else {
    const pixels = unpack(bytes, HEADER_SIZE, bytes.length, rowBytes * height, header.encoding);
    let o = 0;
    for (let y = 0; y < height; y++) {
      // One scanline holds the red plane line, then green, then blue.
      const r = y * rowBytes;
      const g = r + bytesPerLine;
      const b = g + bytesPerLine;
      for (let x = 0; x < width; x++) {
        rgba[o] = pixels[r + x];
        rgba[o + 1] = pixels[g + x];
        rgba[o + 2] = pixels[b + x];
        rgba[o + 3] = 255;
        o += 4;
      }
    }
  }
  return { width, height, rgba };
}
