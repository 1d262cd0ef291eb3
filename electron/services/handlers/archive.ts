import { entryHead } from '../archive-service.js';
import { extractArchive } from '../archive-extract.js';
import { OpenArchiveCache } from '../open-archives.js';
import { DEFAULT_ISOLATION, openArchiveIsolated, verifyArchiveIsolated, type IsolationLimits } from '../isolated-archive.js';
import type { ArchiveListing } from '../../../shared/contract.js';
import type { CallContext, CallTable } from '../host/types.js';
import { DEFAULT_PREVIEW_BYTES, toPreview } from './preview.js';
import { refuseDotFolders, refuseExtractionIntoInstall, refuseOverwrite, KnownInstalls } from '../host/reach.js';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { writeFileAtomically } from '../../io/byte-sink.js';

/** The Archive screen: one archive of any supported format, through the same service as the CLI. */
/**
 * `open`: the archives the main process keeps open for previews (`archive.read`), by path, time and size.
 * `dropped`: where archive.openBytes keeps the copies of archives dropped in the browser (a folder of the
 * host's own, made on first use, removed when the host closes).
 */
export function archiveHandlers(
  isolation: IsolationLimits = DEFAULT_ISOLATION,
  installs = new KnownInstalls(),
  open = new OpenArchiveCache(),
  dropped?: { temp: string; scratch: Set<string> },
): Pick<CallTable, 'archive.open' | 'archive.read' | 'archive.extract' | 'archive.verify' | 'archive.openBytes'> {
  return {
    // The copy is granted as a file of its own: read, extracted and verified like a picked archive.
    'archive.openBytes': async ({ name, data }, ctx): Promise<ArchiveListing> => {
      const bytes = Buffer.from(data, 'base64');
      const folder = await mkdtemp(join(dropped?.temp ?? tmpdir(), 'modpak-dropped-'));
      dropped?.scratch.add(folder);
      const copy = join(folder, name);
      await writeFileAtomically(copy, async (sink) => {
        await sink.write(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
      });
      const granted = await ctx.grant(copy, 'file');
      return openArchiveIsolated(granted, isolation, ctx.signal);
    },
    // Opening and verifying a picked archive run in a worker with heap and time limits: a hostile file
    // fails that call, never the host.
    'archive.open': async ({ path }, ctx): Promise<ArchiveListing> => openArchiveIsolated(path, isolation, ctx.signal),
    'archive.read': async ({ path, entry, maxBytes }) => {
      // Each preview click reads through the archive kept open: its directory is parsed once per file version.
      const head = await open.use(path, (archive) => entryHead(archive, entry, maxBytes ?? DEFAULT_PREVIEW_BYTES));
      return toPreview(entry, head.bytes, path, maxBytes, head.size);
    },
    'archive.extract': async ({ path, target, globs, overwrite }, ctx) => {
      refuseDotFolders(target, 'target folder');
      await refuseExtractionIntoInstall(target, installs);
      await refuseOverwrite(target, overwrite);
      return extractArchive(path, target, { globs, signal: ctx.signal, onProgress: abortable(ctx) });
    },
    'archive.verify': async ({ path }, ctx) => verifyArchiveIsolated(path, isolation, abortable(ctx), ctx.signal),
  };
}

/**
 * A progress callback that also stops the work when the job is cancelled: services that take no signal
 * call it between files, and the abort error it throws unwinds them.
 */
export function abortable(ctx: CallContext): (done: number, total: number, label?: string) => void {
  return (done, total, label) => {
    ctx.signal.throwIfAborted();
    ctx.progress(done, total, label);
  };
}
