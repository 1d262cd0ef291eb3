/**
 * The worker side of parallel extraction: opens the archive by path (its own read-only handle, its own
 * lazy directory), then decodes and writes the entries it is sent, by index, one at a time and a chunk at
 * a time, so each worker holds at most one chunk's bytes. Format-neutral: it only sees the Archive interface.
 *
 * A worker has nothing else to do while a read or write is in flight, so it uses synchronous file calls:
 * that skips the thread-pool hand-off and wake-up per call, which on small files costs more than the I/O.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openArchiveSource } from '../formats/index.js';
import { ChunkScratch, entryChunks, type Archive, type ArchiveEntry } from '../formats/archive.js';
import { FormatError } from '../../shared/errors.js';
import { FileSource } from '../io/byte-source.js';
import { FolderWriter } from '../io/folder-writer.js';
import type { EntryOutcome, WorkerReply, WorkerRequest, WorkerSetup } from './extract-pool.js';
import { errorOutcome, errorReply } from './extract-replies.js';

const port = parentPort!;
const post = (m: WorkerReply) => port.postMessage(m);
const setup = workerData as WorkerSetup;

const writer = new FolderWriter(setup.root);
/** Entries are decoded one after another and each piece is used at once (counted, or written synchronously). */
const scratch = new ChunkScratch();

/** Verify mode: the entry decoded and counted, warnings sent with its index. */
async function verifyOne(archive: Archive, entry: ArchiveEntry, index: number): Promise<EntryOutcome> {
  try {
    let bytes = 0;
    for await (const chunk of entryChunks(archive, entry, (message) => post({ type: 'warning', message, index }), scratch))
      bytes += chunk.length;
    return { kind: 'file', bytes };
  } catch (err) {
    if (err instanceof FormatError) return { kind: 'failed', message: err.message };
    throw Object.assign(err as object, { entryPath: entry.path });
  }
}

async function extractOne(archive: Archive, entry: ArchiveEntry, out: string): Promise<EntryOutcome> {
  try {
    return {
      kind: 'file',
      bytes: await writer.write(
        out,
        entryChunks(archive, entry, (message) => post({ type: 'warning', message: `${entry.path}: ${message}` }), scratch),
      ),
    };
  } catch (err) {
    const outcome = errorOutcome(err, setup.keepGoing);
    if (outcome) return outcome;
    throw Object.assign(err as object, { entryPath: entry.path });
  }
}

try {
  const source = FileSource.openSync(setup.path);
  const archive = await openArchiveSource(source).catch(async (err: unknown) => {
    await source.close();
    throw err;
  });
  let chain = Promise.resolve();
  port.on('message', (msg: WorkerRequest) => {
    chain = chain
      .then(async () => {
        if (msg.type === 'close') {
          await archive.close();
          port.close();
          return;
        }
        if (msg.type === 'range') throw new Error('this worker is sent batches, not ranges');
        const done: [index: number, outcome: EntryOutcome][] = [];
        for (const item of msg.items) {
          const entry = archive.entries[item.index];
          if (!entry) throw new Error(`no entry ${item.index}`);
          done.push([item.index, setup.verify ? await verifyOne(archive, entry, item.index) : await extractOne(archive, entry, item.out)]);
        }
        post({ type: 'batch-done', files: done });
      })
      .catch((err: unknown) => post(errorReply(err, (err as { entryPath?: string } | null)?.entryPath)));
  });
  post({ type: 'ready' });
} catch (err) {
  post(errorReply(err));
}
