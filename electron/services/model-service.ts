import { basename, dirname, extname, join } from 'node:path';
import { writeFileAtomically } from '../io/byte-sink.js';
import { fail } from '../../shared/errors.js';
import type { OpenedAsset } from './asset-service.js';
import { looks3do, parse3do, threeDoInfo, type ThreeDoInfo } from '../../shared/assets/ta/3do.js';
import { decode3do } from '../../shared/assets/ta/3do-asset.js';
import { decodeAliasModel, parseAliasModel } from '../../shared/assets/quake/model-asset.js';
import type { AliasInfo } from '../../shared/assets/quake/alias.js';
import { encodeGlb, encodeObj } from '../../shared/assets/gltf.js';
import { encodePng } from '../../shared/assets/png.js';
import { deflateZlib } from '../io/zlib.js';
import { frameCount, triangleCount } from '../../shared/assets/mesh-util.js';
import type { Mesh } from '../../shared/assets/mesh.js';

/**
 * The model commands' work (3DO, MDL, MD2, DKM): info and export to glTF/OBJ with embedded (GLB) or
 * side-by-side (OBJ) PNG textures, over an asset opened by asset-service (a file, or with an install a path
 * in its layered filesystem, palettes and textures from the same install).
 */

/** What the model functions take: the bytes and the context of an opened asset (see asset-service). */
export type ModelSource = Pick<OpenedAsset, 'name' | 'bytes' | 'context'>;

export function threeDoAssetInfo({ bytes }: ModelSource): ThreeDoInfo {
  if (!looks3do(bytes)) fail('unknown-format', 'not a 3DO model (no version-1 object header)');
  return threeDoInfo(parse3do(bytes));
}

export function modelAssetInfo({ bytes }: ModelSource): AliasInfo {
  const model = parseAliasModel(bytes);
  return { format: model.format, ...model.header };
}

const png = (image: Parameters<typeof encodePng>[0]) => encodePng(image, deflateZlib);

export type ExportKind = 'glb' | 'obj';

export interface ExportResult {
  files: string[];
  triangles: number;
  missingTextures: string[];
}

async function writeMesh(mesh: Mesh, target: string, kind: ExportKind, frame: number): Promise<string[]> {
  if (kind === 'glb') {
    const glb = encodeGlb(mesh, { frame, png });
    await writeFileAtomically(target, (sink) => sink.write(glb));
    return [target];
  }
  const mtlPath = join(dirname(target), `${basename(target, extname(target))}.mtl`);
  const out = encodeObj(mesh, basename(mtlPath), { frame, png });
  const written: string[] = [];
  for (const t of out.textures) {
    const path = join(dirname(target), t.file);
    await writeFileAtomically(path, (sink) => sink.write(t.png));
    written.push(path);
  }
  await writeFileAtomically(mtlPath, (sink) => sink.write(new TextEncoder().encode(out.mtl)));
  await writeFileAtomically(target, (sink) => sink.write(new TextEncoder().encode(out.obj)));
  return [...written, mtlPath, target];
}

export async function export3do({ name, bytes, context }: ModelSource, target: string, kind: ExportKind): Promise<ExportResult> {
  if (!looks3do(bytes)) fail('unknown-format', 'not a 3DO model (no version-1 object header)');
  const { result } = await decode3do(name, bytes, context);
  const files = await writeMesh(result.mesh, target, kind, 0);
  return { files, triangles: triangleCount(result.mesh), missingTextures: result.missingTextures };
}

export async function exportModel({ name, bytes, context }: ModelSource, target: string, frame: number): Promise<ExportResult> {
  const decoded = await decodeAliasModel(name, bytes, context);
  const frames = Math.max(1, frameCount(decoded.mesh), decoded.model.frames.length);
  if (frame >= frames) {
    fail(
      'out-of-bounds',
      `frame ${frame} does not exist (the model has ${decoded.model.frames.length} frame${decoded.model.frames.length === 1 ? '' : 's'})`,
      { expected: frames, actual: frame },
    );
  }
  const files = await writeMesh(decoded.mesh, target, 'glb', frame);
  return { files, triangles: triangleCount(decoded.mesh), missingTextures: decoded.missingSkins };
}
