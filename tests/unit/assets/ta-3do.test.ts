import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { samplesDir } from '../../helpers/run-cli.js';
import { fuzzDecoder } from '../../helpers/fuzz-decoder.js';
import { parse3do, threeDoInfo, threeDoPieceNames } from '../../../shared/assets/ta/3do.js';
import { threeDoToMesh } from '../../../shared/assets/ta/3do-mesh.js';
import { FormatError } from '../../../shared/errors.js';
import type { RgbaImage } from '../../../shared/assets/image.js';

const armimrPath = join(samplesDir, 'ta/armimr/objects3d/ARMIMR.3do');
const objectsDir = join(samplesDir, 'ta/objects3d');
const samples3do = readdirSync(objectsDir)
  .filter((n) => n.toLowerCase().endsWith('.3do'))
  .map((n) => join(objectsDir, n));
const read = (p: string) => new Uint8Array(readFileSync(p));

/**
 * An independent walk of the format description, written here: object headers of 52 bytes, name at +28,
 * counts at +4/+8, sibling at +44, child at +48; vertices at +36 (12 bytes), primitives at +40 (32 bytes, the
 * index count at +4 and the texture-name offset at +16).
 */
function walk(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (o: number) => view.getUint32(o, true);
  const cstr = (o: number) => {
    let e = o;
    while (bytes[e] !== 0) e++;
    return String.fromCharCode(...bytes.subarray(o, e));
  };
  const out: {
    name: string;
    parent: string | null;
    vertices: number;
    primitives: number;
    counts: number[];
    textures: string[];
    offset: number[];
  }[] = [];
  const visit = (at: number, parent: string | null) => {
    for (let o = at; o !== 0 || at === 0; o = u32(o + 44)) {
      const name = cstr(u32(o + 28));
      const prims = u32(o + 8);
      const counts: number[] = [];
      const textures: string[] = [];
      for (let p = 0; p < prims; p++) {
        const base = u32(o + 40) + p * 32;
        counts.push(u32(base + 4));
        if (u32(base + 16) !== 0) textures.push(cstr(u32(base + 16)));
      }
      const offset = [16, 20, 24].map((k) => view.getInt32(o + k, true) / 65536);
      out.push({ name, parent, vertices: u32(o + 4), primitives: prims, counts, textures, offset });
      if (u32(o + 48) !== 0) visit(u32(o + 48), name);
      if (u32(o + 44) === 0) break;
      at = -1;
    }
  };
  visit(0, null);
  return out;
}

const fakeTexture: RgbaImage = { width: 2, height: 2, rgba: new Uint8Array(16).fill(200) };

describe('3DO', () => {
  it("ARMIMR's pieces are the BOS `piece` line's names, in the same depth-first order", () => {
    const bos = readFileSync(join(samplesDir, 'ta/armimr/scripts/ARMIMR.bos'), 'latin1');
    const line = /^\s*piece\s+([^;]+);/im.exec(bos);
    expect(line).not.toBeNull();
    const bosPieces = line![1]!.split(',').map((s) => s.trim().toLowerCase());
    const info = threeDoInfo(parse3do(read(armimrPath)));
    expect(info.pieces.map((p) => p.name.toLowerCase()).sort()).toEqual([...bosPieces].sort());
    expect(info.pieces.map((p) => p.name)).toEqual(walk(read(armimrPath)).map((p) => p.name));
    expect(info.pieces[0]!.parent).toBeNull();
  });

  it.each(samples3do.concat(armimrPath))('%s: pieces, parents, offsets, counts and textures match an independent walk', (path) => {
    const bytes = read(path);
    const expected = walk(bytes);
    const info = threeDoInfo(parse3do(bytes));
    expect(info.pieces).toEqual(
      expected.map((e) => ({ name: e.name, parent: e.parent, offset: e.offset, vertices: e.vertices, primitives: e.primitives })),
    );
    expect(info.textures).toEqual([...new Set(expected.flatMap((e) => e.textures))].sort());
  });

  it.each(samples3do.concat(armimrPath))(
    '%s: the mesh has one triangle per polygon vertex beyond two, 1- and 2-vertex primitives skipped',
    async (path) => {
      const bytes = read(path);
      const expected = walk(bytes);
      const model = parse3do(bytes);
      const result = await threeDoToMesh(model, { textures: async () => fakeTexture });
      const triangles = result.mesh.pieces.reduce((n, p) => n + p.primitives.reduce((m, q) => m + q.positions.length / 9, 0), 0);
      const all = expected.flatMap((e) => e.counts);
      const root = model.objects[0]!;
      const selection = root.primitives[root.selectionPrimitive];
      const selectionDropped = selection !== undefined && selection.texture === null && selection.indices.length === 4 ? 2 : 0;
      expect(triangles).toBe(all.filter((n) => n >= 3).reduce((a, n) => a + n - 2, 0) - selectionDropped);
      expect(result.degeneratePrimitives).toBe(all.filter((n) => n < 3).length);
      expect(result.missingTextures).toEqual([]);
      expect(result.mesh.pieces.map((p) => p.name)).toEqual(expected.map((e) => e.name));
      for (const piece of result.mesh.pieces) {
        if (piece.parent !== null) expect(piece.parent).toBeLessThan(result.mesh.pieces.indexOf(piece));
        for (const prim of piece.primitives) expect(prim.uvs.length / 2).toBe(prim.positions.length / 3);
      }
    },
  );

  it('ARMIMR: the selection quad is left out, textures missing from the lookup are named, quads take TA corner UVs', async () => {
    const model = parse3do(read(armimrPath));
    const names = threeDoInfo(model).textures;
    const found = names.slice(1);
    const result = await threeDoToMesh(model, { textures: async (n) => (found.includes(n) ? fakeTexture : null) });
    expect(result.selectionPrimitiveSkipped).toBe(true);
    expect(result.missingTextures).toEqual([names[0]]);
    const missing = result.mesh.materials.find((m) => m.name === names[0])!;
    expect(missing.missing).toBe(true);
    expect(missing.image).toBeUndefined();
    // The first textured quad: triangles (0,1,2) and (0,2,3) → corners TL TR BR, TL BR BL.
    const body = result.mesh.pieces.find((p) => p.primitives.some((q) => result.mesh.materials[q.material]!.image))!;
    const prim = body.primitives.find((q) => result.mesh.materials[q.material]!.image)!;
    expect(Array.from(prim.uvs.subarray(0, 12))).toEqual([0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1]);
  });

  it('flat-colour primitives take their colour from the palette', async () => {
    const bytes = read(join(objectsDir, 'ion4.3do'));
    const rgba = new Uint8Array(1024);
    for (let i = 0; i < 256; i++) rgba.set([i, 255 - i, 7, 255], i * 4);
    const result = await threeDoToMesh(parse3do(bytes), { palette: { name: 'test', rgba } });
    const colour = walk(bytes).length && parse3do(bytes).objects[0]!.primitives[0]!.colorIndex;
    expect(result.mesh.materials[0]!.color).toEqual([colour, 255 - colour, 7, 255]);
  });

  it('an object that links back to itself (as child or sibling) is a cycle, not a hang', () => {
    for (const field of [44, 48]) {
      const bytes = read(armimrPath).slice();
      const view = new DataView(bytes.buffer);
      const child = view.getUint32(48, true);
      view.setUint32(child + field, child, true);
      expect(() => parse3do(bytes)).toThrow(FormatError);
      expect(() => parse3do(bytes)).toThrow(/reached twice/);
    }
  });

  it("a vertex index past the object's vertices, a short file and a bad version are FormatErrors", () => {
    const bytes = read(armimrPath).slice();
    const view = new DataView(bytes.buffer);
    const prims = view.getUint32(40, true);
    view.setUint16(view.getUint32(prims + 12, true), 999, true);
    expect(() => parse3do(bytes)).toThrow(/uses vertex 999/);
    expect(() => parse3do(read(armimrPath).subarray(0, 40))).toThrow(FormatError);
    const v2 = read(armimrPath).slice();
    v2[0] = 2;
    expect(() => parse3do(v2)).toThrow(/version 2/);
  });

  it.each(samples3do.slice(0, 4).concat(armimrPath))('fuzz %s: only FormatErrors, no oversized allocation', async (path) => {
    const outcome = await fuzzDecoder(read(path), async (b) => threeDoToMesh(parse3do(b), { textures: async () => fakeTexture }), {
      count: 200,
    });
    expect(outcome.ok + outcome.rejected).toBe(200);
  });
});

describe('3DO piece names alone (for the COB piece check)', () => {
  it.each(samples3do.concat(armimrPath))('%s: the names of an independent walk, in its order', (path) => {
    expect(threeDoPieceNames(read(path))).toEqual(walk(read(path)).map((p) => p.name));
  });

  it("ARMIMR: the BOS `piece` line's names", () => {
    const bos = readFileSync(join(samplesDir, 'ta/armimr/scripts/ARMIMR.bos'), 'latin1');
    const bosPieces = /^\s*piece\s+([^;]+);/im
      .exec(bos)![1]!
      .split(',')
      .map((s) => s.trim().toLowerCase());
    expect(
      threeDoPieceNames(read(armimrPath))
        .map((n) => n.toLowerCase())
        .sort(),
    ).toEqual([...bosPieces].sort());
  });

  it('a cycle and a truncated header are FormatErrors', () => {
    // The root's first child names itself as its own next sibling.
    const self = read(armimrPath).slice();
    const firstChild = new DataView(self.buffer).getUint32(48, true);
    new DataView(self.buffer).setUint32(firstChild + 44, firstChild, true);
    expect(() => threeDoPieceNames(self)).toThrow(/reached twice/);
    expect(() => threeDoPieceNames(read(armimrPath).slice(0, 51))).toThrow(FormatError);
  });

  it.each(samples3do.concat(armimrPath))('%s: 300 mutants end in names or a FormatError', async (path) => {
    const outcome = await fuzzDecoder(read(path), (b) => threeDoPieceNames(b), { count: 300 });
    expect(outcome.ok + outcome.rejected).toBe(300);
  });
});
