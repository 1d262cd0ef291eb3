import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { writeFileAtomically } from '../io/byte-sink.js';
import { fail } from '../../shared/errors.js';
import type { AssetContext } from '../../shared/assets/registry.js';
import { looks3do, parse3do, threeDoInfo, type ThreeDoInfo } from '../../shared/assets/ta/3do.js';
import { decode3do } from '../../shared/assets/ta/3do-asset.js';
import { decodeAliasModel, parseAliasModel } from '../../shared/assets/quake/model-asset.js';
import type { AliasInfo } from '../../shared/assets/quake/alias.js';
import { encodeGlb, encodeObj, type PngEncoder } from '../../shared/assets/gltf.js';
import { frameCount } from '../../shared/assets/mesh-util.js';
import type { Mesh } from '../../shared/assets/mesh.js';

/**
 * The model commands' work (3DO, MDL, MD2, DKM): info and export to glTF/OBJ, over a file on disk or,
 * with an install, a path in its layered filesystem (palettes and textures from the same install).
 */

export interface ModelSourceOptions {
  install?: string;
  game?: string;
  mod?: string;
}

interface ModelSource {
  name: string;
  bytes: Uint8Array;
  context: AssetContext;
  close(): Promise<void>;
}

/** A context with no install behind it: no palette, no other files. */
const standalone: AssetContext = {
  palette: async (game) => fail('not-found', `no ${game} palette without --install`),
  readFile: async () => null,
  list: async () => [],
};

async function openModel(file: string, _options: ModelSourceOptions): Promise<ModelSource> {
  const bytes = new Uint8Array(await readFile(file));
  return { name: basename(file), bytes, context: standalone, close: async () => {} };
}

/** Textures as PNG, once a PNG encoder is available to this layer. */
const png: PngEncoder | undefined = undefined;

async function withModel<T>(file: string, options: ModelSourceOptions, use: (source: ModelSource) => Promise<T>): Promise<T> {
  const source = await openModel(file, options);
  try {
    return await use(source);
  } finally {
    await source.close();
  }
}

export function threeDoFileInfo(file: string, options: ModelSourceOptions = {}): Promise<ThreeDoInfo> {
  return withModel(file, options, async ({ bytes }) => {
    if (!looks3do(bytes)) fail('unknown-format', 'not a 3DO model (no version-1 object header)');
    return threeDoInfo(parse3do(bytes));
  });
}

export function modelFileInfo(file: string, options: ModelSourceOptions = {}): Promise<AliasInfo> {
  return withModel(file, options, async ({ bytes }) => {
    const model = parseAliasModel(bytes);
    return { format: model.format, ...model.header };
  });
}

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

function countTriangles(mesh: Mesh): number {
  return mesh.pieces.reduce((n, p) => n + p.primitives.reduce((m, q) => m + q.positions.length / 9, 0), 0);
}

export function export3do(file: string, target: string, kind: ExportKind, options: ModelSourceOptions = {}): Promise<ExportResult> {
  return withModel(file, options, async ({ name, bytes, context }) => {
    if (!looks3do(bytes)) fail('unknown-format', 'not a 3DO model (no version-1 object header)');
    const { result } = await decode3do(name, bytes, context);
    const files = await writeMesh(result.mesh, target, kind, 0);
    return { files, triangles: countTriangles(result.mesh), missingTextures: result.missingTextures };
  });
}

export function exportModel(file: string, target: string, frame: number, options: ModelSourceOptions = {}): Promise<ExportResult> {
  return withModel(file, options, async ({ name, bytes, context }) => {
    const decoded = await decodeAliasModel(name, bytes, context);
    const frames = Math.max(1, frameCount(decoded.mesh), decoded.model.frames.length);
    if (frame >= frames) {
      fail('out-of-bounds', `frame ${frame} does not exist (the model has ${decoded.model.frames.length} frame${decoded.model.frames.length === 1 ? '' : 's'})`, { expected: frames, actual: frame });
    }
    const files = await writeMesh(decoded.mesh, target, 'glb', frame);
    return { files, triangles: countTriangles(decoded.mesh), missingTextures: decoded.missingSkins };
  });
}
