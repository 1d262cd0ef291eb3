import type { GameId } from '../../../shared/vfs-types.js';

/**
 * The Quake family keeps its data in a folder under the game's folder: Quake `id1`, Quake 2 `baseq2`,
 * Daikatana `data`, Half-Life `valve`. A mod is another folder beside it (`quake -game mymod`), searched
 * before the base folder: its paks and files win over the base folder's. Inside each folder the game's own
 * rules hold (pak numbers, loose files after or before the paks).
 */
export const BASE_FOLDERS: Readonly<Partial<Record<GameId, string>>> = {
  quake: 'id1',
  quake2: 'baseq2',
  daikatana: 'data',
  halflife: 'valve',
};

/** The game whose base folder has this name (case-insensitive), if any; `data` only with a hint. */
export function baseFolderGame(folderKey: string): GameId | null {
  for (const [game, folder] of Object.entries(BASE_FOLDERS))
    if (folder!.toUpperCase() === folderKey && game !== 'daikatana') return game as GameId;
  return null;
}
