/**
 * The worker side of parallel extraction: opens the archive by path (its own read-only handle, its own
 * lazy directory), then decodes and writes the entries it is sent, by index, one at a time, so each
 * worker holds at most one file's bytes. Format-neutral: it only sees the Archive interface.
 *
 * A worker has nothing else to do while a read or write is in flight, so it uses synchronous file calls:
 * that skips the thread-pool hand-off and wake-up per call, which on small files costs more than the I/O.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openArchiveSource } from '../formats/index.js';
import { fail, FormatError } from '../../shared/errors.js';
import type { ByteSource } from '../io/byte-source.js';
import type { WorkerReply, WorkerRequest } from './extract-pool.js';

const port = parentPort!;
const post = (m: WorkerReply) => port.postMessage(m);

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

function errorReply(err: unknown): WorkerReply {
  const e = err as NodeJS.ErrnoException;
  return {
    type: 'error',
    format: err instanceof FormatError ? { code: err.code, details: err.details } : null,
    message: e?.message ?? String(err),
    code: typeof e?.code === 'string' ? e.code : undefined,
    path: e?.path,
  };
}

try {
  const source = new SyncFileSource((workerData as { path: string }).path);
  const archive = await openArchiveSource(source).catch(async (err: unknown) => {
    await source.close();
    throw err;
  });
  const made = new Set<string>();
  let chain = Promise.resolve();
  port.on('message', (msg: WorkerRequest) => {
    chain = chain
      .then(async () => {
        if (msg.type === 'close') {
          await archive.close();
          port.close();
          return;
        }
        const done: [index: number, bytes: number][] = [];
        for (const item of msg.items) {
          const entry = archive.entries[item.index];
          if (!entry) throw new Error(`no entry ${item.index}`);
          const data = await archive.read(entry, (message) => post({ type: 'warning', message: `${entry.path}: ${message}` }));
          const dir = dirname(item.out);
          if (!made.has(dir)) {
            mkdirSync(dir, { recursive: true });
            made.add(dir);
          }
          writeFileSync(item.out, data);
          done.push([item.index, data.length]);
        }
        post({ type: 'batch-done', files: done });
      })
      .catch((err: unknown) => post(errorReply(err)));
  });
  post({ type: 'ready' });
} catch (err) {
  post(errorReply(err));
}
