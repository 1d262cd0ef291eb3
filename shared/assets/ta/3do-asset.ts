import { FormatError } from '../../errors.js';
import type { Palette, RgbaImage } from '../image.js';
import type { AssetContext, AssetDecoder } from '../registry.js';
import type { ModelView } from '../view.js';
import { looks3do, parse3do, threeDoInfo, type ThreeDoModel } from './3do.js';
import { threeDoToMesh, type TextureLookup, type ThreeDoMeshResult } from './3do-mesh.js';
import { readGaf } from './gaf.js';
import { renderGafFrame } from './gaf-pixels.js';

/**
 * A 3DO as the studio and the CLI see it: decoded, textured from the install (the GAF sequence with the
 * texture's name, frame 0, from any of its `textures/*.gaf`), coloured with the install's TA palette.
 */

/** Pictures by sequence name from one texture GAF: frame 0 of each sequence, rendered with the palette. */
export type GafTextureReader = (bytes: Uint8Array, palette: Palette, what: string) => Map<string, RgbaImage>;

/** The GAF decoder's reading of a texture GAF (the readers are injectable so tests can stand one in). */
export const gafTextures: GafTextureReader = (bytes, palette, what) => {
  const gaf = readGaf(bytes, what);
  const out = new Map<string, RgbaImage>();
  for (const sequence of gaf.sequences) {
    const first = sequence.frames[0];
    if (first) out.set(sequence.name, renderGafFrame(bytes, gaf.variant, first, palette, `${what}: ${sequence.name}`));
  }
  return out;
};

/**
 * The install's textures: every `textures/*.gaf` winner, indexed by sequence name (case-insensitive, as
 * TA matches them). The index is built on the first lookup; a GAF that fails to decode is skipped (the
 * textures it would have given are reported missing, like any other).
 */
export function installTextureLookup(context: AssetContext, reader: GafTextureReader = gafTextures): TextureLookup {
  let index: Promise<Map<string, RgbaImage>> | null = null;
  const build = async (): Promise<Map<string, RgbaImage>> => {
    const found = new Map<string, RgbaImage>();
    const palette = await paletteOrNone(context);
    if (!palette) return found;
    for (const path of (await context.list('textures/*.gaf')).sort()) {
      const bytes = await context.readFile(path);
      if (!bytes) continue;
      try {
        for (const [name, image] of reader(bytes, palette, path)) if (!found.has(name.toLowerCase())) found.set(name.toLowerCase(), image);
      } catch (error) {
        if (!(error instanceof FormatError)) throw error;
      }
    }
    return found;
  };
  return async (name) => (await (index ??= build())).get(name.toLowerCase()) ?? null;
}

async function paletteOrNone(context: AssetContext): Promise<Palette | undefined> {
  try {
    return await context.palette('ta');
  } catch {
    return undefined;
  }
}

export interface Decoded3do {
  model: ThreeDoModel;
  result: ThreeDoMeshResult;
  palette?: Palette;
}

export async function decode3do(name: string, bytes: Uint8Array, context: AssetContext, textures?: TextureLookup): Promise<Decoded3do> {
  const model = parse3do(bytes);
  const palette = await paletteOrNone(context);
  const result = await threeDoToMesh(model, { palette, textures: textures ?? installTextureLookup(context) });
  return { model, result, palette };
}

export function threeDoView(decoded: Decoded3do): ModelView {
  const info = threeDoInfo(decoded.model);
  const { result } = decoded;
  const count = (f: (p: (typeof info.pieces)[number]) => number) => info.pieces.reduce((n, p) => n + f(p), 0);
  const warnings: string[] = [];
  if (result.degeneratePrimitives > 0)
    warnings.push(
      `${result.degeneratePrimitives} primitive${result.degeneratePrimitives === 1 ? '' : 's'} with fewer than 3 vertices not drawn`,
    );
  if (result.missingTextures.length > 0) warnings.push(`missing textures: ${result.missingTextures.join(', ')}`);
  if (!decoded.palette) warnings.push('no TA palette: flat colours are grey');
  return {
    kind: 'model',
    format: '3DO model (TA)',
    facts: [
      { label: 'Pieces', value: String(info.pieces.length) },
      { label: 'Vertices', value: String(count((p) => p.vertices)) },
      { label: 'Primitives', value: String(count((p) => p.primitives)) },
      { label: 'Textures', value: String(info.textures.length) },
      { label: 'Selection primitive', value: result.selectionPrimitiveSkipped ? 'yes (not drawn)' : 'none' },
      ...(decoded.palette ? [{ label: 'Palette', value: decoded.palette.name }] : []),
    ],
    warnings,
    mesh: result.mesh,
    missingTextures: result.missingTextures,
  };
}

export const threeDoDecoder: AssetDecoder = {
  id: '3do',
  accepts: (name, head) => name.toLowerCase().endsWith('.3do') && looks3do(head),
  view: async (name, bytes, context) => threeDoView(await decode3do(name, bytes, context)),
};
