/**
 * The layered game filesystem. Mount rules per game live in rules/ (pure), the merged index in
 * merged-index.ts, the I/O that ties them together in mount.ts; definitions, extraction and the
 * hypothetical-archive plan sit on top of a MountedInstall.
 */
export { mountInstall, type MountOptions } from './mount.js';
export { MountedInstall, type GameChoice } from './mounted-install.js';
export { MergedIndex, type Hit } from './merged-index.js';
export type { Layer } from './layers.js';
export { extractPaths, flattenInstall, selectWinners, type WriteOptions, type WriteResult } from './extract.js';
export { definitionFiles } from './definitions.js';
export { gameRules, HPI_SLOTS, type MountPlan, type PlannedArchive } from './rules/index.js';
export { detectGame, decideGame, type DetectedGame } from './detect.js';
export { placementOf, type Placement } from './rules/placement.js';
export { ArchivePool, type PooledProbe } from './archive-pool.js';
