import { deflate, inflate } from 'pako';
import { fail } from '../errors.js';
import { ByteReader } from '../bytes/reader.js';
import { checkImageSize, type RgbaImage } from './image.js';

/**
 * PNG and APNG for the asset exports (`gaf export`, `image export`, the studio's "export frame") and for
 * reading PNGs back (WAD packing from PNGs, tests). Encoding always writes 8-bit RGBA, non-interlaced,
 * filter type 0 per row: exact pixels, no palette guessing. Decoding takes the 8-bit non-interlaced kinds
 * that image editors write (grey, grey+alpha, RGB, RGBA, palette with tRNS) and refuses the rest by name.
 * pako does the zlib part by default, so this runs in the browser too; the main process and the CLI hand
 * the encoders Node's native deflate instead (see `Deflate`).
 */

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

function u32be(...values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setUint32(i * 4, v));
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function header(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, filter method 0, no interlace
  return chunk('IHDR', ihdr);
}

/**
 * What makes the zlib stream of the rows (header and Adler-32 included): any deflater gives a valid PNG.
 * Node's native one is several times pako's speed, and on a large map render the PNG was most of the wait.
 */
export type Deflate = (bytes: Uint8Array) => Uint8Array;

const pakoDeflate: Deflate = (bytes) => deflate(bytes);

/** The zlib stream of an image's rows, each behind filter byte 0. */
function imageData(image: RgbaImage, compress: Deflate): Uint8Array {
  const stride = image.width * 4;
  const raw = new Uint8Array((stride + 1) * image.height);
  for (let y = 0; y < image.height; y++) raw.set(image.rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  return compress(raw);
}

function checkImage(image: RgbaImage): void {
  checkImageSize('PNG', image.width, image.height);
  if (image.width === 0 || image.height === 0) fail('bad-count', `PNG: a picture of ${image.width} × ${image.height} has no pixels`);
  if (image.rgba.length !== image.width * image.height * 4)
    fail(
      'size-mismatch',
      `PNG: ${image.width} × ${image.height} needs ${image.width * image.height * 4} bytes of RGBA, got ${image.rgba.length}`,
    );
}

export function encodePng(image: RgbaImage, compress: Deflate = pakoDeflate): Uint8Array {
  checkImage(image);
  return concat([
    SIGNATURE,
    header(image.width, image.height),
    chunk('IDAT', imageData(image, compress)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/**
 * An animated PNG: every frame the size of the first, shown for its delay (ms), looping. Viewers without
 * APNG show the first frame.
 */
export function encodeApng(frames: { image: RgbaImage; delayMs: number }[], compress: Deflate = pakoDeflate): Uint8Array {
  const first = frames[0];
  if (!first) fail('bad-count', 'APNG: no frames');
  const { width, height } = first.image;
  const parts = [SIGNATURE, header(width, height), chunk('acTL', u32be(frames.length, 0))];
  let sequence = 0;
  frames.forEach(({ image, delayMs }, index) => {
    checkImage(image);
    if (image.width !== width || image.height !== height)
      fail('size-mismatch', `APNG: frame ${index} is ${image.width} × ${image.height}, the first ${width} × ${height}`);
    const control = new Uint8Array(26);
    const view = new DataView(control.buffer);
    view.setUint32(0, sequence++);
    view.setUint32(4, width);
    view.setUint32(8, height);
    // x, y offsets 0; delay as a fraction of 1000; dispose none, blend source.
    view.setUint16(20, Math.max(0, Math.min(65535, Math.round(delayMs))));
    view.setUint16(22, 1000);
    parts.push(chunk('fcTL', control));
    const data = imageData(image, compress);
    if (index === 0) parts.push(chunk('IDAT', data));
    else parts.push(chunk('fdAT', concat([u32be(sequence++), data])));
  });
  parts.push(chunk('IEND', new Uint8Array(0)));
  return concat(parts);
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** A PNG's first frame as RGBA. */
export function decodePng(bytes: Uint8Array, what = 'PNG'): RgbaImage {
  const reader = new ByteReader(bytes, what);
  for (let i = 0; i < 8; i++) if (reader.u8(i, 'signature') !== SIGNATURE[i]) fail('bad-magic', `${what}: not a PNG file`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  let colourType = -1;
  let palette: Uint8Array | null = null;
  let alpha: Uint8Array | null = null;
  const data: Uint8Array[] = [];
  while (at + 8 <= bytes.length) {
    reader.check('chunk header', at, 8);
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const body = reader.slice(at + 8, length, `${type} chunk`);
    if (type === 'IHDR') {
      reader.check('IHDR', at + 8, 13);
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      const depth = body[8]!;
      colourType = body[9]!;
      if (depth !== 8 || !(colourType in CHANNELS))
        fail('unsupported', `${what}: only 8-bit PNGs are read (this one: ${depth}-bit, colour type ${colourType})`);
      if (body[12] !== 0) fail('unsupported', `${what}: interlaced PNGs are not read; save it without interlacing`);
      checkImageSize(what, width, height);
    } else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') alpha = body;
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (colourType < 0 || data.length === 0) fail('truncated', `${what}: no IHDR or IDAT chunk`);
  const channels = CHANNELS[colourType]!;
  const stride = width * channels;
  let raw: Uint8Array;
  try {
    raw = inflate(concat(data));
  } catch {
    return fail('bad-stream', `${what}: the image data is not a valid zlib stream`);
  }
  if (raw.length < (stride + 1) * height)
    fail('truncated', `${what}: ${raw.length} bytes of image data, ${width} × ${height} needs ${(stride + 1) * height}`);
  const pixels = unfilter(raw, stride, height, channels, what);
  return { width, height, rgba: toRgba(pixels, width * height, colourType, palette, alpha) };
}

function unfilter(raw: Uint8Array, stride: number, height: number, bpp: number, what: string): Uint8Array {
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[row + x - bpp]! : 0;
      const b = y > 0 ? out[row - stride + x]! : 0;
      const c = x >= bpp && y > 0 ? out[row - stride + x - bpp]! : 0;
      const value = raw[src + x]!;
      let predicted: number;
      if (filter === 0) predicted = 0;
      else if (filter === 1) predicted = a;
      else if (filter === 2) predicted = b;
      else if (filter === 3) predicted = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else return fail('bad-stream', `${what}: row ${y} has filter type ${filter} (0–4 exist)`);
      out[row + x] = (value + predicted) & 0xff;
    }
  }
  return out;
}

function toRgba(pixels: Uint8Array, count: number, colourType: number, palette: Uint8Array | null, alpha: Uint8Array | null): Uint8Array {
  const rgba = new Uint8Array(count * 4);
  for (let i = 0; i < count; i++) {
    let r: number, g: number, b: number, a: number;
    if (colourType === 6) [r, g, b, a] = [pixels[i * 4]!, pixels[i * 4 + 1]!, pixels[i * 4 + 2]!, pixels[i * 4 + 3]!];
    else if (colourType === 2) [r, g, b, a] = [pixels[i * 3]!, pixels[i * 3 + 1]!, pixels[i * 3 + 2]!, 255];
    else if (colourType === 4) [r, g, b, a] = [pixels[i * 2]!, pixels[i * 2]!, pixels[i * 2]!, pixels[i * 2 + 1]!];
    else if (colourType === 0) [r, g, b, a] = [pixels[i]!, pixels[i]!, pixels[i]!, 255];
    else {
      const index = pixels[i]!;
      r = palette?.[index * 3] ?? 0;
      g = palette?.[index * 3 + 1] ?? 0;
      b = palette?.[index * 3 + 2] ?? 0;
      a = alpha?.[index] ?? 255;
    }
    rgba.set([r, g, b, a], i * 4);
  }
  return rgba;
}
