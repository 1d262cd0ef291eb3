import { ByteReader } from '../../bytes/reader.js';
import { inflateAtMost } from '../../bytes/inflate.js';
import { fail } from '../../errors.js';
import { checkImageSize, indexedToRgba, type Palette, type RgbaImage } from '../image.js';
import { GAF_RAW, MAX_GAF_PIXELS, type GafFrame, type GafLayer, type GafVariant } from './gaf.js';

/**
 * A GAF frame as pixels: raw or row-RLE palette indices, layered sub-frames composited onto the frame's
 * canvas, or TA3D's zlib-compressed truecolour. Transparent pixels come out with alpha 0.
 * Pure: no Node, no DOM.
 */

/**
 * A layer's palette indices, width × height, transparent pixels set to its transparency index.
 * Row RLE (per row: a u16 byte count, then codes): a code with bit 0 set skips code >> 1 transparent
 * pixels; with bit 1 set repeats the next byte (code >> 2) + 1 times; otherwise copies the next
 * (code >> 2) + 1 bytes. Pixels past the row's width are dropped; a row that ends early stays transparent.
 */
export function decodeLayerIndices(bytes: Uint8Array, layer: GafLayer, what: string): Uint8Array {
  const { width, height } = layer;
  checkImageSize(what, width, height);
  const r = new ByteReader(bytes, what);
  if (layer.encoding === GAF_RAW) return r.slice(layer.dataOffset, width * height, 'raw pixels').slice();
  // Every row costs at least its two-byte count: check them all before allocating the picture.
  r.check('RLE rows', layer.dataOffset, height * 2);
  const out = new Uint8Array(width * height).fill(layer.transparencyIndex);
  let p = layer.dataOffset;
  for (let y = 0; y < height; y++) {
    const rowBytes = r.u16(p, `row ${y} length`);
    const start = p + 2;
    const end = start + rowBytes;
    r.check(`row ${y}`, start, rowBytes);
    const row = y * width;
    let x = 0;
    let q = start;
    while (q < end) {
      const code = bytes[q++]!;
      if (code & 1) {
        x += code >> 1;
      } else if (code & 2) {
        const n = (code >> 2) + 1;
        if (q >= end) fail('truncated', `${what}: row ${y} repeat code at ${q - 1} has no value byte`, { offset: q - 1 });
        const value = bytes[q++]!;
        const stop = Math.min(width, x + n);
        if (x < stop) out.fill(value, row + x, row + stop);
        x += n;
      } else {
        const n = (code >> 2) + 1;
        if (q + n > end) fail('truncated', `${what}: row ${y} copies ${n} bytes at ${q}, past the row's end ${end}`, { offset: q });
        const take = Math.max(0, Math.min(n, width - x));
        if (take > 0) out.set(bytes.subarray(q, q + take), row + x);
        q += n;
        x += n;
      }
    }
    p = end;
  }
  return out;
}

/** Sub-frames drawn in order onto a transparent canvas the frame's size; each skips its own transparency index. */
function composite(bytes: Uint8Array, frame: GafFrame, palette: Palette, what: string): RgbaImage {
  checkImageSize(what, frame.width, frame.height);
  const rgba = new Uint8Array(frame.width * frame.height * 4);
  const canvas = new Uint32Array(rgba.buffer);
  const colours = new Uint32Array(palette.rgba.slice(0, 1024).buffer);
  frame.subFrames.forEach((sub, s) => {
    const indices = decodeLayerIndices(bytes, sub, `${what} sub-frame ${s}`);
    // The sub-frame's top-left on the frame's canvas.
    const left = frame.xOffset - sub.xOffset;
    const top = frame.yOffset - sub.yOffset;
    const x0 = Math.max(0, -left);
    const x1 = Math.min(sub.width, frame.width - left);
    for (let y = Math.max(0, -top); y < sub.height && top + y < frame.height; y++) {
      const from = y * sub.width;
      const to = (top + y) * frame.width + left;
      for (let x = x0; x < x1; x++) {
        const index = indices[from + x]!;
        if (index !== sub.transparencyIndex) canvas[to + x] = colours[index]!;
      }
    }
  });
  return { width: frame.width, height: frame.height, rgba };
}

/**
 * TA3D's truecolour frame: a u32 byte count, then a zlib stream of R, G, B, A rows (the record's
 * transparency byte says whether there is alpha; without it, R, G, B rows, each padded to 4 bytes as TA3D's
 * image rows are, or unpadded).
 */
function truecolour(bytes: Uint8Array, frame: GafFrame, what: string): RgbaImage {
  const { width, height } = frame;
  checkImageSize(what, width, height);
  const r = new ByteReader(bytes, what);
  const size = r.u32(frame.dataOffset, 'zlib size');
  const stream = r.slice(frame.dataOffset + 4, size, 'zlib stream');
  const pixels = width * height;
  const data = inflateAtMost(what, stream, pixels * 4);
  if (data.length === pixels * 4) return { width, height, rgba: data.length === data.buffer.byteLength ? data : data.slice() };
  const padded = (width * 3 + 3) & ~3;
  const stride = data.length === padded * height ? padded : data.length === width * 3 * height ? width * 3 : -1;
  if (stride < 0)
    fail(
      'size-mismatch',
      `${what}: truecolour data inflates to ${data.length} bytes; ${width} × ${height} needs ${pixels * 4} (RGBA) or ${width * 3 * height} (RGB)`,
      { expected: pixels * 4, actual: data.length },
    );
  const rgba = new Uint8Array(pixels * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * stride + x * 3;
      const o = (y * width + x) * 4;
      rgba[o] = data[i]!;
      rgba[o + 1] = data[i + 1]!;
      rgba[o + 2] = data[i + 2]!;
      rgba[o + 3] = 255;
    }
  }
  return { width, height, rgba };
}

/** A frame as RGBA: the palette is needed for TA's paletted frames and ignored for truecolour ones. */
export function renderGafFrame(bytes: Uint8Array, variant: GafVariant, frame: GafFrame, palette: Palette, what = 'GAF frame'): RgbaImage {
  if (variant === 'ta3d-truecolour') return truecolour(bytes, frame, what);
  if (frame.subFrames.length > 0) return composite(bytes, frame, palette, what);
  return indexedToRgba(frame.width, frame.height, decodeLayerIndices(bytes, frame, what), palette, frame.transparencyIndex);
}

/**
 * A sequence's frames on one canvas, each placed by its offset (the point TA draws the frame at), so an
 * animation does not jitter and every frame has the same size (as an APNG needs).
 */
export function alignFrames(frames: { frame: GafLayer; image: RgbaImage }[]): RgbaImage[] {
  const left = Math.max(0, ...frames.map((f) => f.frame.xOffset));
  const top = Math.max(0, ...frames.map((f) => f.frame.yOffset));
  const width = Math.max(1, ...frames.map((f) => left - f.frame.xOffset + f.image.width));
  const height = Math.max(1, ...frames.map((f) => top - f.frame.yOffset + f.image.height));
  if (width * height > MAX_GAF_PIXELS)
    fail('bad-count', `frames aligned by their offsets span ${width} × ${height} pixels (at most ${MAX_GAF_PIXELS})`);
  return frames.map(({ frame, image }) => {
    const rgba = new Uint8Array(width * height * 4);
    const x = left - frame.xOffset;
    const y = top - frame.yOffset;
    for (let row = 0; row < image.height; row++)
      rgba.set(image.rgba.subarray(row * image.width * 4, (row + 1) * image.width * 4), ((y + row) * width + x) * 4);
    return { width, height, rgba };
  });
}
