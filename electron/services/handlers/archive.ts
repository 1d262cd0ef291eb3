import { extractArchive, findEntry, reportOf, toListedEntry, verifyArchive } from '../archive-service.js';
import type { OpenArchiveCache } from '../archive-cache.js';
import { fail } from '../../../shared/errors.js';
import type { ArchiveListing } from '../../../shared/contract.js';
import type { CallContext, CallTable } from '../host/types.js';
import { toPreview } from './preview.js';

/** The Archive screen: one archive of any supported format, through the same service as the CLI. */
export function archiveHandlers(open: OpenArchiveCache): Pick<CallTable, 'archive.open' | 'archive.read' | 'archive.extract' | 'archive.verify'> {
  return {
    'archive.open': async ({ path }): Promise<ArchiveListing> =>
      open.use(path, async (opened) => ({ path, info: reportOf(opened), entries: opened.archive.entries.map(toListedEntry) })),
    'archive.read': async ({ path, entry, maxBytes }) =>
      open.use(path, async ({ archive }) => {
        const found = findEntry(archive, entry);
        if (!found) fail('not-found', `no file ${entry} in the archive`);
        return toPreview(entry, await archive.read(found), path, maxBytes);
      }),
    'archive.extract': async ({ path, target, globs }, ctx) =>
      extractArchive(path, target, { globs, signal: ctx.signal, onProgress: abortable(ctx) }),
    'archive.verify': async ({ path }, ctx) => verifyArchive(path, abortable(ctx)),
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
