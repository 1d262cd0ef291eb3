import { fail } from '../errors.js';
import { checkImageSize, indexedToRgba, paletteFromRgb, type Palette, type RgbaImage } from './image.js';
import type { AssetDecoder } from './registry.js';

/**
 * ZSoft PCX → pixels, at every depth the format defines:
 *   1 bit × 1 plane (monochrome), 1 bit × 2–4 planes (EGA 4/8/16 colours, one bit of the index per plane),
 *   2 or 4 bits × 1 plane (CGA/EGA packed pixels), those three with the 16-colour palette in the header;
 *   8 bits × 1 plane (256 colours, the palette after a 0x0C marker at the end: Quake 2's pics),
 *   8 bits × 3 planes (24-bit RGB, one plane line each of R, G, B per scanline), × 4 planes (RGBA).
 * RLE (encoding 1) and raw (encoding 0) data; runs may cross scanline ends.
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
  return bytes[at]! | (bytes[at + 1]! << 8);
}

export interface PcxHeader {
  width: number;
  height: number;
  planes: number;
  bitsPerPixel: number;
  bytesPerLine: number;
  encoding: number;
}

/** The depths the format defines: bits per pixel → plane counts. */
const DEPTHS: Record<number, readonly number[]> = { 1: [1, 2, 3, 4], 2: [1], 4: [1], 8: [1, 3, 4] };

export function readPcxHeader(bytes: Uint8Array): PcxHeader {
  if (bytes.length < HEADER_SIZE) fail('truncated', `PCX header needs ${HEADER_SIZE} bytes, file has ${bytes.length}`);
  if (bytes[0] !== 0x0a) fail('bad-magic', `not a PCX file: first byte is 0x${bytes[0]!.toString(16).padStart(2, '0')}, expected 0x0a`);
  const encoding = bytes[2]!;
  const bitsPerPixel = bytes[3]!;
  const xMin = u16(bytes, 4),
    yMin = u16(bytes, 6),
    xMax = u16(bytes, 8),
    yMax = u16(bytes, 10);
  const planes = bytes[65]!;
  const bytesPerLine = u16(bytes, 66);
  if (xMax < xMin || yMax < yMin) fail('bad-count', `PCX window is inverted: x ${xMin}..${xMax}, y ${yMin}..${yMax}`);
  const width = xMax - xMin + 1;
  const height = yMax - yMin + 1;
  if (encoding !== 0 && encoding !== 1) fail('unsupported', `PCX encoding ${encoding} is not supported (0 or 1)`);
  if (!DEPTHS[bitsPerPixel]?.includes(planes)) {
    fail(
      'unsupported',
      `PCX with ${bitsPerPixel} bits per pixel and ${planes} planes is not supported (1 bit × 1–4 planes, 2 or 4 bits × 1, 8 bits × 1, 3 or 4)`,
    );
  }
  const minLine = Math.ceil((width * bitsPerPixel) / 8);
  if (bytesPerLine < minLine)
    fail(
      'bad-count',
      `PCX bytes per line ${bytesPerLine} < width ${bitsPerPixel === 8 ? width : `${width} pixels at ${bitsPerPixel} bits (${minLine} bytes)`}`,
    );
  if (width * height > MAX_PIXELS) fail('bad-count', `PCX of ${width} × ${height} pixels is larger than ${MAX_PIXELS} pixels`);
  return { width, height, planes, bitsPerPixel, bytesPerLine, encoding };
}

/** Expand the scanline data into `planes × bytesPerLine` bytes per row, as one stream. */
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
    const b = bytes[src++]!;
    // Top two bits set: a run of (b & 0x3f) copies of the next byte; anything else is a literal byte.
    if ((b & 0xc0) === 0xc0) {
      if (src >= end) fail('truncated', `PCX RLE run at byte ${src - 1} has no value byte`);
      const value = bytes[src++]!;
      const count = Math.min(b & 0x3f, size - dst);
      out.fill(value, dst, dst + count);
      dst += count;
    } else {
      out[dst++] = b;
    }
  }
  return out;
}

/** A paletted PCX: its indices and palette (1 to 8 bits per pixel). */
export interface IndexedPcx {
  width: number;
  height: number;
  indices: Uint8Array;
  /** 256 entries; for 16-colour and monochrome files the first 16 or 2 are used. */
  paletteRgb: Uint8Array;
}

export function isTruecolourPcx(header: PcxHeader): boolean {
  return header.bitsPerPixel === 8 && header.planes > 1;
}

/** The palette of an 8-bit PCX (the 768 bytes after the 0x0C marker at the end). */
function vgaPalette(bytes: Uint8Array): Uint8Array {
  const paletteAt = bytes.length - PALETTE_SIZE;
  if (paletteAt - 1 < HEADER_SIZE || bytes[paletteAt - 1] !== PALETTE_MARKER) {
    fail('truncated', `8-bit PCX has no 256-colour palette (marker 0x0c expected at byte ${paletteAt - 1} of ${bytes.length})`);
  }
  return bytes.subarray(paletteAt);
}

export function decodePcxIndexed(bytes: Uint8Array): IndexedPcx {
  const header = readPcxHeader(bytes);
  const { width, height, planes, bitsPerPixel, bytesPerLine } = header;
  if (isTruecolourPcx(header)) fail('unsupported', `PCX with ${planes} planes of 8 bits is truecolour, not paletted`);
  const rowBytes = planes * bytesPerLine;
  const paletteRgb = new Uint8Array(PALETTE_SIZE);
  // The pixel data is unpacked (its size checked against the file) before anything of the picture's size is allocated.
  if (bitsPerPixel === 8) {
    const palette = vgaPalette(bytes);
    paletteRgb.set(palette);
    const pixels = unpack(bytes, HEADER_SIZE, bytes.length - PALETTE_SIZE - 1, rowBytes * height, header.encoding);
    const indices = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) indices.set(pixels.subarray(y * rowBytes, y * rowBytes + width), y * width);
    return { width, height, indices, paletteRgb };
  }
  if (bitsPerPixel === 1 && planes === 1) paletteRgb.set([0, 0, 0, 255, 255, 255]);
  else paletteRgb.set(bytes.subarray(16, 64));
  // A trailing VGA palette, when a writer added one, is not pixel data; the stream simply stops early.
  const pixels = unpack(bytes, HEADER_SIZE, bytes.length, rowBytes * height, header.encoding);
  const indices = new Uint8Array(width * height);
  const mask = (1 << bitsPerPixel) - 1;
  for (let y = 0; y < height; y++) {
    const row = y * rowBytes;
    for (let x = 0; x < width; x++) {
      const bit = x * bitsPerPixel;
      let index = 0;
      for (let p = 0; p < planes; p++) {
        const byte = pixels[row + p * bytesPerLine + (bit >> 3)]!;
        const value = (byte >> (8 - bitsPerPixel - (bit & 7))) & mask;
        index |= value << (p * bitsPerPixel);
      }
      indices[y * width + x] = index;
    }
  }
  return { width, height, indices, paletteRgb };
}

/** An 8-bit PCX's palette, named. */
export function pcxPalette(name: string, bytes: Uint8Array): Palette {
  return paletteFromRgb(name, decodePcxIndexed(bytes).paletteRgb);
}

export function decodePcx(bytes: Uint8Array): RgbaImage {
  const header = readPcxHeader(bytes);
  const { width, height, planes, bytesPerLine } = header;
  checkImageSize('PCX', width, height);
  if (!isTruecolourPcx(header)) {
    const { indices, paletteRgb } = decodePcxIndexed(bytes);
    const rgba = new Uint8Array(width * height * 4);
    for (let i = 0; i < indices.length; i++) {
      const p = indices[i]! * 3;
      rgba[i * 4] = paletteRgb[p]!;
      rgba[i * 4 + 1] = paletteRgb[p + 1]!;
      rgba[i * 4 + 2] = paletteRgb[p + 2]!;
      rgba[i * 4 + 3] = 255;
    }
    return { width, height, rgba };
  }
  const rowBytes = planes * bytesPerLine;
  const pixels = unpack(bytes, HEADER_SIZE, bytes.length, rowBytes * height, header.encoding);
  const rgba = new Uint8Array(width * height * 4);
  let o = 0;
  for (let y = 0; y < height; y++) {
    // One scanline holds the red plane line, then green, then blue (then alpha).
    const r = y * rowBytes;
    for (let x = 0; x < width; x++) {
      rgba[o] = pixels[r + x]!;
      rgba[o + 1] = pixels[r + bytesPerLine + x]!;
      rgba[o + 2] = pixels[r + 2 * bytesPerLine + x]!;
      rgba[o + 3] = planes === 4 ? pixels[r + 3 * bytesPerLine + x]! : 255;
      o += 4;
    }
  }
  return { width, height, rgba };
}

/**
 * Quake 2 draws its pics (HUD, menus: `pics/*.pcx`) with index 255 transparent; elsewhere (TA's pictures,
 * model skins, colormap.pcx itself) every pixel is drawn.
 */
function transparentIndexFor(name: string): number {
  return /(^|\/)pics\/(?!colormap\.pcx$)[^/]+$/i.test(name) ? 255 : -1;
}

export const pcxDecoder: AssetDecoder = {
  id: 'pcx',
  accepts: (name, head) => /\.pcx$/i.test(name) && (head.length === 0 || head[0] === 0x0a),
  async view(name, bytes) {
    const header = readPcxHeader(bytes);
    const depth = `${header.bitsPerPixel} bit${header.bitsPerPixel === 1 ? '' : 's'} × ${header.planes} plane${header.planes === 1 ? '' : 's'}`;
    const facts = [
      { label: 'Size', value: `${header.width} × ${header.height}` },
      { label: 'Depth', value: depth },
    ];
    if (isTruecolourPcx(header))
      return { kind: 'images', format: 'PCX', groups: [{ name: 'picture', frames: [{ image: decodePcx(bytes) }] }], facts, warnings: [] };
    const pcx = decodePcxIndexed(bytes);
    const palette = paletteFromRgb(`${name}'s own palette`, pcx.paletteRgb);
    const image = indexedToRgba(pcx.width, pcx.height, pcx.indices, palette, header.bitsPerPixel === 8 ? transparentIndexFor(name) : -1);
    return {
      kind: 'images',
      format: 'PCX',
      groups: [{ name: 'picture', frames: [{ image }] }],
      palette: palette.name,
      facts,
      warnings: [],
    };
  },
};
