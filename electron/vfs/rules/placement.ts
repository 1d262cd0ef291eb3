import type { MountStage } from '../../../shared/vfs-types.js';
import type { MountPlan } from './types.js';

/** Where a hypothetical archive lands in the mount order, compared with the order without it. */
export interface Placement {
  /** Its file name at the top of the install. */
  archive: string;
  /** null when it would not be mounted at all (see `reason`). */
  stage: MountStage | null;
  /** 0-based position in the mount order, 0 = highest priority; -1 when not mounted. */
  rank: number;
  /** A .hpi that would lose its place among the first ten (moved to the disc stage or dropped). */
  pushesOut: string | null;
  /** An archive of the same name that it would replace. */
  replaces: string | null;
  /** Why it would not be mounted, or 'mounted'. */
  reason: string;
}

export function placementOf(base: MountPlan, plan: MountPlan, archive: string, replaces: string | null): Placement {
  const rank = plan.mounted.findIndex((m) => m.root === 'install' && m.archive === archive);
  const slotsBefore = base.mounted.filter((m) => m.stage === 'hpi').map((m) => m.archive);
  const slotsAfter = new Set(plan.mounted.filter((m) => m.stage === 'hpi').map((m) => m.archive));
  const pushed = slotsBefore.find((name) => !slotsAfter.has(name) && name !== replaces) ?? null;
  if (rank < 0) {
    const why = plan.ignored.find((i) => i.root === 'install' && i.archive === archive)?.reason ?? 'not an archive this game mounts';
    return { archive, stage: null, rank: -1, pushesOut: null, replaces, reason: why };
  }
  return { archive, stage: plan.mounted[rank]!.stage, rank, pushesOut: pushed, replaces, reason: 'mounted' };
}
