import type { ArchiveInfo } from '../../../shared/archive-info.js';
import type { MountStatus } from '../../../shared/vfs-types.js';

/**
 * Would Total Annihilation 3.1c mount this archive? Only an HPI v1 whose last 36 bytes are the Cavedog
 * trailer (nothing after it) and whose directory reads as the game reads it; anything else it skips
 * silently. A game rule over the facts the HPI reader reports, so the format layer knows nothing of it.
 */
export function taMountVerdict(info: ArchiveInfo): MountStatus {
  if (info.format !== 'hpi') return { ok: false, reason: 'not an HPI archive' };
  if (info.version === 2) return { ok: false, reason: 'HPI v2 (TA: Kingdoms): TA 3.1c mounts only v1 archives' };
  if (info.trailer === null) {
    if (info.bytesAfterTrailer !== null) {
      return { ok: false, reason: `${info.bytesAfterTrailer} bytes follow the Cavedog trailer: TA 3.1c wants it to be the last 36 bytes` };
    }
    return { ok: false, reason: 'no Cavedog trailer ("Copyright ____ Cavedog Entertainment") in the last 36 bytes' };
  }
  if (info.key === 0xff && info.directoryReadsPlain === false) {
    return { ok: false, reason: 'HeaderKey 0xFF: TA 3.1c reads the directory as unenciphered, and it does not read that way' };
  }
  return { ok: true, reason: 'HPI v1 with the Cavedog trailer and a readable directory' };
}
