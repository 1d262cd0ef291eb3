/**
 * The layered filesystem's results, as the CLI prints them with --json and the studio receives them.
 * Pure types: no Node, no DOM.
 */
export type GameId = 'ta' | 'tak' | 'quake' | 'quake2' | 'daikatana' | 'halflife';
export const GAME_IDS: readonly GameId[] = ['ta', 'tak', 'quake', 'quake2', 'daikatana', 'halflife'];

/** Where an archive sits in the mount order: TA groups, TA:K overlay, or a Quake-family pak. */
export type MountStage = 'gp3' | 'ccx' | 'ufo' | 'hpi' | 'disc' | 'overlay' | 'pak';

export interface MountedArchive {
  /** Path relative to its root, as spelled on disk. */
  archive: string;
  root: 'install' | 'disc';
  stage: MountStage;
  files: number;
}

/** Whether a game would mount an archive, and why (TA 3.1c's test, or the game's engine opening it). */
export interface MountStatus {
  ok: boolean;
  reason: string;
}

export interface IgnoredArchive {
  archive: string;
  reason: string;
  /** Which folder `archive` is relative to (a separate disc folder can hold a name the install also has). */
  root?: 'install' | 'disc';
}

/** `modpak mount archives --json`: mounted in priority order, highest first. */
export interface MountReport {
  game: GameId;
  /** How the game was chosen: given with --game, or detected from the folder. */
  gameSource?: 'given' | 'detected';
  /** What detection went by ("found rev31.gp3"), when the game was detected. */
  gameReason?: string;
  mounted: MountedArchive[];
  ignored: IgnoredArchive[];
}

export interface Provider {
  /** null for a loose file in the install. */
  archive: string | null;
  /** The entry's path as stored (or the loose file's relative path). */
  entry: string;
  size: number;
  /** Storage method where known ('stored', 'lz77', 'zlib', ...; 'loose' for loose files). */
  method?: string;
}

/** `modpak mount resolve --json`. */
export interface ResolveResult {
  path: string;
  winner: Provider | null;
  /** Every other provider, in priority order. */
  shadowed: readonly Provider[];
}

export type DefinitionKind = 'units' | 'weapons' | 'features';

export interface DefinitionSource {
  file: string;
  archive: string | null;
}

/**
 * A definition the winner hides: 'name' when another file defines the same name later in the walk,
 * 'path' when a copy of the winner's own file (same path) sits in a lower layer and so never loads.
 */
export interface ShadowedDefinition extends DefinitionSource {
  hiddenBy: 'name' | 'path';
}

/** `modpak mount defs --json`: one row per definition name, the winner first. */
export interface DefinitionWinner extends DefinitionSource {
  name: string;
  /** Hidden by name first (walk order), then hidden by path (layer order). */
  shadowed: ShadowedDefinition[];
}

/** `modpak mount conflicts --json`. */
export interface ConflictReport {
  paths: { path: string; providers: Provider[] }[];
  definitions: { kind: DefinitionKind; name: string; providers: DefinitionSource[] }[];
}

/** The mod folders of a Quake-family game folder, for the studio's picker (`install.modFolders`). */
export interface ModFolders {
  /** The game whose base folder was found (null: not a Quake-family game folder). */
  game: GameId | null;
  /** The base data folder as spelled on disk (id1, baseq2, data, valve). */
  base: string | null;
  /** Folders beside it holding paks (at their top) or loose game files, by name. */
  folders: { name: string; paks: number; looseFiles: number }[];
}

export interface MountStats {
  game: GameId;
  archives: number;
  ignored: number;
  /** Distinct paths after layering. */
  paths: number;
  /** Entries across all layers, loose files included. */
  entries: number;
  looseFiles: number;
  shadowedPaths: number;
  bytes: number;
}

/** A compact form of the merged tree for the studio: parallel arrays, one row per winning path. */
export interface MergedTree {
  /** Index into `archives` of each path's winner; -1 for a loose file. */
  paths: string[];
  winners: number[];
  sizes: number[];
  /** How many providers each path has (1 = no conflict). */
  layers: number[];
  archives: string[];
}
