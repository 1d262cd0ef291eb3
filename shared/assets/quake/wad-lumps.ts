import { isConchars, looksLikeQpic } from './qpic.js';
import { looksLikeMiptex } from './miptex.js';
import { PALETTE_RGB_BYTES } from './palette.js';
import type { WadLumpKind, WadVersion } from './wad-types.js';

/**
 * What a lump is when nothing says (a folder of lumps being packed, a lump extracted without its directory
 * entry): recognised from its bytes. Quake's gfx.wad stores `conchars` (raw 128 × 128) under the miptex
 * type, so that is what it is given back.
 */
export function guessLumpKind(name: string, bytes: Uint8Array, version: WadVersion): WadLumpKind {
  if (version === 2 && isConchars(name, bytes)) return 'miptex';
  if (looksLikeMiptex(bytes)) return 'miptex';
  if (looksLikeQpic(bytes, version === 3)) return 'qpic';
  if (bytes.length === PALETTE_RGB_BYTES) return 'palette';
  return version === 3 ? 'raw' : 'palette';
}
