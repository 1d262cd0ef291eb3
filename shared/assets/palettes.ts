import { fail } from '../errors.js';
import { paletteFromRgb, type Palette } from './image.js';
import type { PaletteGame } from './registry.js';
import { builtInTaPalette } from './ta/palette.js';

/**
 * Palettes from the files that carry them, whatever the game: TA's PALETTE.PAL (256 × R, G, B, unused),
 * Quake's palette.lmp (256 × R, G, B), and a 256-colour PCX (Quake 2's pics/colormap.pcx: the palette is
 * the 768 bytes after the 0x0C marker at its end). Used by `--palette FILE` and by the install's winners.
 */
export function paletteFromFile(name: string, bytes: Uint8Array): Palette {
  if (bytes.length >= 769 && bytes[0] === 0x0a && bytes[bytes.length - 769] === 0x0c)
    return paletteFromRgb(name, bytes.subarray(bytes.length - 768));
  if (bytes.length === 1024) {
    const rgba = bytes.slice();
    for (let i = 3; i < 1024; i += 4) rgba[i] = 255;
    return { name, rgba };
  }
  if (bytes.length === 768) return paletteFromRgb(name, bytes);
  return fail(
    'unsupported',
    `${name}: not a palette (a PALETTE.PAL has 1024 bytes, a palette.lmp 768, a PCX ends with 0x0C and 768 bytes; this has ${bytes.length})`,
    { actual: bytes.length },
  );
}

/**
 * Built-in copies, for a file outside any install (or an install without its palette). A game's module
 * adds its own here; a game without one makes the caller name a palette.
 */
export const builtInPalettes: Partial<Record<PaletteGame, () => Palette>> = {
  ta: builtInTaPalette,
};
