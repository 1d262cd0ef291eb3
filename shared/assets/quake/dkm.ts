import { ByteReader } from '../../bytes/reader.js';
import { fail } from '../../errors.js';
import { byteVertex, readMd2StyleTables, readScaledFrames, type AliasModel } from './alias.js';

/**
 * Daikatana's DKM (DKMD, versions 1 and 2): MD2's design with a model origin and surfaces. Header of i32
 * (after the ident and version):
 *   8 translate (3 floats, added to every frame's)  20 frame size  24 skins  28 vertices  32 texture coordinates
 *  36 triangles  40 GL command words  44 frames  48 surfaces  52 skins offset  56 st offset  60 triangles offset
 *  64 frames offset  68 GL commands offset  72 surfaces offset  76 end offset (not trusted, as for MD2)
 * Skins: 64-byte paths. Texture coordinates: i16 s, i16 t. Triangles, 16 bytes: i16 surface, i16 uv frames,
 * u16 vertex × 3, u16 st × 3. Frames: scale, translate, 16-byte name, then per vertex 4 bytes (version 1:
 * x, y, z, normal) or 5 bytes (version 2: a u32 with x in bits 21–31, y in 11–20, z in 0–10, then a
 * normal byte). The header has no skin size; texture coordinates are taken over 256 × 256 pixels (what
 * Daikatana's skins are), unless the caller knows the skin's size.
 */

export const DKM_MAGIC = 0x444d4b44; // "DKMD"
export const DKM_ST_SIZE = 256;

export function looksDkm(head: Uint8Array): boolean {
  return head.length >= 8 && head[0] === 0x44 && head[1] === 0x4b && head[2] === 0x4d && head[3] === 0x44;
}

export function parseDkm(bytes: Uint8Array, what = 'DKM', skinSize: [number, number] = [DKM_ST_SIZE, DKM_ST_SIZE]): AliasModel {
  const r = new ByteReader(bytes, what);
  r.check('header', 0, 76);
  if (r.u32(0) !== DKM_MAGIC) fail('bad-magic', `${what}: not a DKM (no DKMD signature)`, { offset: 0 });
  const version = r.u32(4);
  if (version !== 1 && version !== 2)
    fail('unsupported', `${what}: DKM version ${version}; versions 1 and 2 are read`, { actual: version });
  const translate: [number, number, number] = [r.f32(8), r.f32(12), r.f32(16)];
  const [frameSize, skins, vertices, stCount, triangles, , frames, , skinsAt, stAt, trisAt, framesAt] = Array.from({ length: 12 }, (_, i) =>
    r.i32(20 + i * 4),
  ) as [number, number, number, number, number, number, number, number, number, number, number, number];
  const [skinWidth, skinHeight] = skinSize;
  const tables = readMd2StyleTables(
    r,
    { skins, vertices, stCount, triangles, frames, frameSize, skinsAt, stAt, trisAt, skinWidth, skinHeight },
    { recordSize: 16, xyzAt: 4, stAt: 10 },
  );
  const layout = { offset: framesAt, count: frames, frameSize, vertexCount: vertices, vertexSize: version === 1 ? 4 : 5, translate };
  const frameList =
    version === 1
      ? readScaledFrames(r, layout, byteVertex(bytes))
      : readScaledFrames(r, layout, (at, out) => {
          const packed = r.u32(at);
          out[0] = packed >>> 21;
          out[1] = (packed >>> 11) & 0x3ff;
          out[2] = packed & 0x7ff;
        });
  return { format: 'dkm', header: { skins, frames, vertices, triangles }, frames: frameList, ...tables };
}
