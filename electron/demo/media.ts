/**
 * Tiny, valid media files for generated installs, so previews have something real to show: an 8-bit
 * PCX (RLE, 256-colour palette at the end, as TA's bitmaps are) and an 8-bit mono PCM WAV.
 */

/** A `width`×`height` 8-bit PCX whose pixel (x, y) is `pixel(x, y)`, with the given 256-entry RGB palette. */
export function makePcx(width: number, height: number, pixel: (x: number, y: number) => number, palette: Uint8Array): Uint8Array {
  if (palette.length !== 768) throw new Error('a PCX palette has 256 RGB entries (768 bytes)');
  const bytesPerLine = width + (width & 1); // each scan line has an even byte count
  const body: number[] = [];
  for (let y = 0; y < height; y++) {
    const line = new Uint8Array(bytesPerLine);
    for (let x = 0; x < width; x++) line[x] = pixel(x, y);
    // RLE per line: a byte with both top bits set is a count (max 63) for the next byte.
    for (let x = 0; x < bytesPerLine;) {
      let run = 1;
      while (x + run < bytesPerLine && run < 63 && line[x + run] === line[x]) run++;
      if (run > 1 || line[x]! >= 0xc0) body.push(0xc0 | run, line[x]!);
      else body.push(line[x]!);
      x += run;
    }
  }
  const out = new Uint8Array(128 + body.length + 1 + 768);
  const view = new DataView(out.buffer);
  out[0] = 0x0a; // manufacturer: ZSoft
  out[1] = 5; // version 3.0+, 256-colour palette at the end
  out[2] = 1; // RLE
  out[3] = 8; // bits per pixel per plane
  view.setUint16(8, width - 1, true); // xMax
  view.setUint16(10, height - 1, true); // yMax
  view.setUint16(12, 72, true); // horizontal dpi
  view.setUint16(14, 72, true); // vertical dpi
  out[65] = 1; // colour planes
  view.setUint16(66, bytesPerLine, true);
  view.setUint16(68, 1, true); // palette info: colour
  out.set(body, 128);
  out[128 + body.length] = 0x0c; // palette marker
  out.set(palette, 128 + body.length + 1);
  return out;
}

/** An 8-bit unsigned mono PCM WAV of `samples`. */
export function makeWav(samples: Uint8Array, rate = 11025): Uint8Array {
  const out = new Uint8Array(44 + samples.length);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) => [...text].forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples.length, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, rate, true);
  view.setUint32(28, rate, true); // byte rate
  view.setUint16(32, 1, true); // block align
  view.setUint16(34, 8, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, samples.length, true);
  out.set(samples, 44);
  return out;
}

/** A short sine tone as 8-bit unsigned samples. */
export function tone(hz: number, seconds: number, rate = 11025): Uint8Array {
  const n = Math.round(seconds * rate);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.round(128 + 100 * Math.sin((2 * Math.PI * hz * i) / rate));
  return out;
}

/** A smooth 256-colour palette (a ramp through blue, green and red). */
export function rampPalette(): Uint8Array {
  const p = new Uint8Array(768);
  for (let i = 0; i < 256; i++) {
    p[i * 3] = i;
    p[i * 3 + 1] = (i * 3) & 0xff;
    p[i * 3 + 2] = 255 - i;
  }
  return p;
}
