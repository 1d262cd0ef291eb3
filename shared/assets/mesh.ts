import type { RgbaImage } from './image.js';

/**
 * A model as every model decoder returns it (TA 3DO, Quake MDL, Quake 2 MD2, Daikatana DKM), and as the
 * glTF writer and the studio's WebGL viewer take it. Triangles are non-indexed soups: three vertices per
 * triangle, which is what both three.js and a GLB accessor want without a second index pass.
 * Pure data: no Node, no DOM.
 */

export interface MeshMaterial {
  /** The texture's name as the model names it (a 3DO texture name, an MDL skin "skin 0"). */
  name: string;
  /** The picture, when it was found; absent for a missing texture or a flat colour. */
  image?: RgbaImage;
  /** RGBA 0–255, used when there is no image (3DO colour-index faces, missing textures). */
  color: [number, number, number, number];
  /** True when the model names a texture that could not be found (the viewer lists these). */
  missing?: boolean;
}

export interface MeshPrimitive {
  /** Index into Mesh.materials. */
  material: number;
  /** x, y, z per vertex, three vertices per triangle, in the piece's own space, game units. */
  positions: Float32Array;
  /** u, v per vertex (0–1, v down as in the picture); same vertex count as positions. */
  uvs: Float32Array;
  /** Animation frames (MDL, MD2, DKM): further position arrays, each as long as `positions` (frame 0). */
  framePositions?: Float32Array[];
}

export interface MeshPiece {
  name: string;
  /** Index of the parent piece in Mesh.pieces, or null for a root. Parents come before their children. */
  parent: number | null;
  /** Offset from the parent's origin, game units. */
  offset: [number, number, number];
  primitives: MeshPrimitive[];
}

export interface Mesh {
  /** Pieces depth-first pre-order (a piece, its children, then its next sibling). */
  pieces: MeshPiece[];
  materials: MeshMaterial[];
  /** Which axis the game calls up: TA's 3DO is y-up, the Quake family z-up. */
  up: 'y' | 'z';
  /** Names of the animation frames, when primitives carry framePositions (frame 0 first). */
  frameNames?: string[];
}
