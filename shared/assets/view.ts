import type { RgbaImage } from './image.js';
import type { Mesh } from './mesh.js';

/**
 * What the studio shows for a decoded asset, whatever its format: pictures (GAF sequences, mip levels,
 * sprite frames, a map render), a model, source text, or several of these. Each format turns its decoded
 * form into one of these; the studio's viewers know only these shapes, never a file format.
 * Pure data: no Node, no DOM. Typed arrays inside travel over the contract through its wire encoding.
 */

/** One labelled fact shown beside the view ("Version", "0x00010100"). */
export interface AssetFact {
  label: string;
  value: string;
}

export interface ImageFrame {
  image: RgbaImage;
  /** How long the game shows it (GAF durations, sprite group intervals), for playback. */
  durationMs?: number;
  label?: string;
  /**
   * A palette swatch: the picture is a `paletteGrid` × `paletteGrid` grid of equal cells, cell i (row by
   * row from the top left) showing palette index i; the studio names the index under the pointer.
   */
  paletteGrid?: number;
}

export interface ImageGroup {
  /** A GAF sequence, "mip 0", a sprite group, "minimap". */
  name: string;
  frames: ImageFrame[];
}

interface ViewBase {
  /** The format as a person says it: "GAF (TA)", "3DO model", "COB script (version 4)". */
  format: string;
  facts: AssetFact[];
  /** Soft problems met while decoding, said under the view. */
  warnings: string[];
}

export interface ImagesView extends ViewBase {
  kind: 'images';
  groups: ImageGroup[];
  /** The palette used, named under the picture; absent for truecolour pictures. */
  palette?: string;
}

export interface ModelView extends ViewBase {
  kind: 'model';
  mesh: Mesh;
  /** Textures the model names that the install does not have. */
  missingTextures: string[];
}

export interface TextView extends ViewBase {
  kind: 'text';
  text: string;
  /** How to colour it. */
  language: 'bos' | 'entities' | 'tdf' | 'plain';
}

export interface SectionsView extends ViewBase {
  kind: 'sections';
  sections: { title: string; view: AssetView }[];
}

export type AssetView = ImagesView | ModelView | TextView | SectionsView;
