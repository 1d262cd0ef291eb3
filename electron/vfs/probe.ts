import type { GameId } from '../../shared/vfs-types.js';
import type { Archive, FormatEngine } from '../formats/index.js';
import { engineFor } from '../formats/index.js';
import { FormatError } from '../../shared/errors.js';
import { FileSource, type ByteSource } from '../io/byte-source.js';
import { sniffHpi } from '../formats/hpi/index.js';
import type { MountStatus } from './rules/index.js';
import { taMountVerdict } from './rules/ta-mount.js';

/**
 * The mount test of one candidate archive, done with the format engines. For TA it is the 3.1c rule
 * (rules/ta-mount.ts: v1, an intact Cavedog trailer as the last 36 bytes, a readable directory) over the
 * facts of the archive the HPI engine has just opened, so the directory is parsed once; one that does not
 * open is refused with the reason. For the other games the test is whether that game's engine opens it.
 * A passing archive stays open for the layer.
 */
export interface ProbeResult extends MountStatus {
  archive: Archive | null;
  /** When the archive could not be read at all (the disk failed, no permission): the error, for callers that need every file. */
  ioError?: NodeJS.ErrnoException;
}

/** An error of the file system (it has a string code), not of the bytes. */
const ioErrorOf = (err: unknown): NodeJS.ErrnoException | undefined =>
  !(err instanceof FormatError) && err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string'
    ? (err as NodeJS.ErrnoException)
    : undefined;

function engineOf(game: GameId): FormatEngine {
  if (game === 'ta' || game === 'tak') return engineFor('hpi');
  return engineFor(game === 'daikatana' ? 'daikatana' : 'pak');
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Why TA 3.1c skips an archive the HPI engine could not open (`failure`: what the engine said). */
async function taRefusal(source: ByteSource, failure: { reason: string; error?: string }): Promise<MountStatus> {
  const kind = await sniffHpi(source);
  if (kind === null) return { ok: false, reason: 'not an HPI archive' };
  if (kind === 'bank') return { ok: false, reason: 'a TA saved game (BANK), not an archive' };
  if (kind === 'v2') return { ok: false, reason: 'HPI v2 (TA: Kingdoms): TA 3.1c mounts only v1 archives' };
  return { ok: false, reason: failure.error === undefined ? failure.reason : `the directory does not read: ${failure.error}` };
}

/** TA 3.1c's verdict on one file: the rule over its facts when the HPI engine opens it, else why not. */
export async function taMountStatus(source: ByteSource): Promise<MountStatus> {
  const opened = await openWith(engineFor('hpi'), source);
  return isArchive(opened) ? taMountVerdict(opened.info()) : taRefusal(source, opened);
}

/** The archive, or why the engine does not open it (`error`: the FormatError's message, when it threw one). */
async function openWith(
  engine: FormatEngine,
  source: ByteSource,
): Promise<Archive | { reason: string; error?: string; ioError?: NodeJS.ErrnoException }> {
  try {
    const detected = await engine.detect(source);
    if (!detected.match) return { reason: `not recognised as ${engine.label}` };
    return await engine.open(source);
  } catch (err) {
    if (err instanceof FormatError) return { reason: `unreadable: ${err.message}`, error: err.message };
    // Any other failure of one archive (a stack or heap limit, an I/O error) ignores that archive, not the install.
    return { reason: `unreadable: ${message(err)}`, error: message(err), ioError: ioErrorOf(err) };
  }
}

const isArchive = (opened: Archive | { reason: string }): opened is Archive => !('reason' in opened);

export async function probeArchive(game: GameId, path: string): Promise<ProbeResult> {
  let source: FileSource;
  try {
    source = await FileSource.open(path);
  } catch (err) {
    return { ok: false, reason: `cannot be opened: ${message(err)}`, archive: null, ioError: ioErrorOf(err) };
  }
  try {
    const opened = await openWith(engineOf(game), source);
    if (game === 'ta') {
      const status = isArchive(opened)
        ? taMountVerdict(opened.info())
        : await taRefusal(source, opened).catch((err: unknown) => ({ ok: false, reason: `unreadable: ${message(err)}` }));
      if (status.ok && isArchive(opened)) return { ok: true, reason: status.reason, archive: opened };
      await source.close();
      return {
        ok: false,
        reason: status.reason,
        archive: null,
        ...(!isArchive(opened) && opened.ioError ? { ioError: opened.ioError } : {}),
      };
    }
    if (!isArchive(opened)) {
      await source.close();
      return { ok: false, reason: opened.reason, archive: null, ...(opened.ioError ? { ioError: opened.ioError } : {}) };
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
