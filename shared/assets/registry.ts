import type { Palette } from './image.js';
import type { AssetView } from './view.js';
import { threeDoDecoder } from './ta/3do-asset.js';
import { dkmDecoder, md2Decoder, mdlDecoder } from './quake/model-asset.js';
import { palDecoder } from './ta/pal.js';
import { gafDecoder } from './ta/gaf-view.js';
import { bspDecoder, lmpDecoder, sprDecoder, walDecoder } from './quake/views.js';
import { pcxDecoder } from './pcx.js';
import { sp2Decoder } from './quake/sp2.js';
import { cobDecoder } from './ta/cob/decoder.js';
import { tntDecoder } from './ta/tnt-view.js';

/**
 * How a file becomes something the studio can show, whatever its format. Each asset format (GAF, 3DO,
 * COB, TNT, PAL, WAD lumps, WAL, LMP, SPR, SP2, PCX, MDL, MD2, DKM, BSP) exports one AssetDecoder from its own
 * module; `assetDecoders` lists them. The host builds an AssetContext from the mounted install (palettes
 * and textures come from the install's winners), so a decoder never knows where its bytes live.
 */

export type PaletteGame = 'ta' | 'quake' | 'quake2';

export interface AssetContext {
  /** The palette a paletted picture of this game uses: the install's winner, else a built-in copy. */
  palette(game: PaletteGame): Promise<Palette>;
  /** Another file of the same install (a texture GAF for a 3DO, the .ota beside a .tnt), or null if absent. */
  readFile(path: string): Promise<Uint8Array | null>;
  /** Paths of the install matching a glob (case-insensitive, e.g. `textures/*.gaf`), winners only. */
  list(glob: string): Promise<string[]>;
}

export interface AssetDecoder {
  /** Short id: 'gaf', '3do', 'cob', ... */
  readonly id: string;
  /** Whether this decoder takes the file, from its name and its first bytes (at most 64). */
  accepts(name: string, head: Uint8Array): boolean;
  /** Decode and describe. Throws FormatError on bad input. */
  view(name: string, bytes: Uint8Array, context: AssetContext): Promise<AssetView>;
}

/** Every asset decoder, first match wins. Add a line when a format arrives. */
export const assetDecoders: AssetDecoder[] = [
  palDecoder,
  gafDecoder,
  threeDoDecoder,
  mdlDecoder,
  md2Decoder,
  dkmDecoder,
  lmpDecoder,
  walDecoder,
  sprDecoder,
  sp2Decoder,
  pcxDecoder,
  bspDecoder,
  cobDecoder,
  tntDecoder,
];

/** The decoder for a file, or null when it is not an asset this program can show. */
export function assetDecoderFor(name: string, head: Uint8Array): AssetDecoder | null {
  return assetDecoders.find((d) => d.accepts(name, head)) ?? null;
}
