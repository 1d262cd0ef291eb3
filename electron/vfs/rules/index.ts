import type { GameId } from '../../../shared/vfs-types.js';
import type { GameRules } from './types.js';
import { taRules } from './ta.js';
import { takRules } from './tak.js';
import { daikatanaRules, halflifeRules, quake2Rules, quakeRules } from './quake.js';

export type { Candidate, FolderListing, GameRules, MountPlan, MountStatus, PlannedArchive, Probe, Root } from './types.js';
export { HPI_SLOTS } from './ta.js';
export { pakNumber } from './quake.js';
export { BASE_FOLDERS, baseFolderGame } from './game-folders.js';

/** Each game's mount rules; the merged index never sees these, only the plan they produce. */
export const gameRules: Readonly<Record<GameId, GameRules>> = {
  ta: taRules,
  tak: takRules,
  quake: quakeRules,
  quake2: quake2Rules,
  daikatana: daikatanaRules,
  halflife: halflifeRules,
};
