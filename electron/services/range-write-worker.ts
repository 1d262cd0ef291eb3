/**
 * The worker side of extracting stored entries (Archive.storedRange): it copies byte ranges of the archive
 * file to the paths it is sent, and knows no format. It never reads the directory and loads only the
 * folder writer, so it is ready in a few tens of milliseconds where the decoding worker (extract-worker.ts,
 * every reader) takes about 0.2 s; the opens and writes of a stored extraction then run on both cores.
 * Same messages as extract-worker.ts; items carry `offset` and `length`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { closeSync, openSync, readSync } from 'node:fs';
import { fail } from '../../shared/errors.js';
import { FolderWriter, refusalReason } from '../io/folder-writer.js';
import { errorReply } from './worker-reply.js';
import type { EntryOutcome, PoolItem, WorkerReply, WorkerRequest, WorkerSetup } from './extract-pool.js';

const port = parentPort!;
const post = (m: WorkerReply) => port.postMessage(m);
const setup = workerData as WorkerSetup;

/** Ranges up to this size are read and written whole; larger ones a piece of this size at a time. */
const PIECE = 1 << 20;
let scratch = new Uint8Array(64 << 10);

function readInto(fd: number, into: Uint8Array, offset: number): Uint8Array {
  for (let got = 0; got < into.length;) {
    const n = readSync(fd, into, got, into.length - got, offset + got);
    if (n === 0)
      fail('truncated', `unexpected end of file at ${offset + got} (the archive changed while it was extracted)`, { offset: offset + got });
    got += n;
  }
  return into;
}

function piece(length: number): Uint8Array {
  if (scratch.length < length) scratch = new Uint8Array(Math.max(length, 2 * scratch.length));
  return scratch.subarray(0, length);
}

/** A large range a piece at a time through the same scratch (the writer writes each before asking for the next). */
async function* pieces(fd: number, offset: number, length: number): AsyncIterable<Uint8Array> {
  for (let at = 0; at < length; at += PIECE) yield readInto(fd, piece(Math.min(PIECE, length - at)), offset + at);
}

async function copyOne(fd: number, writer: FolderWriter, item: PoolItem): Promise<EntryOutcome> {
  const { offset = 0, length = 0, out } = item;
  try {
    const bytes = length <= PIECE ? readInto(fd, piece(length), offset) : pieces(fd, offset, length);
    return { kind: 'file', bytes: await writer.write(out, bytes) };
  } catch (err) {
    const reason = refusalReason(err);
    if (reason !== null) return { kind: 'refused', reason };
    throw err;
  }
}

try {
  const fd = openSync(setup.path, 'r');
  const writer = new FolderWriter(setup.root);
  let chain = Promise.resolve();
  port.on('message', (msg: WorkerRequest) => {
    chain = chain
      .then(async () => {
        if (msg.type === 'close') {
          closeSync(fd);
          port.close();
          return;
        }
        const done: [index: number, outcome: EntryOutcome][] = [];
        for (const item of msg.items) done.push([item.index, await copyOne(fd, writer, item)]);
        post({ type: 'batch-done', files: done });
      })
      .catch((err: unknown) => post(errorReply(err)));
  });
  post({ type: 'ready' });
} catch (err) {
  post(errorReply(err));
}
