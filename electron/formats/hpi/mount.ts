/**
 * `taMountStatus`: would Total Annihilation 3.1c mount this file? Only a v1 archive whose last 36 bytes are
 * the Cavedog trailer (nothing after it) and whose directory reads; anything else the game skips silently.
 */
import type { ByteSource } from '../../io/byte-source.js';
import { FormatError } from '../../../shared/errors.js';
import { deriveKey } from './cipher.js';
import { readV1Header, sniffHpi } from './header.js';
import { TAIL_SIZE } from './trailer.js';
import { readV1Tree, v1MountStatus, type MountStatus } from './v1-reader.js';

export async function taMountStatus(source: ByteSource): Promise<MountStatus> {
  try {
    const kind = await sniffHpi(source);
    if (kind === null) return { ok: false, reason: 'not an HPI archive' };
    if (kind === 'bank') return { ok: false, reason: 'a TA saved game (BANK), not an archive' };
    if (kind === 'v2') return { ok: false, reason: 'HPI v2 (TA: Kingdoms): TA 3.1c mounts only v1 archives' };
    const tailLength = Math.min(TAIL_SIZE, source.size);
    const tail = await source.read(source.size - tailLength, tailLength);
    const header = await readV1Header(source);
    // The game reads HeaderKey 0xFF as "no cipher".
    const key = header.headerKey === 0xff ? 0 : deriveKey(header.headerKey);
    const trailerVerdict = v1MountStatus(tail, 0, null);
    if (!trailerVerdict.ok) return trailerVerdict;
    await readV1Tree(source, header, key);
    return v1MountStatus(tail, header.headerKey, true);
  } catch (err) {
    if (err instanceof FormatError) return { ok: false, reason: `the directory does not read: ${err.message}` };
    throw err;
  }
}
