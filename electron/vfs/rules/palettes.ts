import type { GameId } from '../../../shared/vfs-types.js';
import type { PaletteGame } from '../../../shared/assets/registry.js';

/**
 * Where each game keeps the palette its paletted pictures use, as a path in the mounted install: the
 * winner is the palette the game loads (a mod's copy wins, as in the engine).
 */
export const PALETTE_PATHS: Record<PaletteGame, string> = {
  ta: 'palettes/PALETTE.PAL',
  quake: 'gfx/palette.lmp',
  quake2: 'pics/colormap.pcx',
};

/** The palette family a mounted game's pictures use by default. */
export function paletteGameOf(game: GameId): PaletteGame {
  return game === 'quake2' || game === 'daikatana' ? 'quake2' : game === 'quake' ? 'quake' : 'ta';
}
