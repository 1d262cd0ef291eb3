import { ByteReader } from '../../bytes/reader.js';
import { fail } from '../../errors.js';

/**
 * Total Annihilation's 3DO model: a tree of objects (pieces), each linked to its first child and its next
 * sibling by file offset, with 16.16 fixed-point vertices and an offset from its parent, and primitives
 * (polygons) that index the object's vertices and name a GAF texture or a palette colour.
 * Pure: no Node, no DOM. Every offset and count is checked before use; the tree is cycle-guarded.
 *
 * Object header, 52 bytes (all little-endian 32-bit):
 *   0 version (1)          4 vertex count          8 primitive count      12 selection primitive (-1: none)
 *  16 x from parent       20 y from parent        24 z from parent        28 name offset
 *  32 always 0            36 vertex array offset  40 primitive array offset
 *  44 next sibling offset (0: none)               48 first child offset (0: none)
 * Vertex, 12 bytes: x, y, z (16.16 fixed point).
 * Primitive, 32 bytes:
 *   0 colour index         4 vertex index count    8 always 0             12 vertex index array offset (u16 each)
 *  16 texture name offset (0: a flat colour)      20, 24 unknown          28 "is coloured" flag
 */

export const OBJECT_HEADER_SIZE = 52;
export const VERTEX_SIZE = 12;
export const PRIMITIVE_SIZE = 32;
/** 16.16 fixed point: game units × 65536. */
export const FIXED_ONE = 65536;
const MAX_NAME = 256;

export interface ThreeDoPrimitive {
  colorIndex: number;
  /** Indices into the object's vertices, in file order. */
  indices: number[];
  /** The GAF texture it names, or null for a flat palette colour. */
  texture: string | null;
}

export interface ThreeDoObject {
  name: string;
  /** Index of the parent in ThreeDoModel.objects, or null for a root. */
  parent: number | null;
  /** Offset from the parent, game units (the 16.16 value / 65536). */
  offset: [number, number, number];
  /** x, y, z per vertex, game units. */
  vertices: Float32Array;
  primitives: ThreeDoPrimitive[];
  /** The primitive the game draws as the selection box (only the root's counts), or -1. */
  selectionPrimitive: number;
}

export interface ThreeDoModel {
  /** Depth-first pre-order: an object, its children, then its next sibling. */
  objects: ThreeDoObject[];
}

/** Whether bytes look like a 3DO: version 1 and a sane first header (names carry no magic). */
export function looks3do(head: Uint8Array): boolean {
  if (head.length < OBJECT_HEADER_SIZE) return false;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  return view.getUint32(0, true) === 1 && view.getUint32(32, true) === 0 && view.getUint32(28, true) >= OBJECT_HEADER_SIZE;
}

/** Parse a 3DO's object tree. Throws FormatError on anything out of bounds or cyclic. */
export function parse3do(bytes: Uint8Array, what = '3DO'): ThreeDoModel {
  const reader = new ByteReader(bytes, what);
  // Honest files keep each vertex and index array in its own bytes; capping the totals at what the file
  // could hold keeps a damaged file that points many objects at one huge array from allocating gigabytes.
  const budget = { vertices: Math.floor(bytes.length / VERTEX_SIZE) * 4, indices: bytes.length };
  const objects: ThreeDoObject[] = [];
  walkTree(reader, (offset, parent) => {
    const { object, sibling, child } = readObject(reader, offset, parent, budget);
    objects.push(object);
    return { sibling, child };
  });
  return { objects };
}

/**
 * The piece (object) names alone, in the same pre-order as parse3do, reading only each object's header and
 * name: no vertices or primitives are decoded or checked. For checking a script's pieces against its model.
 */
export function threeDoPieceNames(bytes: Uint8Array, what = '3DO'): string[] {
  const reader = new ByteReader(bytes, what);
  const names: string[] = [];
  walkTree(reader, (at) => {
    const header = checkHeader(reader, at);
    names.push(header.name);
    return header;
  });
  return names;
}

/**
 * Walks the first-child/next-sibling tree from offset 0 in pre-order; `visit` reads the object at `at`
 * (its index is the number visited before it) and gives its links. Cycle-guarded, and with an explicit
 * stack, not recursion: a deep (damaged) tree must not overflow the JS stack.
 */
function walkTree(reader: ByteReader, visit: (at: number, parent: number | null) => { sibling: number; child: number }): void {
  if (reader.length < OBJECT_HEADER_SIZE) {
    fail('truncated', `${reader.what}: ${reader.length} bytes is shorter than one ${OBJECT_HEADER_SIZE}-byte object header`, {
      expected: OBJECT_HEADER_SIZE,
      actual: reader.length,
    });
  }
  const visited = new Set<number>();
  const stack: { offset: number; parent: number | null }[] = [{ offset: 0, parent: null }];
  while (stack.length > 0) {
    const { offset, parent } = stack.pop()!;
    if (visited.has(offset)) fail('bad-stream', `${reader.what}: object at ${offset} is reached twice (the tree has a cycle)`, { offset });
    const index = visited.size;
    visited.add(offset);
    const { sibling, child } = visit(offset, parent);
    // The sibling shares this object's parent; pushed first so the whole child subtree comes before it.
    if (sibling !== 0) stack.push({ offset: sibling, parent });
    if (child !== 0) stack.push({ offset: child, parent: index });
  }
}

/** An object header's version, name and links, checked. */
function checkHeader(reader: ByteReader, at: number): { name: string; sibling: number; child: number } {
  reader.check(`object header at ${at}`, at, OBJECT_HEADER_SIZE);
  const version = reader.u32(at);
  if (version !== 1)
    fail('bad-magic', `${reader.what}: object at ${at} has version ${version}, expected 1`, { offset: at, expected: 1, actual: version });
  return {
    name: reader.cString(reader.u32(at + 28), MAX_NAME, `name of object at ${at}`),
    sibling: reader.u32(at + 44),
    child: reader.u32(at + 48),
  };
}

function readObject(
  reader: ByteReader,
  at: number,
  parent: number | null,
  budget: { vertices: number; indices: number },
): { object: ThreeDoObject; sibling: number; child: number } {
  const what = reader.what;
  const { name, sibling, child } = checkHeader(reader, at);
  const vertexCount = reader.u32(at + 4);
  const primitiveCount = reader.u32(at + 8);
  const selectionPrimitive = reader.i32(at + 12);
  const offset: [number, number, number] = [
    reader.i32(at + 16) / FIXED_ONE,
    reader.i32(at + 20) / FIXED_ONE,
    reader.i32(at + 24) / FIXED_ONE,
  ];
  const vertexOffset = reader.u32(at + 36);
  const primitiveOffset = reader.u32(at + 40);

  reader.checkTable(`vertices of "${name}"`, vertexOffset, vertexCount, VERTEX_SIZE);
  budget.vertices -= vertexCount;
  if (budget.vertices < 0)
    fail('bad-count', `${what}: "${name}" brings the vertex total past what a ${reader.length}-byte file can hold`, {
      actual: vertexCount,
    });
  const vertices = new Float32Array(vertexCount * 3);
  for (let i = 0; i < vertexCount * 3; i++) vertices[i] = reader.i32(vertexOffset + i * 4) / FIXED_ONE;

  reader.checkTable(`primitives of "${name}"`, primitiveOffset, primitiveCount, PRIMITIVE_SIZE);
  const primitives: ThreeDoPrimitive[] = [];
  for (let p = 0; p < primitiveCount; p++) {
    const base = primitiveOffset + p * PRIMITIVE_SIZE;
    const colorIndex = reader.u32(base);
    const indexCount = reader.u32(base + 4);
    const indexOffset = reader.u32(base + 12);
    const textureOffset = reader.u32(base + 16);
    reader.checkTable(`vertex indices of "${name}" primitive ${p}`, indexOffset, indexCount, 2);
    budget.indices -= indexCount;
    if (budget.indices < 0)
      fail('bad-count', `${what}: "${name}" primitive ${p} brings the index total past what a ${reader.length}-byte file can hold`, {
        actual: indexCount,
      });
    const indices: number[] = [];
    for (let i = 0; i < indexCount; i++) {
      const v = reader.u16(indexOffset + i * 2);
      if (v >= vertexCount)
        fail('out-of-bounds', `${what}: "${name}" primitive ${p} uses vertex ${v}, but the object has ${vertexCount}`, {
          expected: vertexCount,
          actual: v,
        });
      indices.push(v);
    }
    const texture = textureOffset === 0 ? null : reader.cString(textureOffset, MAX_NAME, `texture name of "${name}" primitive ${p}`);
    primitives.push({ colorIndex, indices, texture });
  }
  return { object: { name, parent, offset, vertices, primitives, selectionPrimitive }, sibling, child };
}

/** The textures a model names: unique, sorted. */
export function threeDoTextureNames(model: ThreeDoModel): string[] {
  const names = new Set<string>();
  for (const o of model.objects) for (const p of o.primitives) if (p.texture !== null) names.add(p.texture);
  return [...names].sort();
}

/** `modpak 3do info --json`: pieces in pre-order with their parent's name, and the textures. */
export interface ThreeDoInfo {
  pieces: { name: string; parent: string | null; offset: [number, number, number]; vertices: number; primitives: number }[];
  textures: string[];
}

export function threeDoInfo(model: ThreeDoModel): ThreeDoInfo {
  return {
    pieces: model.objects.map((o) => ({
      name: o.name,
      parent: o.parent === null ? null : model.objects[o.parent]!.name,
      offset: o.offset,
      vertices: o.vertices.length / 3,
      primitives: o.primitives.length,
    })),
    textures: threeDoTextureNames(model),
  };
}
