import { ByteReader } from '../../bytes/reader.js';
import { fail } from '../../errors.js';
import { byteVertex, readMd2StyleTables, readScaledFrames, type AliasModel } from './alias.js';

/**
 * Quake 2's MD2 (IDP2, version 8). Header, 68 bytes of i32:
 *   0 "IDP2"  4 version (8)  8 skin width  12 skin height  16 frame size  20 skins  24 vertices
 *  28 texture coordinates  32 triangles  36 GL command words  40 frames  44 skins offset  48 st offset
 *  52 triangles offset  56 frames offset  60 GL commands offset  64 end offset
 * Skins: 64-byte paths (PCX files in the game's filesystem). Texture coordinates: i16 s, i16 t (pixels).
 * Triangles, 12 bytes: u16 vertex × 3, u16 st × 3. Frames (frame size each): scale, translate, 16-byte
 * name, 4 bytes per vertex (x, y, z, normal index). The GL commands repeat the triangles as strips and fans
 * and are not needed here; the end offset is not trusted (some tools write garbage there).
 */

export const MD2_MAGIC = 0x32504449; // "IDP2"

export function looksMd2(head: Uint8Array): boolean {
  return head.length >= 8 && head[0] === 0x49 && head[1] === 0x44 && head[2] === 0x50 && head[3] === 0x32;
}

export function parseMd2(bytes: Uint8Array, what = 'MD2'): AliasModel {
  const r = new ByteReader(bytes, what);
  r.check('header', 0, 64);
  if (r.u32(0) !== MD2_MAGIC) fail('bad-magic', `${what}: not an MD2 (no IDP2 signature)`, { offset: 0 });
  const version = r.u32(4);
  if (version !== 8)
    fail('unsupported', `${what}: MD2 version ${version}; only version 8 (Quake 2) is read`, { expected: 8, actual: version });
  const [skinWidth, skinHeight, frameSize, skins, vertices, stCount, triangles, , frames, skinsAt, stAt, trisAt, framesAt] = Array.from(
    { length: 13 },
    (_, i) => r.i32(8 + i * 4),
  ) as number[] as [number, number, number, number, number, number, number, number, number, number, number, number, number];
  const tables = readMd2StyleTables(
    r,
    { skins, vertices, stCount, triangles, frames, frameSize, skinsAt, stAt, trisAt, skinWidth, skinHeight },
    { recordSize: 12, xyzAt: 0, stAt: 6 },
  );
  const layout = { offset: framesAt, count: frames, frameSize, vertexCount: vertices, vertexSize: 4 };
  const frameList = readScaledFrames(r, layout, byteVertex(bytes));
  return { format: 'md2', header: { skins, frames, vertices, triangles }, frames: frameList, ...tables };
}
