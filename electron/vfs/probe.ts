import type { GameId } from '../../shared/vfs-types.js';
import type { Archive, FormatEngine } from '../formats/index.js';
import { engineFor } from '../formats/index.js';
import { FormatError } from '../formats/errors.js';
import { FileSource, type ByteSource } from '../io/byte-source.js';
import * as hpi from '../formats/hpi/index.js';
import type { MountStatus } from './rules/index.js';

/**
 * The mount test of one candidate archive, done with the format engines: for TA the HPI engine's own
 * 3.1c test (v1, an intact Cavedog trailer as the last 36 bytes, a readable directory); for the other
 * games, whether that game's engine opens it. A passing archive stays open for the layer.
 */
type TaMountTest = (source: ByteSource) => Promise<MountStatus>;
const taMountStatus = (hpi as unknown as { taMountStatus?: TaMountTest }).taMountStatus;

export interface ProbeResult extends MountStatus {
  archive: Archive | null;
}

function engineOf(game: GameId): FormatEngine {
  if (game === 'ta' || game === 'tak') return engineFor('hpi');
  return engineFor(game === 'daikatana' ? 'daikatana' : 'pak');
}

const describe = (err: unknown) => (err instanceof FormatError ? err.message : err instanceof Error ? err.message : String(err));

export async function probeArchive(game: GameId, path: string): Promise<ProbeResult> {
  let source: FileSource;
  try {
    source = await FileSource.open(path);
  } catch (err) {
    return { ok: false, reason: `cannot be opened: ${describe(err)}`, archive: null };
  }
  const engine = engineOf(game);
  try {
    if (game === 'ta') {
      if (!taMountStatus) return await closeWith(source, { ok: false, reason: 'the TA mount test is not available (HPI engine missing)', archive: null });
      const status = await taMountStatus(source);
      if (!status.ok) return await closeWith(source, { ok: false, reason: status.reason, archive: null });
    } else {
      const detected = await engine.detect(source);
      if (!detected.match) return await closeWith(source, { ok: false, reason: `not recognised as ${engine.label}`, archive: null });
    }
    const archive = await engine.open(source);
    if (game === 'tak' && archive.format !== 'hpi') return await closeWith(source, { ok: false, reason: 'not an HPI archive', archive: null });
    return { ok: true, reason: 'mounted', archive };
  } catch (err) {
    if (!(err instanceof FormatError)) {
      await source.close();
      throw err;
    }
    return closeWith(source, { ok: false, reason: `unreadable: ${describe(err)}`, archive: null });
  }
}

async function closeWith(source: ByteSource, result: ProbeResult): Promise<ProbeResult> {
  await source.close();
  return result;
}
