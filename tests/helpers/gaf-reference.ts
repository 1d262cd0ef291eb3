import type { Palette } from '../../shared/assets/image.js';

/**
 * The test's own reading of a GAF, straight from the format description: every number from the file's
 * bytes at the documented offsets, pixels decoded and composited by a second, independent implementation.
 */
export function headerFacts(bytes: Uint8Array) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = [];
  for (let e = 0; e < dv.getUint32(4, true); e++) {
    const at = dv.getUint32(12 + 4 * e, true);
    const nameBytes = bytes.subarray(at + 8, at + 40);
    const name = String.fromCharCode(...nameBytes.subarray(0, nameBytes.indexOf(0) < 0 ? 32 : nameBytes.indexOf(0)));
    const frames = [];
    for (let f = 0; f < dv.getUint16(at, true); f++) {
      const rec = dv.getUint32(at + 40 + 8 * f, true);
      frames.push({
        rec,
        duration: dv.getUint32(at + 44 + 8 * f, true),
        width: dv.getUint16(rec, true),
        height: dv.getUint16(rec + 2, true),
        xOffset: dv.getInt16(rec + 4, true),
        yOffset: dv.getInt16(rec + 6, true),
        subs: dv.getUint16(rec + 10, true),
      });
    }
    entries.push({ name, frames });
  }
  return { version: dv.getUint32(0, true), entries };
}

/** Palette indices of one 24-byte record's pixels; -1 where the record's transparency index is. */
export function referenceIndices(bytes: Uint8Array, rec: number): { w: number; h: number; px: Int16Array } {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const w = dv.getUint16(rec, true);
  const h = dv.getUint16(rec + 2, true);
  const transparent = bytes[rec + 8]!;
  const compressed = bytes[rec + 9] === 1;
  let p = dv.getUint32(rec + 16, true);
  const px = new Int16Array(w * h).fill(-1);
  for (let y = 0; y < h; y++) {
    if (!compressed) {
      for (let x = 0; x < w; x++) px[y * w + x] = bytes[p + y * w + x]!;
      continue;
    }
    const end = p + 2 + dv.getUint16(p, true);
    let q = p + 2;
    let x = 0;
    const put = (v: number) => {
      if (x < w) px[y * w + x] = v;
      x++;
    };
    while (q < end) {
      const mask = bytes[q++]!;
      if ((mask & 0x01) === 0x01) x += mask >> 1;
      else if ((mask & 0x02) === 0x02) {
        const v = bytes[q++]!;
        for (let n = 0; n <= mask >> 2; n++) put(v);
      } else for (let n = 0; n <= mask >> 2; n++) put(bytes[q++]!);
    }
    p = end;
  }
  for (let i = 0; i < px.length; i++) if (px[i] === transparent) px[i] = -1;
  return { w, h, px };
}

export function referenceFrame(bytes: Uint8Array, rec: number, pal: Palette): Uint8Array {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const w = dv.getUint16(rec, true);
  const h = dv.getUint16(rec + 2, true);
  const out = new Uint8Array(w * h * 4);
  const subs = dv.getUint16(rec + 10, true);
  const paint = (x: number, y: number, index: number) => {
    if (index < 0 || x < 0 || y < 0 || x >= w || y >= h) return;
    out.set(pal.rgba.subarray(index * 4, index * 4 + 4), (y * w + x) * 4);
  };
  if (subs === 0) {
    const { px } = referenceIndices(bytes, rec);
    for (let i = 0; i < px.length; i++) paint(i % w, Math.floor(i / w), px[i]!);
    return out;
  }
  for (let s = 0; s < subs; s++) {
    const sub = dv.getUint32(dv.getUint32(rec + 16, true) + 4 * s, true);
    const left = dv.getInt16(rec + 4, true) - dv.getInt16(sub + 4, true);
    const top = dv.getInt16(rec + 6, true) - dv.getInt16(sub + 6, true);
    const { w: sw, px } = referenceIndices(bytes, sub);
    for (let i = 0; i < px.length; i++) paint(left + (i % sw), top + Math.floor(i / sw), px[i]!);
  }
  return out;
}
