/**
 * The worker side of parallel extraction: opens the archive by path (its own read-only handle, its own
 * lazy directory), then decodes and writes the entries it is sent, by index, one at a time and a chunk at
 * a time, so each worker holds at most one chunk's bytes. Format-neutral: it only sees the Archive interface.
 *
 * A worker has nothing else to do while a read or write is in flight, so it uses synchronous file calls:
 * that skips the thread-pool hand-off and wake-up per call, which on small files costs more than the I/O.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { openArchiveSource } from '../formats/index.js';
import { entryChunks, type Archive, type ArchiveEntry } from '../formats/archive.js';
import { fail, FormatError } from '../../shared/errors.js';
import type { ByteSource } from '../io/byte-source.js';
import { refusalReason } from '../io/folder-writer.js';
import { refuseLinksBelowSync } from '../io/real-path.js';
import type { EntryOutcome, WorkerReply, WorkerRequest, WorkerSetup } from './extract-pool.js';

const port = parentPort!;
const post = (m: WorkerReply) => port.postMessage(m);
const setup = workerData as WorkerSetup;

/** A read-only ByteSource over synchronous positioned reads (same checks as FileSource). */
class SyncFileSource implements ByteSource {
  readonly size: number;
  private readonly fd: number;
  constructor(readonly name: string) {
    this.fd = openSync(name, 'r');
    this.size = fstatSync(this.fd).size;
  }
  async read(offset: number, length: number): Promise<Uint8Array> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) fail('out-of-bounds', `invalid read at ${offset} of ${length} bytes`, { offset });
    if (offset + length > this.size) fail('truncated', `unexpected end of file: ${offset} + ${length} > ${this.size}`, { offset, expected: offset + length, actual: this.size });
    const out = new Uint8Array(length);
    for (let done = 0; done < length; ) {
      const n = readSync(this.fd, out, done, length - done, offset + done);
      if (n === 0) fail('truncated', `unexpected end of file at ${offset + done}`, { offset: offset + done });
      done += n;
    }
    return out;
  }
  async close(): Promise<void> {
    closeSync(this.fd);
  }
}

function errorReply(err: unknown, entry?: string): WorkerReply {
  const e = err as NodeJS.ErrnoException;
  return {
    type: 'error',
    format: err instanceof FormatError ? { code: err.code, details: err.details } : null,
    message: e?.message ?? String(err),
    code: typeof e?.code === 'string' ? e.code : undefined,
    path: e?.path,
    entry,
  };
}

const made = new Set<string>();
const plain = new Set<string>();

/** Write one entry chunk by chunk; a failure midway removes the partial file. */
async function writeEntry(archive: Archive, entry: ArchiveEntry, out: string): Promise<number> {
  refuseLinksBelowSync(setup.root, out, plain);
  const dir = dirname(out);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  const fd = openSync(out, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0), 0o666);
  let written = 0;
  let ok = false;
  try {
    for await (const chunk of entryChunks(archive, entry, (message) => post({ type: 'warning', message: `${entry.path}: ${message}` }))) {
      for (let done = 0; done < chunk.length; ) done += writeSync(fd, chunk, done, chunk.length - done, written + done);
      written += chunk.length;
    }
    ok = true;
  } finally {
    closeSync(fd);
    if (!ok) rmSync(out, { force: true });
  }
  return written;
}

async function extractOne(archive: Archive, entry: ArchiveEntry, out: string): Promise<EntryOutcome> {
  try {
    return { kind: 'file', bytes: await writeEntry(archive, entry, out) };
  } catch (err) {
    const reason = refusalReason(err);
    if (reason !== null) return { kind: 'refused', reason };
    if (err instanceof FormatError && setup.keepGoing) return { kind: 'failed', message: err.message };
    throw Object.assign(err as object, { entryPath: entry.path });
  }
}

try {
  const source = new SyncFileSource(setup.path);
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
        const done: [index: number, outcome: EntryOutcome][] = [];
        for (const item of msg.items) {
          const entry = archive.entries[item.index];
          if (!entry) throw new Error(`no entry ${item.index}`);
          done.push([item.index, await extractOne(archive, entry, item.out)]);
        }
        post({ type: 'batch-done', files: done });
      })
      .catch((err: unknown) => post(errorReply(err, (err as { entryPath?: string } | null)?.entryPath)));
  });
  post({ type: 'ready' });
} catch (err) {
  post(errorReply(err));
}
