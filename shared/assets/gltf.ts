import type { RgbaImage } from './image.js';
import type { Mesh, MeshMaterial } from './mesh.js';
import { pieceOrigins, positionsAt, toYUp, yUpTransform } from './mesh-util.js';

// TextEncoder is in Node and every browser, but shared/ compiles without DOM or Node types: name it here.
const Utf8Encoder = (globalThis as unknown as { TextEncoder: new () => { encode(text: string): Uint8Array } }).TextEncoder;

/**
 * A Mesh as binary glTF 2.0 (GLB) and as Wavefront OBJ + MTL text. The GLB keeps the piece hierarchy (a
 * node per piece, translated by its offset, under one root node that turns game axes into glTF's y-up),
 * one glTF mesh per piece with a primitive per material, and the textures as embedded PNGs when a PNG
 * encoder is given (without one, materials carry only their colour). Animated models are written at one
 * frame. Pure: no Node, no DOM.
 */

export type PngEncoder = (image: RgbaImage) => Uint8Array;

export interface ModelExportOptions {
  /** Animation frame to write (MDL, MD2, DKM); 0 when absent. */
  frame?: number;
  /** Encodes textures; without it the export is untextured. */
  png?: PngEncoder;
}

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
const FLOAT = 5126;
const ARRAY_BUFFER = 34962;
const NEAREST = 9728;
const REPEAT = 10497;

class BinaryBuffer {
  private parts: Uint8Array[] = [];
  length = 0;
  readonly views: { buffer: 0; byteOffset: number; byteLength: number; target?: number }[] = [];

  /** Appends bytes 4-aligned; returns the buffer view index. */
  add(bytes: Uint8Array, target?: number): number {
    const pad = (4 - (this.length % 4)) % 4;
    if (pad) this.push(new Uint8Array(pad));
    this.views.push({ buffer: 0, byteOffset: this.length, byteLength: bytes.length, ...(target ? { target } : {}) });
    this.push(bytes);
    return this.views.length - 1;
  }

  private push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.length + ((4 - (this.length % 4)) % 4));
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

function floatBytes(values: Float32Array): Uint8Array {
  return new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength));
}

function bounds(values: Float32Array, size: number): { min: number[]; max: number[] } {
  const min = Array<number>(size).fill(Infinity);
  const max = Array<number>(size).fill(-Infinity);
  for (let i = 0; i < values.length; i += size) {
    for (let k = 0; k < size; k++) {
      const v = values[i + k]!;
      if (v < min[k]!) min[k] = v;
      if (v > max[k]!) max[k] = v;
    }
  }
  return { min, max };
}

function materialJson(material: MeshMaterial, texture: number | undefined) {
  const [r, g, b, a] = material.color;
  return {
    name: material.name,
    doubleSided: true,
    pbrMetallicRoughness: {
      baseColorFactor: [r / 255, g / 255, b / 255, a / 255],
      metallicFactor: 0,
      roughnessFactor: 1,
      ...(texture !== undefined ? { baseColorTexture: { index: texture } } : {}),
    },
  };
}

export function encodeGlb(mesh: Mesh, options: ModelExportOptions = {}): Uint8Array {
  const frame = options.frame ?? 0;
  const bin = new BinaryBuffer();
  const accessors: object[] = [];
  const images: object[] = [];
  const textures: object[] = [];
  const materials = mesh.materials.map((material) => {
    let texture: number | undefined;
    if (material.image && options.png) {
      const view = bin.add(options.png(material.image));
      images.push({ bufferView: view, mimeType: 'image/png', name: material.name });
      textures.push({ sampler: 0, source: images.length - 1 });
      texture = textures.length - 1;
    }
    return materialJson(material, texture);
  });
  const meshes: object[] = [];
  const nodes: Record<string, unknown>[] = [];
  const children: number[][] = mesh.pieces.map(() => []);
  const roots: number[] = [];
  mesh.pieces.forEach((piece, i) => {
    const primitives = piece.primitives
      .filter((p) => p.positions.length >= 9)
      .map((p) => {
        const positions = positionsAt(p, frame);
        const count = positions.length / 3;
        accessors.push({
          bufferView: bin.add(floatBytes(positions), ARRAY_BUFFER),
          componentType: FLOAT,
          count,
          type: 'VEC3',
          ...bounds(positions, 3),
        });
        const position = accessors.length - 1;
        accessors.push({
          bufferView: bin.add(floatBytes(p.uvs.subarray(0, count * 2)), ARRAY_BUFFER),
          componentType: FLOAT,
          count,
          type: 'VEC2',
        });
        return { attributes: { POSITION: position, TEXCOORD_0: accessors.length - 1 }, material: p.material, mode: 4 };
      });
    const node: Record<string, unknown> = { name: piece.name, translation: [...piece.offset] };
    if (primitives.length > 0) {
      meshes.push({ name: piece.name, primitives });
      node.mesh = meshes.length - 1;
    }
    nodes.push(node);
    if (piece.parent !== null && piece.parent < i) children[piece.parent]!.push(i);
    else roots.push(i);
  });
  children.forEach((list, i) => {
    if (list.length > 0) nodes[i]!.children = list;
  });
  const axes = yUpTransform(mesh.up);
  nodes.push({ name: 'model', children: roots, rotation: axes.rotation, scale: axes.scale });

  const binary = bin.bytes();
  const json: Record<string, unknown> = {
    asset: { version: '2.0', generator: 'ModPak Studio' },
    scene: 0,
    scenes: [{ nodes: [nodes.length - 1] }],
    nodes,
    materials,
    ...(meshes.length > 0 ? { meshes } : {}),
    ...(accessors.length > 0 ? { accessors } : {}),
    ...(bin.views.length > 0 ? { bufferViews: bin.views } : {}),
    ...(binary.length > 0 ? { buffers: [{ byteLength: binary.length }] } : {}),
    ...(images.length > 0
      ? { images, textures, samplers: [{ magFilter: NEAREST, minFilter: NEAREST, wrapS: REPEAT, wrapT: REPEAT }] }
      : {}),
  };
  if (materials.length === 0) delete json.materials;
  const jsonBytes = new Utf8Encoder().encode(JSON.stringify(json));
  const jsonPadded = new Uint8Array(jsonBytes.length + ((4 - (jsonBytes.length % 4)) % 4)).fill(0x20);
  jsonPadded.set(jsonBytes);
  const total = 12 + 8 + jsonPadded.length + (binary.length > 0 ? 8 + binary.length : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, GLB_MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonPadded.length, true);
  view.setUint32(16, CHUNK_JSON, true);
  out.set(jsonPadded, 20);
  if (binary.length > 0) {
    const at = 20 + jsonPadded.length;
    view.setUint32(at, binary.length, true);
    view.setUint32(at + 4, CHUNK_BIN, true);
    out.set(binary, at + 8);
  }
  return out;
}

export interface ObjExport {
  obj: string;
  mtl: string;
  /** Texture pictures the MTL names (`map_Kd`), to be written beside it; only with a PNG encoder. */
  textures: { file: string; png: Uint8Array }[];
}

/** An OBJ name: no spaces or control characters, unique among `used`. */
function objName(name: string, used: Set<string>): string {
  const base = name.replace(/[^A-Za-z0-9_.-]/g, '_') || 'unnamed';
  let candidate = base;
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${base}_${n}`;
  used.add(candidate.toLowerCase());
  return candidate;
}

/**
 * OBJ has no hierarchy: each piece becomes an `o` group with its vertices moved by its offset and its
 * ancestors', in y-up axes. Faces are `f v/vt` triples; OBJ's texture v runs up, so vt = 1 − v.
 */
export function encodeObj(mesh: Mesh, mtlFile: string, options: ModelExportOptions = {}): ObjExport {
  const frame = options.frame ?? 0;
  const used = new Set<string>();
  const materialNames = mesh.materials.map((m) => objName(m.name, used));
  const textures: ObjExport['textures'] = [];
  const mtl: string[] = ['# ModPak Studio'];
  mesh.materials.forEach((m, i) => {
    const [r, g, b, a] = m.color;
    mtl.push(
      '',
      `newmtl ${materialNames[i]}`,
      `Kd ${(r / 255).toFixed(4)} ${(g / 255).toFixed(4)} ${(b / 255).toFixed(4)}`,
      `d ${(a / 255).toFixed(4)}`,
    );
    if (m.image && options.png) {
      const file = `${materialNames[i]}.png`;
      textures.push({ file, png: options.png(m.image) });
      mtl.push(`map_Kd ${file}`);
    }
  });
  const origins = pieceOrigins(mesh);
  const lines: string[] = ['# ModPak Studio', `mtllib ${mtlFile}`];
  const pieceNames = new Set<string>();
  let vertex = 1;
  mesh.pieces.forEach((piece, i) => {
    const origin = origins[i]!;
    lines.push(`o ${objName(piece.name, pieceNames)}`);
    for (const p of piece.primitives) {
      const positions = positionsAt(p, frame);
      const count = positions.length / 3;
      if (count < 3) continue;
      lines.push(`usemtl ${materialNames[p.material] ?? 'unnamed'}`);
      for (let v = 0; v < count; v++) {
        const [x, y, z] = toYUp(
          mesh.up,
          positions[v * 3]! + origin[0],
          positions[v * 3 + 1]! + origin[1],
          positions[v * 3 + 2]! + origin[2],
        );
        lines.push(`v ${fmt(x)} ${fmt(y)} ${fmt(z)}`);
      }
      for (let v = 0; v < count; v++) lines.push(`vt ${fmt(p.uvs[v * 2] ?? 0)} ${fmt(1 - (p.uvs[v * 2 + 1] ?? 0))}`);
      // A mirror (3DO) flips the winding: write those faces reversed so they still face outward.
      const mirrored = mesh.up === 'y';
      for (let t = 0; t + 2 < count; t += 3) {
        const [a, b, c] = mirrored ? [vertex + t + 2, vertex + t + 1, vertex + t] : [vertex + t, vertex + t + 1, vertex + t + 2];
        lines.push(`f ${a}/${a} ${b}/${b} ${c}/${c}`);
      }
      vertex += count;
    }
  });
  return { obj: lines.join('\n') + '\n', mtl: mtl.join('\n') + '\n', textures };
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
}
