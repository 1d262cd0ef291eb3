/** Quake-family model files built in code from the format descriptions (no MDL sample exists). */

/** A little-endian byte builder for fixtures written from the format descriptions. */
export class Bytes {
  private out: number[] = [];
  get length() {
    return this.out.length;
  }
  i32(...values: number[]) {
    for (const v of values) {
      const b = new DataView(new ArrayBuffer(4));
      b.setInt32(0, v, true);
      this.out.push(...new Uint8Array(b.buffer));
    }
    return this;
  }
  u16(...values: number[]) {
    for (const v of values) this.out.push(v & 0xff, v >> 8);
    return this;
  }
  f32(...values: number[]) {
    for (const v of values) {
      const b = new DataView(new ArrayBuffer(4));
      b.setFloat32(0, v, true);
      this.out.push(...new Uint8Array(b.buffer));
    }
    return this;
  }
  bytes(...values: number[]) {
    this.out.push(...values);
    return this;
  }
  name(text: string, size: number) {
    for (let i = 0; i < size; i++) this.out.push(i < text.length ? text.charCodeAt(i) : 0);
    return this;
  }
  done() {
    return new Uint8Array(this.out);
  }
}

/**
 * An MDL with a single skin and a group of two skins (4 × 2 pixels), 4 vertices, 2 triangles (one facing
 * away), a single frame and a group of two frames: every branch of the layout.
 */
export function makeMdl(): Uint8Array {
  const b = new Bytes();
  b.bytes(0x49, 0x44, 0x50, 0x4f).i32(6).f32(2, 2, 2).f32(-1, -2, -3).f32(10).f32(0, 0, 0);
  b.i32(2, 4, 2, 4, 2, 2, 0, 0).f32(1);
  b.i32(0).bytes(192, 193, 194, 195, 196, 197, 198, 199); // skin 0
  b.i32(1, 2)
    .f32(0.1, 0.2)
    .bytes(...Array(8).fill(9), ...Array(8).fill(10)); // skin group of 2
  b.i32(0, 0, 0).i32(1, 1, 0).i32(0, 3, 1).i32(0, 0, 1); // st: vertex 1 on the seam
  b.i32(1, 0, 1, 2).i32(0, 1, 2, 3); // front triangle, back triangle
  const frame = (name: string, z: number) =>
    b.bytes(0, 0, 0, 0, 9, 9, 9, 0).name(name, 16).bytes(0, 0, z, 0, 1, 0, z, 0, 0, 1, z, 0, 1, 1, z, 0);
  b.i32(0);
  frame('stand', 0);
  b.i32(1, 2).bytes(0, 0, 0, 0, 9, 9, 9, 0).f32(0.1, 0.2);
  frame('walk1', 1);
  frame('walk2', 2);
  return b.done();
}

/** An MD2 (or DKM) with 2 skins, 3 vertices, 1 triangle, 2 frames; DKM version 2 packs vertices into a u32. */
export function makeMd2Like(kind: 'md2' | 'dkm1' | 'dkm2'): Uint8Array {
  const dkm = kind !== 'md2';
  const vertexSize = kind === 'dkm2' ? 5 : 4;
  const frameSize = 40 + 3 * vertexSize;
  const headerSize = dkm ? 80 : 68;
  const skinsAt = headerSize;
  const stAt = skinsAt + 2 * 64;
  const trisAt = stAt + 3 * 4;
  const framesAt = trisAt + (dkm ? 16 : 12);
  const end = framesAt + 2 * frameSize;
  const b = new Bytes();
  if (dkm)
    b.name('DKMD', 4)
      .i32(kind === 'dkm1' ? 1 : 2)
      .f32(100, 0, 0)
      .i32(frameSize, 2, 3, 3, 1, 0, 2, 0, skinsAt, stAt, trisAt, framesAt, end, end, end);
  else b.name('IDP2', 4).i32(8, 64, 32, frameSize, 2, 3, 3, 1, 0, 2, skinsAt, stAt, trisAt, framesAt, end, end);
  b.name('models/a/skin.pcx', 64).name('models/a/other.pcx', 64);
  b.u16(0, 0, 32, 16, 64, 32);
  if (dkm) b.u16(0, 0);
  b.u16(0, 1, 2, 0, 1, 2);
  for (const [name, lift] of [
    ['f1', 0],
    ['f2', 5],
  ] as const) {
    b.f32(0.5, 0.5, 0.25)
      .f32(1, 2, 3 + lift)
      .name(name, 16);
    for (const [x, y, z] of [
      [0, 0, 0],
      [200, 0, 0],
      [0, 100, 40],
    ]) {
      if (kind === 'dkm2') b.i32((x! << 21) | (y! << 11) | z!).bytes(7);
      else b.bytes(x!, y!, z!, 7);
    }
  }
  return b.done();
}
