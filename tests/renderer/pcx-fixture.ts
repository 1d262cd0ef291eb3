/**
 * PCX files built in code for the decoder and preview tests: a straightforward RLE encoder (runs of up to
 * 63, and a literal byte ≥ 0xC0 escaped as a run of one), written from the format's description.
 */

function rleEncode(data: Uint8Array): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < data.length) {
    const value = data[i]!;
    let run = 1;
    while (run < 63 && i + run < data.length && data[i + run] === value) run++;
    if (run > 1 || value >= 0xc0) out.push(0xc0 | run, value);
    else out.push(value);
    i += run;
  }
  return out;
}

function header(width: number, height: number, planes: number, bytesPerLine: number, encoding = 1): Uint8Array {
  const h = new Uint8Array(128);
  h[0] = 0x0a;
  h[1] = 5;
  h[2] = encoding;
  h[3] = 8;
  const put16 = (at: number, v: number) => {
    h[at] = v & 0xff;
    h[at + 1] = v >> 8;
  };
  put16(8, width - 1);
  put16(10, height - 1);
  put16(12, 72);
  put16(14, 72);
  h[65] = planes;
  put16(66, bytesPerLine);
  put16(68, 1);
  return h;
}

/** An 8-bit paletted PCX: `pixels` are palette indices, row-major; palette is 256 × RGB. */
export function encodePcx8(
  width: number,
  height: number,
  pixels: Uint8Array,
  palette: Uint8Array,
  options: { encoding?: 0 | 1 } = {},
): Uint8Array {
  const bytesPerLine = width + (width & 1); // PCX pads lines to an even length
  const raw = new Uint8Array(bytesPerLine * height);
  for (let y = 0; y < height; y++) raw.set(pixels.subarray(y * width, (y + 1) * width), y * bytesPerLine);
  const encoding = options.encoding ?? 1;
  const body = encoding === 1 ? rleEncode(raw) : Array.from(raw);
  const out = new Uint8Array(128 + body.length + 1 + 768);
  out.set(header(width, height, 1, bytesPerLine, encoding), 0);
  out.set(body, 128);
  out[128 + body.length] = 0x0c;
  out.set(palette, 128 + body.length + 1);
  return out;
}

/** A 24-bit PCX (three planes): `rgb` is row-major RGB triples. */
export function encodePcx24(width: number, height: number, rgb: Uint8Array): Uint8Array {
  const bytesPerLine = width + (width & 1);
  const raw = new Uint8Array(bytesPerLine * 3 * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) raw[y * bytesPerLine * 3 + c * bytesPerLine + x] = rgb[(y * width + x) * 3 + c]!;
    }
  }
  const body = rleEncode(raw);
  const out = new Uint8Array(128 + body.length);
  out.set(header(width, height, 3, bytesPerLine), 0);
  out.set(body, 128);
  return out;
}

/** A grey ramp palette with index 1 pure red and 2 pure green, so colours are easy to assert. */
export function testPalette(): Uint8Array {
  const p = new Uint8Array(768);
  for (let i = 0; i < 256; i++) p.set([i, i, i], i * 3);
  p.set([255, 0, 0], 3);
  p.set([0, 255, 0], 6);
  return p;
}

/** A minimal PCM WAV: 16-bit mono silence of `samples` samples at `rate` Hz. */
export function encodeWav(samples: number, rate = 22050, channels = 1, bits = 16): Uint8Array {
  const dataBytes = samples * channels * (bits / 8);
  const out = new Uint8Array(44 + dataBytes);
  const v = new DataView(out.buffer);
  const ascii = (at: number, s: string) => [...s].forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, channels, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, (rate * channels * bits) / 8, true);
  v.setUint16(32, (channels * bits) / 8, true);
  v.setUint16(34, bits, true);
  ascii(36, 'data');
  v.setUint32(40, dataBytes, true);
  return out;
}
