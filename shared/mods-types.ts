/** The mod workflow's results (`modpak diff`, `modpak mount impact`, watch status). Pure types. */

export type OverrideStatus = 'added' | 'modified' | 'same';

export interface TdfChange {
  /** Section path, e.g. "UNITINFO" or "WEAPON1/DAMAGE". */
  section: string;
  key: string | null;
  kind: 'added' | 'removed' | 'changed';
  before?: string;
  after?: string;
}

export interface OverrideDiff {
  path: string;
  status: OverrideStatus;
  base: null | { archive: string | null; entry: string };
  diff:
    | null
    | { kind: 'text'; unified: string; tdf?: TdfChange[] }
    | { kind: 'binary'; before: { size: number; sha256: string } | null; after: { size: number; sha256: string } };
}

export interface ExportImpact {
  archive: string;
  stage: string;
  /** 1-based position in the mount order (1 = highest priority) it would take; -1 when not mounted. */
  rank: number;
  /** A .hpi that would lose its slot among the first ten. */
  pushesOut: string | null;
  /** Files of the export that something ranked higher would hide. */
  hidden: { path: string; by: string | null }[];
  /** Files of the export that would win over what is there now (`over`: the provider it beats, never the archive it replaces; null for a new path). */
  wins: { path: string; over: string | null }[];
  definitions: { kind: string; name: string; outcome: 'wins' | 'loses'; against: string | null }[];
  /** An archive of the same name already in the install, which the export would replace. */
  replaces?: string | null;
  /** Why the game would not mount it (rank -1, stage 'ignored'). */
  ignoredReason?: string;
}

export interface WatchStatus {
  workspace: string;
  target: string;
  running: boolean;
  state: 'idle' | 'building' | 'ok' | 'failed';
  /** `number` counts this watch's builds from 1, so two builds in the same second with the same figures still differ. */
  lastBuild: null | { number: number; at: string; durationMs: number; ok: boolean; message: string; files: number };
  /**
   * Grows with every status change of any watcher in the host: a call's answer and the `watch` events can
   * arrive in either order, and the higher revision is the newer status.
   */
  revision?: number;
}
