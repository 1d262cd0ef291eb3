import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { samplesDir } from '../../helpers/run-cli.js';
import { parse3do, threeDoInfo } from '../../../shared/assets/ta/3do.js';
import { threeDoToMesh } from '../../../shared/assets/ta/3do-mesh.js';
import { encodeGlb, encodeObj } from '../../../shared/assets/gltf.js';
import { triangleCount } from '../../../shared/assets/mesh-util.js';
import type { Mesh } from '../../../shared/assets/mesh.js';
import type { RgbaImage } from '../../../shared/assets/image.js';

const armimr = new Uint8Array(readFileSync(join(samplesDir, 'ta/armimr/objects3d/ARMIMR.3do')));
const texture: RgbaImage = { width: 2, height: 1, rgba: new Uint8Array([255, 0, 0, 255, 0, 255, 0, 255]) };

interface Gltf {
  asset: { version: string };
  scene: number;
  scenes: { nodes: number[] }[];
  nodes: { name: string; mesh?: number; children?: number[]; translation?: number[]; rotation?: number[]; scale?: number[] }[];
  meshes?: { primitives: { attributes: Record<string, number>; material: number; mode?: number }[] }[];
  accessors?: {
    bufferView: number;
    byteOffset?: number;
    componentType: number;
    count: number;
    type: string;
    min?: number[];
    max?: number[];
  }[];
  bufferViews?: { buffer: number; byteOffset?: number; byteLength: number }[];
  buffers?: { byteLength: number }[];
  materials?: { name: string; pbrMetallicRoughness: { baseColorTexture?: { index: number } } }[];
  textures?: { source: number; sampler?: number }[];
  images?: { bufferView: number; mimeType: string }[];
}

/** A GLB reader written from the glTF 2.0 spec (section "GLB File Format Specification"). */
function readGlb(glb: Uint8Array): { json: Gltf; bin: Uint8Array } {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  expect(view.getUint32(0, true)).toBe(0x46546c67);
  expect(view.getUint32(4, true)).toBe(2);
  expect(view.getUint32(8, true)).toBe(glb.length);
  const jsonLength = view.getUint32(12, true);
  expect(view.getUint32(16, true)).toBe(0x4e4f534a);
  expect(jsonLength % 4).toBe(0);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength))) as Gltf;
  let bin: Uint8Array = new Uint8Array(0);
  if (20 + jsonLength < glb.length) {
    const at = 20 + jsonLength;
    const binLength = view.getUint32(at, true);
    expect(view.getUint32(at + 4, true)).toBe(0x004e4942);
    bin = glb.subarray(at + 8, at + 8 + binLength);
    expect(json.buffers![0]!.byteLength).toBe(binLength);
  }
  return { json, bin };
}

function accessorFloats(g: { json: Gltf; bin: Uint8Array }, index: number): Float32Array {
  const a = g.json.accessors![index]!;
  const v = g.json.bufferViews![a.bufferView]!;
  const size = a.type === 'VEC3' ? 3 : 2;
  const start = (v.byteOffset ?? 0) + (a.byteOffset ?? 0);
  expect(start % 4).toBe(0);
  expect(start + a.count * size * 4).toBeLessThanOrEqual((v.byteOffset ?? 0) + v.byteLength);
  return new Float32Array(g.bin.buffer.slice(g.bin.byteOffset + start, g.bin.byteOffset + start + a.count * size * 4));
}

describe('glTF export', () => {
  it('ARMIMR.3do: a node per piece with its parent and offset, one mesh per piece, accessors with true bounds', async () => {
    const model = parse3do(armimr);
    const { mesh } = await threeDoToMesh(model, { textures: async () => texture });
    const g = readGlb(encodeGlb(mesh));
    expect(g.json.asset.version).toBe('2.0');
    const info = threeDoInfo(model);
    const root = g.json.nodes[g.json.scenes[g.json.scene]!.nodes[0]!]!;
    expect(root.scale).toEqual([1, 1, -1]);
    // Piece i is node i; its children are the pieces whose parent is i.
    info.pieces.forEach((piece, i) => {
      const node = g.json.nodes[i]!;
      expect(node.name).toBe(piece.name);
      expect(node.translation).toEqual(piece.offset);
      const kids = info.pieces.flatMap((p, k) => (p.parent === piece.name && model.objects[k]!.parent === i ? [k] : []));
      expect(node.children ?? []).toEqual(kids);
    });
    expect(root.children).toEqual(info.pieces.flatMap((p, i) => (p.parent === null ? [i] : [])));
    let triangles = 0;
    for (const [i, piece] of mesh.pieces.entries()) {
      const node = g.json.nodes[i]!;
      if (piece.primitives.length === 0) {
        expect(node.mesh).toBeUndefined();
        continue;
      }
      const prims = g.json.meshes![node.mesh!]!.primitives;
      expect(prims.map((p) => p.material)).toEqual(piece.primitives.map((p) => p.material));
      for (const [k, prim] of prims.entries()) {
        const pos = g.json.accessors![prim.attributes.POSITION!]!;
        expect(pos.count).toBe(piece.primitives[k]!.positions.length / 3);
        expect(g.json.accessors![prim.attributes.TEXCOORD_0!]!.count).toBe(pos.count);
        const floats = accessorFloats(g, prim.attributes.POSITION!);
        expect(Array.from(floats)).toEqual(Array.from(piece.primitives[k]!.positions));
        for (let axis = 0; axis < 3; axis++) {
          const values = Array.from(floats).filter((_, n) => n % 3 === axis);
          expect(pos.min![axis]).toBe(Math.min(...values));
          expect(pos.max![axis]).toBe(Math.max(...values));
        }
        triangles += pos.count / 3;
      }
    }
    expect(triangles).toBe(triangleCount(mesh));
    expect(g.json.images).toBeUndefined();
  });

  it('embeds each texture once through the PNG encoder, nearest-filtered', async () => {
    const { mesh } = await threeDoToMesh(parse3do(armimr), { textures: async () => texture });
    const fakePng = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const g = readGlb(encodeGlb(mesh, { png: () => fakePng }));
    const textured = mesh.materials.filter((m) => m.image).length;
    expect(g.json.images!.length).toBe(textured);
    for (const image of g.json.images!) {
      const v = g.json.bufferViews![image.bufferView]!;
      expect(image.mimeType).toBe('image/png');
      expect(Array.from(g.bin.subarray(v.byteOffset ?? 0, (v.byteOffset ?? 0) + v.byteLength))).toEqual(Array.from(fakePng));
    }
    const withTexture = g.json.materials!.filter((m) => m.pbrMetallicRoughness.baseColorTexture);
    expect(withTexture.length).toBe(textured);
  });

  it('an animated mesh is written at the chosen frame; an empty one is still valid', () => {
    const mesh: Mesh = {
      up: 'z',
      materials: [{ name: 'skin 0', color: [255, 255, 255, 255] }],
      frameNames: ['a', 'b'],
      pieces: [
        {
          name: 'm',
          parent: null,
          offset: [0, 0, 0],
          primitives: [
            {
              material: 0,
              positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
              uvs: new Float32Array(6),
              framePositions: [new Float32Array([0, 0, 5, 1, 0, 5, 0, 1, 5])],
            },
          ],
        },
      ],
    };
    const g = readGlb(encodeGlb(mesh, { frame: 1 }));
    expect(Array.from(accessorFloats(g, 0))).toEqual([0, 0, 5, 1, 0, 5, 0, 1, 5]);
    expect(g.json.accessors![0]!.min).toEqual([0, 0, 5]);
    expect(g.json.nodes.at(-1)!.rotation).toEqual([-Math.SQRT1_2, 0, 0, Math.SQRT1_2]);
    const empty = readGlb(encodeGlb({ ...mesh, pieces: [{ ...mesh.pieces[0]!, primitives: [] }] }));
    expect(empty.json.meshes).toBeUndefined();
    expect(empty.bin.length).toBe(0);
  });
});

describe('OBJ export', () => {
  it('ARMIMR.3do: a group per piece, a face per triangle, materials in the MTL', async () => {
    const { mesh } = await threeDoToMesh(parse3do(armimr), { textures: async (n) => (n.startsWith('Arm') ? texture : null) });
    const out = encodeObj(mesh, 'armimr.mtl', { png: () => new Uint8Array([1]) });
    const lines = out.obj.split('\n');
    expect(lines).toContain('mtllib armimr.mtl');
    expect(lines.filter((l) => l.startsWith('o ')).map((l) => l.slice(2))).toEqual(mesh.pieces.map((p) => p.name));
    expect(lines.filter((l) => l.startsWith('f ')).length).toBe(triangleCount(mesh));
    const vertices = lines.filter((l) => l.startsWith('v ')).length;
    expect(vertices).toBe(triangleCount(mesh) * 3);
    for (const f of lines.filter((l) => l.startsWith('f '))) {
      for (const ref of f.slice(2).split(' ')) {
        const [v, vt] = ref.split('/').map(Number);
        expect(v).toBe(vt);
        expect(v).toBeGreaterThanOrEqual(1);
        expect(v).toBeLessThanOrEqual(vertices);
      }
    }
    const used = new Set(lines.filter((l) => l.startsWith('usemtl ')).map((l) => l.slice(7)));
    const defined = new Set(
      out.mtl
        .split('\n')
        .filter((l) => l.startsWith('newmtl '))
        .map((l) => l.slice(7)),
    );
    for (const name of used) expect(defined.has(name)).toBe(true);
    expect(out.textures.length).toBe(mesh.materials.filter((m) => m.image).length);
    expect(out.mtl.split('\n').filter((l) => l.startsWith('map_Kd ')).length).toBe(out.textures.length);
  });
});
