/** `modpak mount grep --json` and the studio's search: one matching line of a winning text file. */
export interface GrepHit {
  path: string;
  /** The winning archive, or null for a loose file. */
  archive: string | null;
  /** 1-based. */
  line: number;
  text: string;
}

export interface GrepResult {
  hits: GrepHit[];
  /** How many text files were searched. */
  files: number;
  /** True when the search stopped at its limit of hits. */
  truncated: boolean;
}

export type InstallProblemKind = 'duplicate-unitnumber' | 'duplicate-weapon-id' | 'missing-reference';

/** `modpak mount check --json`: one problem the game would trip on. */
export interface InstallProblem {
  kind: InstallProblemKind;
  message: string;
  /** The definition files involved. */
  paths: string[];
}

/** The FBI fields the unit table shows, in its column order. */
export const UNIT_TABLE_FIELDS = [
  'Name',
  'Description',
  'BuildCostMetal',
  'BuildCostEnergy',
  'MaxDamage',
  'MaxVelocity',
  'Weapon1',
  'Weapon2',
  'Weapon3',
] as const;
export type UnitTableField = (typeof UNIT_TABLE_FIELDS)[number];

/** One row of the unit table: a winning unit definition and its main fields (absent keys are absent). */
export interface UnitRow {
  unitName: string;
  file: string;
  archive: string | null;
  fields: Partial<Record<UnitTableField, string>>;
}
