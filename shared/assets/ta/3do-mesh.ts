import type { Palette, RgbaImage } from '../image.js';
import type { Mesh, MeshMaterial, MeshPiece, MeshPrimitive } from '../mesh.js';
import type { ThreeDoModel, ThreeDoObject } from './3do.js';

/**
 * A parsed 3DO as a Mesh: one piece per object, one primitive per material the object uses, polygons
 * triangulated as a fan from their first vertex. Textures come through an injected lookup (the install's
 * `textures/*.gaf`, frame 0 of the sequence with the texture's name), so this stays pure and testable.
 *
 * UVs follow TA's convention: a textured polygon's vertices 0, 1, 2, 3 take the picture's top-left,
 * top-right, bottom-right and bottom-left corners; a triangle takes the first three; longer polygons cycle
 * through the four corners. 1- and 2-vertex primitives (lines and points the game never draws) are
 * skipped and counted, and so is the root's selection primitive (the ground rectangle the game draws as the
 * selection box) when it is one: an untextured quad. Some features and weapons leave the field at 0 with a
 * real face there (a textured quad, a triangle), which is drawn.
 */

export type TextureLookup = (name: string) => Promise<RgbaImage | null>;

export interface ThreeDoMeshOptions {
  /** The TA palette, for flat-colour primitives; without it they are grey. */
  palette?: Palette;
  /** Finds a texture by its 3DO name; without it every texture is missing. */
  textures?: TextureLookup;
}

export interface ThreeDoMeshResult {
  mesh: Mesh;
  /** Texture names the lookup did not find, unique and sorted. */
  missingTextures: string[];
  /** Primitives with fewer than 3 vertices, not drawn. */
  degeneratePrimitives: number;
  /** Whether the root's selection primitive was left out. */
  selectionPrimitiveSkipped: boolean;
}

const CORNERS: [number, number][] = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
];
const MISSING_COLOUR: [number, number, number, number] = [176, 112, 160, 255];
const GREY: [number, number, number, number] = [160, 160, 160, 255];

export async function threeDoToMesh(model: ThreeDoModel, options: ThreeDoMeshOptions = {}): Promise<ThreeDoMeshResult> {
  const materials: MeshMaterial[] = [];
  const materialIndex = new Map<string, number>();
  const missing = new Set<string>();
  const textureCache = new Map<string, RgbaImage | null>();

  async function materialFor(texture: string | null, colorIndex: number): Promise<number> {
    const key = texture === null ? `#${colorIndex}` : `t:${texture.toLowerCase()}`;
    const known = materialIndex.get(key);
    if (known !== undefined) return known;
    let material: MeshMaterial;
    if (texture === null) {
      material = { name: `colour ${colorIndex}`, color: paletteColour(options.palette, colorIndex) };
    } else {
      let image = textureCache.get(texture.toLowerCase());
      if (image === undefined) {
        image = options.textures ? await options.textures(texture) : null;
        textureCache.set(texture.toLowerCase(), image);
      }
      if (image) material = { name: texture, image, color: [255, 255, 255, 255] };
      else {
        missing.add(texture);
        material = { name: texture, color: MISSING_COLOUR, missing: true };
      }
    }
    materialIndex.set(key, materials.length);
    materials.push(material);
    return materials.length - 1;
  }

  let degenerate = 0;
  let selectionSkipped = false;
  const pieces: MeshPiece[] = [];
  for (let o = 0; o < model.objects.length; o++) {
    const object = model.objects[o]!;
    const skip = o === 0 ? selectionQuad(object) : -1;
    const byMaterial = new Map<number, { positions: number[]; uvs: number[] }>();
    for (let p = 0; p < object.primitives.length; p++) {
      const primitive = object.primitives[p]!;
      if (p === skip) {
        selectionSkipped = true;
        continue;
      }
      if (primitive.indices.length < 3) {
        degenerate++;
        continue;
      }
      const material = await materialFor(primitive.texture, primitive.colorIndex);
      let soup = byMaterial.get(material);
      if (!soup) byMaterial.set(material, (soup = { positions: [], uvs: [] }));
      appendFan(object, primitive.indices, soup);
    }
    const primitives: MeshPrimitive[] = [...byMaterial].map(([material, soup]) => ({
      material,
      positions: Float32Array.from(soup.positions),
      uvs: Float32Array.from(soup.uvs),
    }));
    pieces.push({ name: object.name, parent: object.parent, offset: [...object.offset], primitives });
  }
  return {
    mesh: { pieces, materials, up: 'y' },
    missingTextures: [...missing].sort(),
    degeneratePrimitives: degenerate,
    selectionPrimitiveSkipped: selectionSkipped,
  };
}

/** The root's selection primitive when it is the untextured quad the game uses for it, else -1. */
function selectionQuad(object: ThreeDoObject): number {
  const p = object.primitives[object.selectionPrimitive];
  return p && p.texture === null && p.indices.length === 4 ? object.selectionPrimitive : -1;
}

/** Triangles (0, i, i+1) of a convex polygon, with TA's corner UVs. */
function appendFan(object: ThreeDoObject, indices: number[], soup: { positions: number[]; uvs: number[] }): void {
  for (let i = 1; i + 1 < indices.length; i++) {
    for (const k of [0, i, i + 1]) {
      const v = indices[k]!;
      soup.positions.push(object.vertices[v * 3]!, object.vertices[v * 3 + 1]!, object.vertices[v * 3 + 2]!);
      const corner = CORNERS[k % 4]!;
      soup.uvs.push(corner[0], corner[1]);
    }
  }
}

function paletteColour(palette: Palette | undefined, index: number): [number, number, number, number] {
  if (!palette || index > 255) return GREY;
  const rgba = palette.rgba;
  return [rgba[index * 4]!, rgba[index * 4 + 1]!, rgba[index * 4 + 2]!, 255];
}
