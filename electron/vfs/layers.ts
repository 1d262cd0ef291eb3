import type { ArchiveEntry } from '../formats/index.js';
import type { MountStage } from '../../shared/vfs-types.js';
import type { Root } from './rules/index.js';

/**
 * One layer of the merged filesystem: a mounted archive or the install's loose files. Entries are files
 * only, in stored order (loose files in a deterministic name order). The index keeps references to these
 * entries, and `read` opens one lazily.
 */
export interface Layer {
  /** The archive's path relative to its root, as spelled on disk; null for the loose files. */
  readonly archive: string | null;
  readonly root: Root;
  readonly stage: MountStage | 'loose';
  readonly entries: readonly ArchiveEntry[];
  read(entry: ArchiveEntry): Promise<Uint8Array>;
  /** The entry's bytes piece by piece (a large entry is never held whole); without it, `read`. */
  stream?(entry: ArchiveEntry): AsyncIterable<Uint8Array>;
  close(): Promise<void>;
}
