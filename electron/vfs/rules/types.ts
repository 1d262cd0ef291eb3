import type { GameId, IgnoredArchive, MountStage, MountStatus } from '../../../shared/vfs-types.js';

export type { MountStatus };

/**
 * The pure half of mounting: from a folder listing and each candidate's mount-test result to the mount
 * order. No file system here, so every rule is tested with plain inputs; electron/vfs/mount.ts does the I/O.
 */

export type Root = 'install' | 'disc';

/** What the planner knows about the folders. Names are top-level file names as spelled on disk. */
export interface FolderListing {
  install: readonly string[];
  /** Archive-like files below the top level (relative paths): listed as ignored, never mounted. */
  nested: readonly string[];
  /** The disc's top-level names; 'install' when the install folder acts as the disc; null when off. */
  disc: readonly string[] | 'install' | null;
}

/** The mount test of one candidate (precomputed by the caller, so planning stays synchronous). */
export type Probe = (root: Root, name: string) => MountStatus;

export interface Candidate {
  root: Root;
  name: string;
}

export interface PlannedArchive {
  archive: string;
  root: Root;
  stage: MountStage;
}

export interface MountPlan {
  game: GameId;
  /** Priority order, highest first. */
  mounted: PlannedArchive[];
  ignored: (IgnoredArchive & { root: Root })[];
  /** Whether loose files beat every archive (TA, TA: Kingdoms, Daikatana) or lose to them (Quake, Quake 2). */
  looseFirst: boolean;
}

/** One game's rules: which files need a mount test, and the plan once they have one. */
export interface GameRules {
  readonly game: GameId;
  /** Top-level names (install or disc) that are this game's archives and so never loose files. */
  isArchiveName(name: string): boolean;
  candidates(listing: FolderListing): Candidate[];
  plan(listing: FolderListing, probe: Probe): MountPlan;
}

export function nestedIgnored(listing: FolderListing, isArchiveName: (name: string) => boolean): MountPlan['ignored'] {
  return listing.nested
    .filter((path) => isArchiveName(path))
    .map((archive) => ({ archive, root: 'install' as const, reason: 'in a subfolder: only the top level of the folder is mounted' }));
}
