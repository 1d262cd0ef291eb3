import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { samplesDir } from '../../helpers/run-cli.js';
import { fuzzDecoder } from '../../helpers/fuzz-decoder.js';
import { parseMdl } from '../../../shared/assets/quake/mdl.js';
import { parseMd2 } from '../../../shared/assets/quake/md2.js';
import { parseDkm } from '../../../shared/assets/quake/dkm.js';
import { aliasInfo, aliasToMesh } from '../../../shared/assets/quake/alias.js';
import { frameCount, positionsAt } from '../../../shared/assets/mesh-util.js';
import { FormatError } from '../../../shared/errors.js';
import { paletteFromRgb } from '../../../shared/assets/image.js';
import { makeMd2Like, makeMdl } from '../../helpers/model-fixtures.js';

const md2Path = join(samplesDir, 'quake-assets/quake2/cube.md2');
const dkmPath = join(samplesDir, 'quake-assets/daikatana/cube.dkm');
const read = (p: string) => new Uint8Array(readFileSync(p));
const quakePalette = paletteFromRgb('palette.lmp', read(join(samplesDir, 'quake-assets/quake/gfx/palette.lmp')));

describe('Quake MDL', () => {
  it('reads skins (incl. groups) through the palette, frames (incl. groups), and applies the on-seam rule', () => {
    const model = parseMdl(makeMdl(), quakePalette);
    expect(aliasInfo(model)).toEqual({ format: 'mdl', skins: 2, frames: 2, vertices: 4, triangles: 2 });
    expect(model.skins.map((s) => s.name)).toEqual(['skin 0', 'skin 1.0', 'skin 1.1']);
    const skin0 = model.skins[0]!.image!;
    expect([skin0.width, skin0.height]).toEqual([4, 2]);
    // Pixel 3 is palette index 195: its RGB from palette.lmp bytes 585..587.
    const lmp = read(join(samplesDir, 'quake-assets/quake/gfx/palette.lmp'));
    expect(Array.from(skin0.rgba.subarray(12, 16))).toEqual([lmp[585], lmp[586], lmp[587], 255]);
    expect(model.frames.map((f) => f.name)).toEqual(['stand', 'walk1', 'walk2']);
    // Vertex 3 of walk2: (1, 1, 2) × scale 2 + translate (-1, -2, -3).
    expect(Array.from(model.frames[2]!.vertices.subarray(9, 12))).toEqual([1, 0, 1]);
    // Front triangle (0,1,2): vertex 1 on the seam keeps s = 1. Back triangle (1,2,3): s = 1 + 4/2.
    const u = (t: number, k: number) => model.uvs[t * 6 + k * 2]!;
    expect(u(0, 1)).toBeCloseTo((1 + 0.5) / 4);
    expect(u(1, 0)).toBeCloseTo((1 + 2 + 0.5) / 4);
    expect(u(1, 1)).toBeCloseTo((3 + 0.5) / 4);
    expect(model.uvs[1]).toBeCloseTo(0.5 / 2);
  });

  it('becomes a z-up mesh with a frame per MDL frame', () => {
    const model = parseMdl(makeMdl(), quakePalette);
    const mesh = aliasToMesh(model, 'test');
    expect(mesh.up).toBe('z');
    expect(frameCount(mesh)).toBe(3);
    expect(mesh.frameNames).toEqual(['stand', 'walk1', 'walk2']);
    const prim = mesh.pieces[0]!.primitives[0]!;
    expect(prim.positions.length).toBe(2 * 9);
    // Triangle 1, corner 2 is vertex 3: frame 2 → (1, 0, 1).
    expect(Array.from(positionsAt(prim, 2).subarray(15, 18))).toEqual([1, 0, 1]);
    expect(mesh.materials[0]!.image).toBeDefined();
  });

  it('bad fields are FormatErrors naming the numbers', () => {
    const bytes = makeMdl();
    const bad = bytes.slice();
    new DataView(bad.buffer).setInt32(84 + 12 + 32 + 48 + 4, 99, true);
    expect(() => parseMdl(bad)).toThrow(/triangle 0 uses vertex 99/);
    expect(() => parseMdl(bytes.subarray(0, 100))).toThrow(FormatError);
    const v7 = bytes.slice();
    v7[4] = 7;
    expect(() => parseMdl(v7)).toThrow(/version 7/);
  });

  it('fuzz: only FormatErrors, no oversized allocation', async () => {
    const outcome = await fuzzDecoder(makeMdl(), (b) => aliasToMesh(parseMdl(b, quakePalette), 'x'), { count: 300 });
    expect(outcome.ok + outcome.rejected).toBe(300);
  });
});

describe('Quake 2 MD2 and Daikatana DKM', () => {
  const header = (bytes: Uint8Array, base: number) => {
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return (i: number) => v.getInt32(base + i * 4, true);
  };

  it("cube.md2: counts are the header's, the one vertex is (x, y, z) × scale + translate", () => {
    const bytes = read(md2Path);
    const h = header(bytes, 0);
    const model = parseMd2(bytes);
    expect(aliasInfo(model)).toEqual({ format: 'md2', skins: h(5), frames: h(10), vertices: h(6), triangles: h(8) });
    const frameAt = h(14);
    const f = new DataView(bytes.buffer, bytes.byteOffset).getFloat32.bind(new DataView(bytes.buffer, bytes.byteOffset));
    const expected = [0, 1, 2].map((k) => bytes[frameAt + 40 + k]! * f(frameAt + k * 4, true) + f(frameAt + 12 + k * 4, true));
    expect(Array.from(model.frames[0]!.vertices)).toEqual(expected);
    expect(model.frames[0]!.name).toBe('frame1');
  });

  it("cube.dkm: counts are the header's, version 1 vertices", () => {
    const bytes = read(dkmPath);
    const h = header(bytes, 0);
    expect(h(1)).toBe(1);
    const model = parseDkm(bytes);
    expect(aliasInfo(model)).toEqual({ format: 'dkm', skins: h(6), frames: h(11), vertices: h(7), triangles: h(9) });
    const frameAt = h(16);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const expected = [0, 1, 2].map(
      (k) =>
        bytes[frameAt + 40 + k]! * view.getFloat32(frameAt + k * 4, true) +
        view.getFloat32(frameAt + 12 + k * 4, true) +
        view.getFloat32(8 + k * 4, true),
    );
    expect(Array.from(model.frames[0]!.vertices)).toEqual(expected);
  });

  it.each(['md2', 'dkm1', 'dkm2'] as const)('%s: skins are paths, triangles index frames with scale and translate', (kind) => {
    const bytes = makeMd2Like(kind);
    const model = kind === 'md2' ? parseMd2(bytes) : parseDkm(bytes);
    expect(model.skins.map((s) => s.name)).toEqual(['models/a/skin.pcx', 'models/a/other.pcx']);
    expect(model.frames.map((f) => f.name)).toEqual(['f1', 'f2']);
    const originX = kind === 'md2' ? 0 : 100;
    // Vertex 2 = (0, 100, 40) × (0.5, 0.5, 0.25) + (1, 2, 3 [+5 in f2]) (+ the DKM origin on x).
    expect(Array.from(model.frames[1]!.vertices.subarray(6, 9))).toEqual([1 + originX, 52, 10 + 3 + 5]);
    expect(Array.from(model.triangles)).toEqual([0, 1, 2]);
    const [w, h] = kind === 'md2' ? [64, 32] : [256, 256];
    expect(Array.from(model.uvs)).toEqual([0, 0, 32 / w, 16 / h, 64 / w, 32 / h]);
    const mesh = aliasToMesh(model, kind);
    expect(mesh.materials.map((m) => m.missing)).toEqual([true, true]);
    expect(frameCount(mesh)).toBe(2);
  });

  it.each(['md2', 'dkm1', 'dkm2'] as const)('fuzz %s: only FormatErrors', async (kind) => {
    const decode = kind === 'md2' ? parseMd2 : parseDkm;
    for (const original of [makeMd2Like(kind), read(kind === 'md2' ? md2Path : dkmPath)]) {
      const outcome = await fuzzDecoder(original, (b) => aliasToMesh(decode(b), 'x'), { count: 200 });
      expect(outcome.ok + outcome.rejected).toBe(200);
    }
  });

  it('a triangle past the vertex table is a FormatError', () => {
    const bytes = makeMd2Like('md2');
    const bad = bytes.slice();
    const trisAt = new DataView(bad.buffer).getInt32(52, true);
    new DataView(bad.buffer).setUint16(trisAt + 2, 3, true);
    expect(() => parseMd2(bad)).toThrow(/triangle 0 uses vertex 3, but the model has 3/);
  });
});

describe('negative header counts (MDL, MD2, DKM share one check)', () => {
  // Offsets of each signed count in the headers as the formats lay them out: MDL from 48, MD2 from 16, DKM from 20.
  const cases = [
    {
      kind: 'mdl',
      decode: (b: Uint8Array) => parseMdl(b, quakePalette),
      bytes: () => makeMdl(),
      fields: { skin: 48, vertex: 60, triangle: 64, frame: 68 },
    },
    {
      kind: 'md2',
      decode: (b: Uint8Array) => parseMd2(b),
      bytes: () => read(md2Path),
      fields: { 'frame size': 16, skin: 20, vertex: 24, 'texture coordinate': 28, triangle: 32, frame: 40 },
    },
    {
      kind: 'dkm',
      decode: (b: Uint8Array) => parseDkm(b),
      bytes: () => read(dkmPath),
      fields: { 'frame size': 20, skin: 24, vertex: 28, 'texture coordinate': 32, triangle: 36, frame: 44 },
    },
  ];
  it.each(cases)('$kind: each count set to -2 is refused by name', ({ kind, decode, bytes, fields }) => {
    const what = kind.toUpperCase();
    for (const [field, offset] of Object.entries(fields)) {
      const bad = bytes().slice();
      new DataView(bad.buffer).setInt32(offset, -2, true);
      let caught: unknown;
      try {
        decode(bad);
      } catch (err) {
        caught = err;
      }
      expect(caught, field).toBeInstanceOf(FormatError);
      expect((caught as FormatError).code).toBe('bad-count');
      expect((caught as FormatError).message).toBe(`${what}: ${field} count -2 is negative`);
    }
  });
});
