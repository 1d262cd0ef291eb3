import type { ByteReader } from '../../bytes/reader.js';
import { fail } from '../../errors.js';
import type { RgbaImage } from '../image.js';
import type { Mesh, MeshMaterial } from '../mesh.js';

/**
 * What Quake's MDL, Quake 2's MD2 and Daikatana's DKM have in common ("alias models"): one mesh of
 * triangles over a vertex table that every animation frame moves, with skins. Each format's reader fills
 * an AliasModel; `aliasToMesh` turns it into the Mesh the glTF writer and the viewer take.
 * Pure: no Node, no DOM.
 */

export type AliasFormat = 'mdl' | 'md2' | 'dkm';

export interface AliasSkin {
  /** "skin 0", "skin 1.2" (MDL, decoded in the file), or the path the model names (MD2, DKM). */
  name: string;
  /** The picture, when the model carries it (MDL) or it was found. */
  image?: RgbaImage;
}

export interface AliasFrame {
  name: string;
  /** x, y, z per vertex of the model's vertex table, game units. */
  vertices: Float32Array;
}

export interface AliasModel {
  format: AliasFormat;
  /** Counts as the header gives them (MDL skin and frame groups count once). */
  header: { skins: number; frames: number; vertices: number; triangles: number };
  skins: AliasSkin[];
  /** Every frame, groups flattened in file order. */
  frames: AliasFrame[];
  /** Three vertex-table indices per triangle. */
  triangles: Uint32Array;
  /** u, v (0–1, v down) per triangle corner: 6 per triangle. */
  uvs: Float32Array;
}

export interface AliasInfo {
  format: AliasFormat;
  skins: number;
  frames: number;
  vertices: number;
  triangles: number;
}

export function aliasInfo(model: AliasModel): AliasInfo {
  return { format: model.format, ...model.header };
}

const UNTEXTURED: [number, number, number, number] = [200, 200, 200, 255];

/**
 * One piece named after the model, one primitive on skin 0 (the skin the game shows unless an entity
 * picks another); the other skins are further materials. Frames after the first go to framePositions.
 */
export function aliasToMesh(model: AliasModel, name: string): Mesh {
  const materials: MeshMaterial[] = model.skins.map((s) =>
    s.image ? { name: s.name, image: s.image, color: [255, 255, 255, 255] } : { name: s.name, color: UNTEXTURED, missing: true },
  );
  if (materials.length === 0) materials.push({ name: 'no skin', color: UNTEXTURED });
  const triangles = model.triangles.length / 3;
  const positionsOf = (frame: AliasFrame): Float32Array => {
    const out = new Float32Array(triangles * 9);
    for (let i = 0; i < triangles * 3; i++) {
      const v = model.triangles[i]!;
      out[i * 3] = frame.vertices[v * 3]!;
      out[i * 3 + 1] = frame.vertices[v * 3 + 1]!;
      out[i * 3 + 2] = frame.vertices[v * 3 + 2]!;
    }
    return out;
  };
  const [first, ...rest] = model.frames;
  const positions = first ? positionsOf(first) : new Float32Array(triangles * 9);
  const primitive = { material: 0, positions, uvs: model.uvs, ...(rest.length > 0 ? { framePositions: rest.map(positionsOf) } : {}) };
  return {
    pieces: [{ name, parent: null, offset: [0, 0, 0], primitives: [primitive] }],
    materials,
    up: 'z',
    frameNames: model.frames.map((f) => f.name),
  };
}

/**
 * Refuses a triangle count whose triangle soup (positions for every frame) would be larger than any real
 * model: checked before allocating, as counts come straight from the header.
 */
export function checkSoupSize(what: string, triangles: number, frames: number, fileLength: number): void {
  const floats = triangles * 9 * Math.max(1, frames);
  // A triangle costs at least 6 file bytes (three u16 indices) and a frame vertex at least 4; a soup is
  // bounded by (file bytes)² / 24 in principle, so cap it at a fixed, generous size instead.
  if (floats > 32 << 20 || triangles * 6 > fileLength) {
    fail('bad-count', `${what}: ${triangles} triangles × ${frames} frames is more than a ${fileLength}-byte model holds`, {
      actual: triangles,
    });
  }
}

/** The counts of an alias model's header (MDL has no texture-coordinate count or frame size). */
export interface AliasCounts {
  skins: number;
  vertices: number;
  stCount?: number;
  triangles: number;
  frames: number;
  frameSize?: number;
}

const COUNT_NAMES: readonly (readonly [keyof AliasCounts, string])[] = [
  ['skins', 'skin'],
  ['vertices', 'vertex'],
  ['stCount', 'texture coordinate'],
  ['triangles', 'triangle'],
  ['frames', 'frame'],
  ['frameSize', 'frame size'],
];

/** The header's counts are signed: a negative one is refused, by name, before anything is sized by it. */
export function checkCounts(what: string, counts: AliasCounts): void {
  for (const [key, field] of COUNT_NAMES) {
    const n = counts[key];
    if (n !== undefined && n < 0) fail('bad-count', `${what}: ${field} count ${n} is negative`, { actual: n });
  }
}

/** The NUL-padded 64-byte skin paths of MD2 and DKM. */
function readSkinNames(reader: ByteReader, offset: number, count: number): AliasSkin[] {
  reader.checkTable('skin names', offset, count, 64);
  const skins: AliasSkin[] = [];
  for (let i = 0; i < count; i++) skins.push({ name: reader.fixedString(offset + i * 64, 64, `skin ${i} name`) });
  return skins;
}

/**
 * MD2-style frames (MD2, DKM): at `offset + i × frameSize`, scale (3 floats), translate (3 floats), a
 * 16-byte name, then one vertex record of `vertexSize` bytes per vertex, decoded by `decode` into
 * integer x, y, z that scale and translate make game units.
 */
export function readScaledFrames(
  reader: ByteReader,
  layout: {
    offset: number;
    count: number;
    frameSize: number;
    vertexCount: number;
    vertexSize: number;
    translate?: [number, number, number];
  },
  decode: (at: number, out: Int32Array) => void,
): AliasFrame[] {
  const { offset, count, frameSize, vertexCount, vertexSize } = layout;
  const needed = 40 + vertexCount * vertexSize;
  if (frameSize < needed)
    fail('bad-count', `${reader.what}: frames of ${frameSize} bytes cannot hold ${vertexCount} vertices (${needed} bytes)`, {
      expected: needed,
      actual: frameSize,
    });
  reader.checkTable('frames', offset, count, frameSize);
  const extra = layout.translate ?? [0, 0, 0];
  const frames: AliasFrame[] = [];
  const xyz = new Int32Array(3);
  for (let f = 0; f < count; f++) {
    const at = offset + f * frameSize;
    const scale = [reader.f32(at), reader.f32(at + 4), reader.f32(at + 8)] as const;
    const translate = [reader.f32(at + 12) + extra[0], reader.f32(at + 16) + extra[1], reader.f32(at + 20) + extra[2]] as const;
    const name = reader.fixedString(at + 24, 16, `frame ${f} name`);
    const vertices = new Float32Array(vertexCount * 3);
    for (let v = 0; v < vertexCount; v++) {
      decode(at + 40 + v * vertexSize, xyz);
      for (let k = 0; k < 3; k++) vertices[v * 3 + k] = xyz[k]! * scale[k]! + translate[k]!;
    }
    frames.push({ name, vertices });
  }
  return frames;
}

/** MD2-style triangles: u16 vertex indices and u16 st indices, `st` as (s, t) pixel pairs. */
function readIndexedTriangles(
  reader: ByteReader,
  layout: {
    offset: number;
    count: number;
    recordSize: number;
    xyzAt: number;
    stAt: number;
    vertexCount: number;
    st: Int16Array;
    skinWidth: number;
    skinHeight: number;
  },
): { triangles: Uint32Array; uvs: Float32Array } {
  const { offset, count, recordSize, vertexCount, st } = layout;
  reader.checkTable('triangles', offset, count, recordSize);
  const triangles = new Uint32Array(count * 3);
  const uvs = new Float32Array(count * 6);
  const stCount = st.length / 2;
  const w = layout.skinWidth > 0 ? layout.skinWidth : 1;
  const h = layout.skinHeight > 0 ? layout.skinHeight : 1;
  for (let t = 0; t < count; t++) {
    const at = offset + t * recordSize;
    for (let k = 0; k < 3; k++) {
      const v = reader.u16(at + layout.xyzAt + k * 2);
      const s = reader.u16(at + layout.stAt + k * 2);
      if (v >= vertexCount)
        fail('out-of-bounds', `${reader.what}: triangle ${t} uses vertex ${v}, but the model has ${vertexCount}`, {
          expected: vertexCount,
          actual: v,
        });
      if (s >= stCount)
        fail('out-of-bounds', `${reader.what}: triangle ${t} uses texture coordinate ${s}, but the model has ${stCount}`, {
          expected: stCount,
          actual: s,
        });
      triangles[t * 3 + k] = v;
      uvs[t * 6 + k * 2] = st[s * 2]! / w;
      uvs[t * 6 + k * 2 + 1] = st[s * 2 + 1]! / h;
    }
  }
  return { triangles, uvs };
}

/** Texture coordinates (s, t) as signed 16-bit pixel pairs (MD2 and DKM). */
function readStPairs(reader: ByteReader, offset: number, count: number): Int16Array {
  reader.checkTable('texture coordinates', offset, count, 4);
  const st = new Int16Array(count * 2);
  for (let i = 0; i < count * 2; i++) st[i] = reader.i16(offset + i * 2);
  return st;
}

/** What an MD2-style header (MD2, DKM) says: all of its counts, where its tables start, and the skin's size in pixels. */
export interface Md2StyleHeader extends Required<AliasCounts> {
  skinsAt: number;
  stAt: number;
  trisAt: number;
  skinWidth: number;
  skinHeight: number;
}

/**
 * An MD2-style model's skins and triangles, its counts checked first. Triangle records are `recordSize`
 * bytes with the vertex indices at `xyzAt` and the texture-coordinate indices at `stAt`.
 */
export function readMd2StyleTables(
  reader: ByteReader,
  header: Md2StyleHeader,
  record: { recordSize: number; xyzAt: number; stAt: number },
): { skins: AliasSkin[]; triangles: Uint32Array; uvs: Float32Array } {
  const { what } = reader;
  checkCounts(what, header);
  const skins = readSkinNames(reader, header.skinsAt, header.skins);
  const st = readStPairs(reader, header.stAt, header.stCount);
  checkSoupSize(what, header.triangles, header.frames, reader.length);
  const indexed = readIndexedTriangles(reader, {
    offset: header.trisAt,
    count: header.triangles,
    ...record,
    vertexCount: header.vertices,
    st,
    skinWidth: header.skinWidth,
    skinHeight: header.skinHeight,
  });
  return { skins, ...indexed };
}

/** A frame vertex of three unsigned bytes x, y, z (MD2, DKM version 1), for readScaledFrames. */
export const byteVertex =
  (bytes: Uint8Array) =>
  (at: number, out: Int32Array): void => {
    out[0] = bytes[at]!;
    out[1] = bytes[at + 1]!;
    out[2] = bytes[at + 2]!;
  };
