import { ByteReader } from '../../bytes/reader.js';
import { fail } from '../../errors.js';
import { checkImageSize, indexedToRgba, type Palette } from '../image.js';
import { checkCounts, checkSoupSize, type AliasFrame, type AliasModel, type AliasSkin } from './alias.js';

/**
 * Quake's MDL (IDPO, version 6). Header, 84 bytes:
 *   0 "IDPO"   4 version (6)   8 scale (3 floats)   20 translate (3 floats)   32 bounding radius
 *  36 eye position (3 floats)  48 skin count  52 skin width  56 skin height  60 vertex count
 *  64 triangle count  68 frame count  72 sync type  76 flags  80 size
 * Then the skins (each: i32 type; 0 = one picture of width × height palette indices; else a group:
 * i32 count, count × f32 intervals, count pictures), the texture coordinates (per vertex: i32 on-seam,
 * i32 s, i32 t), the triangles (i32 faces-front, 3 × i32 vertex), and the frames (each: i32 type; 0 = one
 * frame: 4-byte min, 4-byte max, 16-byte name, 4 bytes per vertex (x, y, z, normal); else a group: i32 count,
 * min, max, count × f32 intervals, then count frames without their type).
 *
 * On-seam rule (as the engine draws it): a vertex on the seam used by a triangle that faces away takes
 * s + width/2, the back half of the skin. UV = (s + 0.5) / width, (t + 0.5) / height.
 */

const HEADER_SIZE = 84;
export const MDL_MAGIC = 0x4f504449; // "IDPO"

export function looksMdl(head: Uint8Array): boolean {
  return head.length >= 8 && head[0] === 0x49 && head[1] === 0x44 && head[2] === 0x50 && head[3] === 0x4f;
}

/** Decode an MDL; with a palette (Quake's), its skins become pictures. */
export function parseMdl(bytes: Uint8Array, palette?: Palette, what = 'MDL'): AliasModel {
  const r = new ByteReader(bytes, what);
  r.check('header', 0, HEADER_SIZE);
  if (r.u32(0) !== MDL_MAGIC) fail('bad-magic', `${what}: not an MDL (no IDPO signature)`, { offset: 0 });
  const version = r.u32(4);
  if (version !== 6)
    fail('unsupported', `${what}: MDL version ${version}; only version 6 (Quake) is read`, { expected: 6, actual: version });
  const scale = [r.f32(8), r.f32(12), r.f32(16)] as const;
  const translate = [r.f32(20), r.f32(24), r.f32(28)] as const;
  const skinCount = r.i32(48);
  const width = r.i32(52);
  const height = r.i32(56);
  const vertexCount = r.i32(60);
  const triangleCount = r.i32(64);
  const frameCount = r.i32(68);
  checkCounts(what, { skins: skinCount, vertices: vertexCount, triangles: triangleCount, frames: frameCount });
  checkImageSize(`${what}: skin`, width, height);

  let at = HEADER_SIZE;
  const skins: AliasSkin[] = [];
  const pixels = width * height;
  for (let s = 0; s < skinCount; s++) {
    const type = r.i32(at, `skin ${s} type`);
    at += 4;
    const inGroup = type === 0 ? 1 : r.i32(at, `skin ${s} group count`);
    if (type !== 0) {
      r.checkTable(`skin ${s} group intervals`, at + 4, inGroup, 4);
      at += 4 + inGroup * 4;
    }
    r.checkTable(`skin ${s} pictures`, at, inGroup, pixels);
    for (let g = 0; g < inGroup; g++) {
      const indices = r.slice(at, pixels, `skin ${s} picture ${g}`);
      const name = type === 0 ? `skin ${s}` : `skin ${s}.${g}`;
      skins.push(palette ? { name, image: indexedToRgba(width, height, indices, palette) } : { name });
      at += pixels;
    }
  }

  r.checkTable('texture coordinates', at, vertexCount, 12);
  const stAt = at;
  at += vertexCount * 12;
  r.checkTable('triangles', at, triangleCount, 16);
  const trisAt = at;
  at += triangleCount * 16;
  checkSoupSize(what, triangleCount, 1, bytes.length);

  const triangles = new Uint32Array(triangleCount * 3);
  const uvs = new Float32Array(triangleCount * 6);
  const halfWidth = Math.floor(width / 2);
  for (let t = 0; t < triangleCount; t++) {
    const base = trisAt + t * 16;
    const facesFront = r.i32(base) !== 0;
    for (let k = 0; k < 3; k++) {
      const v = r.i32(base + 4 + k * 4);
      if (v < 0 || v >= vertexCount)
        fail('out-of-bounds', `${what}: triangle ${t} uses vertex ${v}, but the model has ${vertexCount}`, {
          expected: vertexCount,
          actual: v,
        });
      triangles[t * 3 + k] = v;
      const onSeam = r.i32(stAt + v * 12) !== 0;
      let s = r.i32(stAt + v * 12 + 4);
      const tc = r.i32(stAt + v * 12 + 8);
      if (onSeam && !facesFront) s += halfWidth;
      uvs[t * 6 + k * 2] = width > 0 ? (s + 0.5) / width : 0;
      uvs[t * 6 + k * 2 + 1] = height > 0 ? (tc + 0.5) / height : 0;
    }
  }

  const frames: AliasFrame[] = [];
  const frameBytes = 24 + vertexCount * 4;
  const readFrame = (offset: number, label: string): void => {
    r.check(`${label}`, offset, frameBytes);
    checkSoupSize(what, triangleCount, frames.length + 1, bytes.length);
    const name = r.fixedString(offset + 8, 16, `${label} name`);
    const vertices = new Float32Array(vertexCount * 3);
    for (let v = 0; v < vertexCount; v++) {
      for (let k = 0; k < 3; k++) vertices[v * 3 + k] = bytes[offset + 24 + v * 4 + k]! * scale[k]! + translate[k]!;
    }
    frames.push({ name, vertices });
  };
  for (let f = 0; f < frameCount; f++) {
    const type = r.i32(at, `frame ${f} type`);
    at += 4;
    if (type === 0) {
      readFrame(at, `frame ${f}`);
      at += frameBytes;
      continue;
    }
    const inGroup = r.i32(at, `frame ${f} group count`);
    r.checkTable(`frame ${f} group intervals`, at + 12, inGroup, 4);
    at += 12 + inGroup * 4;
    r.checkTable(`frame ${f} group frames`, at, inGroup, frameBytes);
    for (let g = 0; g < inGroup; g++) {
      readFrame(at, `frame ${f}.${g}`);
      at += frameBytes;
    }
  }
  return {
    format: 'mdl',
    header: { skins: skinCount, frames: frameCount, vertices: vertexCount, triangles: triangleCount },
    skins,
    frames,
    triangles,
    uvs,
  };
}
