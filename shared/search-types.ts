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
