/**
 * GAF files written from code, from the published format description (ta-gaf-fmt.txt): a 12-byte header,
 * entry pointers, 40-byte entries (frame count, 32-byte name) with 8-byte frame entries (record offset,
 * duration), 24-byte frame records, raw or row-RLE pixels, sub-frame pointer lists. For the demo install's
 * sprites and for test fixtures the real samples lack (layered sub-frames, version 0, odd RLE rows).
 */
export interface FixtureLayer {
  width: number;
  height: number;
  xOffset: number;
  yOffset: number;
  transparency?: number;
  /** width × height palette indices. */
  pixels: Uint8Array;
  rle?: boolean;
}

export interface FixtureFrame extends FixtureLayer {
  duration?: number;
  subFrames?: FixtureLayer[];
}

export interface FixtureSequence {
  name: string;
  frames: FixtureFrame[];
}

/** Row RLE as Cavedog's encoder does it: skips for transparent runs, repeats for runs of 3+, literals. */
export function encodeRleRows(layer: FixtureLayer): Uint8Array {
  const t = layer.transparency ?? 9;
  const out: number[] = [];
  for (let y = 0; y < layer.height; y++) {
    const row = Array.from(layer.pixels.subarray(y * layer.width, (y + 1) * layer.width));
    const codes: number[] = [];
    let x = 0;
    while (x < row.length) {
      let run = 1;
      while (x + run < row.length && row[x + run] === row[x] && run < (row[x] === t ? 127 : 64)) run++;
      if (row[x] === t) {
        codes.push((run << 1) | 1);
      } else if (run >= 3) {
        codes.push(((run - 1) << 2) | 2, row[x]!);
      } else {
        let n = 0;
        while (
          x + n < row.length &&
          n < 64 &&
          row[x + n] !== t &&
          !(x + n + 2 < row.length && row[x + n] === row[x + n + 1] && row[x + n] === row[x + n + 2])
        )
          n++;
        n = Math.max(n, 1);
        codes.push((n - 1) << 2, ...row.slice(x, x + n));
        run = n;
      }
      x += run;
    }
    out.push(codes.length & 0xff, codes.length >> 8, ...codes);
  }
  return Uint8Array.from(out);
}

export function buildGaf(sequences: FixtureSequence[], version = 0x00010100): Uint8Array {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reserve = (n: number): { at: number; view: DataView; bytes: Uint8Array } => {
    const bytes = new Uint8Array(n);
    chunks.push(bytes);
    const at = size;
    size += n;
    return { at, view: new DataView(bytes.buffer), bytes };
  };
  const header = reserve(12 + 4 * sequences.length);
  header.view.setUint32(0, version, true);
  header.view.setUint32(4, sequences.length, true);

  const writeRecord = (layer: FixtureLayer, subCount: number) => {
    const rec = reserve(24);
    rec.view.setUint16(0, layer.width, true);
    rec.view.setUint16(2, layer.height, true);
    rec.view.setInt16(4, layer.xOffset, true);
    rec.view.setInt16(6, layer.yOffset, true);
    rec.view.setUint8(8, layer.transparency ?? 9);
    rec.view.setUint8(9, layer.rle ? 1 : 0);
    rec.view.setUint16(10, subCount, true);
    return rec;
  };
  const writePixels = (rec: { view: DataView }, layer: FixtureLayer) => {
    const data = layer.rle ? encodeRleRows(layer) : layer.pixels;
    const block = reserve(data.length);
    block.bytes.set(data);
    rec.view.setUint32(16, block.at, true);
  };

  sequences.forEach((sequence, e) => {
    const entry = reserve(40 + 8 * sequence.frames.length);
    header.view.setUint32(12 + e * 4, entry.at, true);
    entry.view.setUint16(0, sequence.frames.length, true);
    entry.view.setUint16(2, 1, true);
    entry.bytes.set(new TextEncoder().encode(sequence.name).subarray(0, 31), 8);
    sequence.frames.forEach((frame, f) => {
      const subs = frame.subFrames ?? [];
      const rec = writeRecord(frame, subs.length);
      entry.view.setUint32(40 + f * 8, rec.at, true);
      entry.view.setUint32(44 + f * 8, frame.duration ?? 0, true);
      if (subs.length === 0) {
        writePixels(rec, frame);
      } else {
        const pointers = reserve(4 * subs.length);
        rec.view.setUint32(16, pointers.at, true);
        subs.forEach((sub, s) => {
          const subRec = writeRecord(sub, 0);
          pointers.view.setUint32(s * 4, subRec.at, true);
          writePixels(subRec, sub);
        });
      }
    });
  });
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * The demo install's animated sprite: `frames` frames of a ring growing from the centre, row-RLE with
 * transparent corners, 2 ticks each, and a last frame of two layered sub-frames. `hue` picks the colours
 * (palette rows of the standard TA palette), so two copies in two archives look different.
 */
export function demoSpriteGaf(name: string, hue: number, frames = 6): Uint8Array {
  const size = 32;
  const ring = (radius: number) =>
    Uint8Array.from({ length: size * size }, (_, i) => {
      const d = Math.hypot((i % size) - size / 2 + 0.5, Math.floor(i / size) - size / 2 + 0.5);
      return Math.abs(d - radius) < 2.5 ? hue + Math.floor(Math.abs(d - radius) * 2) : d < radius ? hue + 10 : 9;
    });
  const list: FixtureFrame[] = Array.from({ length: frames }, (_, f) => ({
    width: size,
    height: size,
    xOffset: 16,
    yOffset: 16,
    rle: true,
    duration: 2,
    pixels: ring(3 + f * 2),
  }));
  const square = (w: number, colour: number) =>
    Uint8Array.from({ length: w * w }, (_, i) => (((i % w) + Math.floor(i / w)) % 5 === 0 ? 9 : colour));
  list.push({
    width: size,
    height: size,
    xOffset: 16,
    yOffset: 16,
    duration: 4,
    pixels: new Uint8Array(0),
    subFrames: [
      { width: 20, height: 20, xOffset: 12, yOffset: 12, pixels: square(20, hue + 2) },
      { width: 12, height: 12, xOffset: 0, yOffset: 0, rle: true, pixels: square(12, hue + 12) },
    ],
  });
  return buildGaf([
    { name, frames: list },
    { name: `${name}_still`, frames: [list[2]!] },
  ]);
}
