import { fail, FormatError } from '../../errors.js';
import { decodePcx } from '../pcx.js';
import { decodeWal } from './wal.js';
import { indexedToRgba, type Palette, type RgbaImage } from '../image.js';
import type { Mesh } from '../mesh.js';
import type { AssetContext, AssetDecoder } from '../registry.js';
import type { ModelView } from '../view.js';
import { aliasInfo, aliasToMesh, type AliasInfo, type AliasModel } from './alias.js';
import { looksDkm, parseDkm } from './dkm.js';
import { looksMd2, parseMd2 } from './md2.js';
import { looksMdl, parseMdl } from './mdl.js';

/**
 * Quake-family models (MDL, MD2, DKM) as the studio and the CLI see them: recognised from their bytes,
 * MDL skins through the install's Quake palette, MD2/DKM skins read from the paths they name.
 */

const FORMAT_NAMES = { mdl: 'Quake MDL', md2: 'Quake 2 MD2', dkm: 'Daikatana DKM' } as const;

export function looksAliasModel(head: Uint8Array): boolean {
  return looksMdl(head) || looksMd2(head) || looksDkm(head);
}

/** Decode from the bytes alone (no skins for MD2/DKM, MDL skins only with a palette). */
export function parseAliasModel(bytes: Uint8Array, palette?: Palette): AliasModel {
  if (looksMdl(bytes)) return parseMdl(bytes, palette);
  if (looksMd2(bytes)) return parseMd2(bytes);
  if (looksDkm(bytes)) return parseDkm(bytes);
  return fail('unknown-format', 'not a Quake MDL, Quake 2 MD2 or Daikatana DKM model (no IDPO, IDP2 or DKMD signature)');
}

/** Reads a skin picture the model names; null where it is absent or not a picture this program decodes. */
export type SkinLoader = (path: string) => Promise<RgbaImage | null>;

/**
 * Skins named by path, read from the install: PCX pictures (Quake 2's) and WAL textures (mip 0; Daikatana's
 * carry their own palette, Quake 2's use the install's). Daikatana often names a .bmp or .tga that ships as
 * a .wal or .pcx: the same path with those extensions is tried next. A skin that is absent or not one of
 * these pictures is reported missing.
 */
export function installSkinLoader(context: AssetContext): SkinLoader {
  const decode = async (path: string, bytes: Uint8Array): Promise<RgbaImage> => {
    if (!/\.wal$/i.test(path)) return decodePcx(bytes);
    const wal = decodeWal(bytes, path);
    const mip = wal.mips[0];
    if (!mip) return fail('bad-count', `${path}: a WAL with no mip levels`);
    const palette = wal.palette ?? (await context.palette('quake2'));
    return indexedToRgba(mip.width, mip.height, mip.indices, palette, wal.game === 'daikatana' ? wal.transparentIndex : -1);
  };
  return async (path) => {
    const base = path.replace(/\.[^./]*$/, '');
    const candidates = [...new Set([path, `${base}.pcx`, `${base}.wal`])];
    for (const candidate of candidates) {
      const bytes = await context.readFile(candidate);
      if (!bytes) continue;
      try {
        return await decode(candidate, bytes);
      } catch (error) {
        if (!(error instanceof FormatError)) throw error;
      }
    }
    return null;
  };
}

export interface DecodedAlias {
  model: AliasModel;
  info: AliasInfo;
  mesh: Mesh;
  palette?: Palette;
  missingSkins: string[];
}

export async function decodeAliasModel(name: string, bytes: Uint8Array, context: AssetContext, skins?: SkinLoader): Promise<DecodedAlias> {
  let palette: Palette | undefined;
  if (looksMdl(bytes)) palette = await context.palette('quake').catch(() => undefined);
  const model = parseAliasModel(bytes, palette);
  const missingSkins: string[] = [];
  if (model.format !== 'mdl') {
    const load = skins ?? installSkinLoader(context);
    for (const skin of model.skins) {
      const image = await load(skin.name);
      if (image) skin.image = image;
      else missingSkins.push(skin.name);
    }
  } else if (!palette && model.skins.length > 0) {
    missingSkins.push(...model.skins.map((s) => s.name));
  }
  const base = name.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') || 'model';
  return { model, info: aliasInfo(model), mesh: aliasToMesh(model, base), palette, missingSkins };
}

export function aliasView(decoded: DecodedAlias): ModelView {
  const { info } = decoded;
  const warnings: string[] = [];
  if (decoded.missingSkins.length > 0) warnings.push(`missing skins: ${decoded.missingSkins.join(', ')}`);
  return {
    kind: 'model',
    format: FORMAT_NAMES[info.format],
    facts: [
      { label: 'Skins', value: String(info.skins) },
      { label: 'Frames', value: String(info.frames) },
      { label: 'Vertices', value: String(info.vertices) },
      { label: 'Triangles', value: String(info.triangles) },
      ...(decoded.model.skins.length > 0 ? [{ label: 'Skin names', value: decoded.model.skins.map((s) => s.name).join(', ') }] : []),
      ...(decoded.palette ? [{ label: 'Palette', value: decoded.palette.name }] : []),
    ],
    warnings,
    mesh: decoded.mesh,
    missingTextures: decoded.missingSkins,
  };
}

/** One decoder per format, recognised from the signature (the bytes decide, not the extension). */
function aliasDecoder(id: string, looks: (head: Uint8Array) => boolean): AssetDecoder {
  return {
    id,
    accepts: (_name, head) => looks(head),
    view: async (name, bytes, context) => aliasView(await decodeAliasModel(name, bytes, context)),
  };
}

export const mdlDecoder = aliasDecoder('mdl', looksMdl);
export const md2Decoder = aliasDecoder('md2', looksMd2);
export const dkmDecoder = aliasDecoder('dkm', looksDkm);
