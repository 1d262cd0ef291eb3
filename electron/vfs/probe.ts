import type { GameId } from '../../shared/vfs-types.js';
import type { Archive, FormatEngine } from '../formats/index.js';
import { engineFor } from '../formats/index.js';
import { FormatError } from '../../shared/errors.js';
import { FileSource, type ByteSource } from '../io/byte-source.js';
import { taMountStatus } from '../formats/hpi/index.js';
import type { MountStatus } from './rules/index.js';

/**
 * The mount test of one candidate archive, done with the format engines. For TA it is the HPI engine's
 * 3.1c test (v1, an intact Cavedog trailer as the last 36 bytes, a readable directory): an archive that
 * opens reports that verdict as `info().taMount` from the directory it has just read, so the directory is
 * parsed once; one that does not open gets `taMountStatus` for the reason. For the other games the test
 * is whether that game's engine opens it. A passing archive stays open for the layer.
 */
export interface ProbeResult extends MountStatus {
  archive: Archive | null;
}

function engineOf(game: GameId): FormatEngine {
  if (game === 'ta' || game === 'tak') return engineFor('hpi');
  return engineFor(game === 'daikatana' ? 'daikatana' : 'pak');
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

function isMountStatus(value: unknown): value is MountStatus {
  return typeof value === 'object' && value !== null && typeof (value as MountStatus).ok === 'boolean' && typeof (value as MountStatus).reason === 'string';
}

async function openWith(engine: FormatEngine, source: ByteSource): Promise<Archive | string> {
  try {
    const detected = await engine.detect(source);
    if (!detected.match) return `not recognised as ${engine.label}`;
    return await engine.open(source);
  } catch (err) {
    if (err instanceof FormatError) return `unreadable: ${err.message}`;
    // Any other failure of one archive (a stack or heap limit, an I/O error) ignores that archive, not the install.
    return `unreadable: ${message(err)}`;
  }
}

export async function probeArchive(game: GameId, path: string): Promise<ProbeResult> {
  let source: FileSource;
  try {
    source = await FileSource.open(path);
  } catch (err) {
    return { ok: false, reason: `cannot be opened: ${message(err)}`, archive: null };
  }
  try {
    const opened = await openWith(engineOf(game), source);
    if (game === 'ta') {
      const verdict = typeof opened === 'string' ? null : opened.info().taMount;
      const status = isMountStatus(verdict) ? verdict : await taMountStatus(source).catch((err: unknown) => ({ ok: false, reason: `unreadable: ${message(err)}` }));
      if (status.ok && typeof opened !== 'string') return { ok: true, reason: status.reason, archive: opened };
      await source.close();
      return { ok: false, reason: status.ok ? (opened as string) : status.reason, archive: null };
    }
    if (typeof opened === 'string') {
      await source.close();
      return { ok: false, reason: opened, archive: null };
    }
    if (game === 'tak' && opened.format !== 'hpi') {
      await source.close();
      return { ok: false, reason: 'not an HPI archive', archive: null };
    }
    return { ok: true, reason: 'mounted', archive: opened };
  } catch (err) {
    await source.close();
    throw err;
  }
}
