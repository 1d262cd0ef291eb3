/**
 * Quake-family files built in the tests from the format descriptions, for the formats the samples lack
 * (Quake 2 and Daikatana BSPs, sprites, Daikatana WALs, conchars, PCX at other depths).
 */

class Writer {
  private readonly parts: number[] = [];
  get length() {
    return this.parts.length;
  }
  u8(...values: number[]) {
    this.parts.push(...values.map((v) => v & 0xff));
    return this;
  }
  i32(...values: number[]) {
    for (const v of values) this.u8(v, v >> 8, v >> 16, v >> 24);
    return this;
  }
  f32(v: number) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    return this.u8(...b);
  }
  u16(v: number) {
    return this.u8(v, v >> 8);
  }
  str(s: string, size: number) {
    for (let i = 0; i < size; i++) this.u8(i < s.length ? s.charCodeAt(i) : 0);
    return this;
  }
  bytes(b: ArrayLike<number>) {
    for (let i = 0; i < b.length; i++) this.u8(b[i]!);
    return this;
  }
  done() {
    return new Uint8Array(this.parts);
  }
}

export const pixels = (count: number, seed: number) => Uint8Array.from({ length: count }, (_, i) => (i * 7 + seed * 13) % 256);

/** An IBSP: magic, version, `lumps` (offset, length) pairs; lump 0 the entities, lump 5 texinfo of `textures`. */
export function ibsp(version: 38 | 41, entities: string, textures: string[]): Uint8Array {
  const lumpCount = version === 38 ? 19 : 21;
  const sizes: Record<number, number> = { 1: 20, 2: 12, 4: 28, 6: 20, 8: version === 38 ? 28 : 32, 11: 4, 13: 48 };
  const header = 8 + lumpCount * 8;
  const bodies: Uint8Array[] = [];
  for (let i = 0; i < lumpCount; i++) {
    if (i === 0) bodies.push(new Uint8Array([...entities].map((c) => c.charCodeAt(0)).concat([0])));
    else if (i === 5) {
      const w = new Writer();
      for (const t of textures) w.bytes(new Uint8Array(32)).i32(0, 0).str(t, 32).i32(-1);
      bodies.push(w.done());
    } else bodies.push(new Uint8Array((sizes[i] ?? 0) * (i + 1)));
  }
  const w = new Writer().u8(0x49, 0x42, 0x53, 0x50).i32(version);
  let at = header;
  for (const body of bodies) {
    w.i32(at, body.length);
    at += body.length;
  }
  for (const body of bodies) w.bytes(body);
  return w.done();
}

export interface CraftFrame {
  width: number;
  height: number;
  indices: Uint8Array;
}

/** A Quake sprite (IDSP version 1): `entries` are single frames or groups with cumulative intervals. */
export function quakeSprite(entries: (CraftFrame | { group: CraftFrame[]; intervals: number[] })[]): Uint8Array {
  const all = entries.flatMap((e) => ('group' in e ? e.group : [e]));
  const w = new Writer()
    .u8(0x49, 0x44, 0x53, 0x50)
    .i32(1, 2)
    .f32(10)
    .i32(Math.max(...all.map((f) => f.width)), Math.max(...all.map((f) => f.height)), entries.length)
    .f32(0)
    .i32(0);
  const frame = (f: CraftFrame) => w.i32(-(f.width >> 1), f.height >> 1, f.width, f.height).bytes(f.indices);
  for (const e of entries) {
    if ('group' in e) {
      w.i32(1, e.group.length);
      for (const t of e.intervals) w.f32(t);
      e.group.forEach(frame);
    } else {
      w.i32(0);
      frame(e);
    }
  }
  return w.done();
}

/** A Daikatana WAL (version 3): 9 mip offsets, its own palette, `levels` levels of pixels. */
export function daikatanaWal(
  name: string,
  width: number,
  height: number,
  paletteRgb: Uint8Array,
  fields: { anim: string; flags: number; contents: number; value: number },
) {
  const levels = Math.min(9, Math.floor(Math.log2(Math.min(width, height))) + 1);
  const headerSize = 1 + 32 + 3 + 8 + 36 + 32 + 8 + 768 + 4;
  const mips = Array.from({ length: levels }, (_, k) => pixels((width >> k) * (height >> k), k + 1));
  const w = new Writer().u8(3).str(name, 32).u8(0xaa, 0xbb, 0xcc).i32(width, height);
  let at = headerSize;
  for (let k = 0; k < 9; k++) {
    w.i32(k < levels ? at : 0);
    if (k < levels) at += mips[k]!.length;
  }
  w.str(fields.anim, 32).i32(fields.flags, fields.contents).bytes(paletteRgb).i32(fields.value);
  for (const m of mips) w.bytes(m);
  return { bytes: w.done(), mips, levels };
}

/** A WAD2 (or WAD3) of the given lumps (name, type, bytes), directory at the end. */
export function wad2(lumps: { name: string; type: number; bytes: Uint8Array }[], version = 2): Uint8Array {
  const w = new Writer().u8(0x57, 0x41, 0x44, 0x30 + version).i32(lumps.length, 12 + lumps.reduce((n, l) => n + l.bytes.length, 0));
  const offsets: number[] = [];
  for (const l of lumps) {
    offsets.push(w.length);
    w.bytes(l.bytes);
  }
  lumps.forEach((l, i) => w.i32(offsets[i]!, l.bytes.length, l.bytes.length).u8(l.type, 0, 0, 0).str(l.name, 16));
  return w.done();
}

/**
 * A raw (encoding 0) PCX with `bitsPerPixel` × `planes`, from per-pixel indices (or RGB(A) values for
 * 8-bit multi-plane files), with a 16-colour header palette.
 */
export function rawPcx(
  width: number,
  height: number,
  bitsPerPixel: number,
  planes: number,
  values: (x: number, y: number, plane: number) => number,
  egaPalette: Uint8Array,
): Uint8Array {
  const bytesPerLine = Math.ceil((width * bitsPerPixel) / 16) * 2;
  const header = new Uint8Array(128);
  const dv = new DataView(header.buffer);
  header[0] = 0x0a;
  header[1] = 5;
  header[2] = 0;
  header[3] = bitsPerPixel;
  dv.setUint16(8, width - 1, true);
  dv.setUint16(10, height - 1, true);
  header.set(egaPalette.subarray(0, 48), 16);
  header[65] = planes;
  dv.setUint16(66, bytesPerLine, true);
  const data = new Uint8Array(bytesPerLine * planes * height);
  for (let y = 0; y < height; y++) {
    for (let p = 0; p < planes; p++) {
      const line = (y * planes + p) * bytesPerLine;
      for (let x = 0; x < width; x++) {
        const v = values(x, y, p);
        if (bitsPerPixel === 8) data[line + x] = v;
        else {
          const bit = x * bitsPerPixel;
          data[line + (bit >> 3)]! |= v << (8 - bitsPerPixel - (bit & 7));
        }
      }
    }
  }
  return new Uint8Array([...header, ...data]);
}

/** Half-Life's WAD3 qpic: width, height, pixels, u16 256, palette, 2 bytes of padding. */
export function hlQpic(width: number, height: number, indices: Uint8Array, paletteRgb: Uint8Array): Uint8Array {
  return new Writer().i32(width, height).bytes(indices).u16(256).bytes(paletteRgb).u16(0).done();
}

/** Half-Life's font: i32 width (256), height, rowcount, rowheight, 256 × {i16 offset, i16 width}, pixels, u16 256, palette. */
export function hlFont(height: number, indices: Uint8Array, paletteRgb: Uint8Array): Uint8Array {
  const w = new Writer().i32(256, height, 1, height);
  for (let c = 0; c < 256; c++) w.u16(c * 8).u16(8);
  return w.bytes(indices).u16(256).bytes(paletteRgb).u16(0).done();
}

/** A Quake BSP 29 with only entities and a texture lump (i32 count, offsets, the miptex; -1 for a missing one). */
export function q1bsp(entities: string, miptexes: (Uint8Array | null)[]): Uint8Array {
  const tex = new Writer().i32(miptexes.length);
  let at = 4 + miptexes.length * 4;
  for (const m of miptexes) {
    tex.i32(m ? at : -1);
    if (m) at += m.length;
  }
  for (const m of miptexes) if (m) tex.bytes(m);
  const texture = tex.done();
  const ents = new Uint8Array([...entities].map((c) => c.charCodeAt(0)).concat([0]));
  const header = 4 + 15 * 8;
  const w = new Writer().i32(29);
  for (let i = 0; i < 15; i++) {
    if (i === 0) w.i32(header, ents.length);
    else if (i === 2) w.i32(header + ents.length, texture.length);
    else w.i32(header + ents.length + texture.length, 0);
  }
  return w.bytes(ents).bytes(texture).done();
}

/** A Half-Life sprite (IDSP version 2): texFormat after the type, its palette after the 40-byte header, single frames. */
export function hlSprite(frames: CraftFrame[], paletteRgb: Uint8Array, texFormat: number): Uint8Array {
  const w = new Writer()
    .u8(0x49, 0x44, 0x53, 0x50)
    .i32(2, 2, texFormat)
    .f32(10)
    .i32(Math.max(...frames.map((f) => f.width)), Math.max(...frames.map((f) => f.height)), frames.length)
    .f32(0)
    .i32(0)
    .u16(256)
    .bytes(paletteRgb);
  for (const f of frames) w.i32(0, 0, 0, f.width, f.height).bytes(f.indices);
  return w.done();
}
