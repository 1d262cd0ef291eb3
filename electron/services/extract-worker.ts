/**
 * The worker side of parallel extraction: opens the archive by path (its own read-only handle, its own
 * lazy directory), then decodes and writes the entries it is sent, by index, one at a time, so each
 * worker holds at most one file's bytes. Format-neutral: it only sees the Archive interface.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { openArchive } from '../formats/index.js';
import { FormatError } from '../formats/errors.js';
import type { WorkerReply, WorkerRequest } from './extract-pool.js';

const port = parentPort!;
const post = (m: WorkerReply) => port.postMessage(m);

try {
  const archive = await openArchive((workerData as { path: string }).path);
  const made = new Set<string>();
  let chain = Promise.resolve();
  port.on('message', (msg: WorkerRequest) => {
    chain = chain.then(async () => {
      if (msg.type === 'close') {
        await archive.close();
        port.close();
        return;
      }
      for (const item of msg.items) {
        const entry = archive.entries[item.index];
        if (!entry) throw new Error(`no entry ${item.index}`);
        const data = await archive.read(entry, (message) => post({ type: 'warning', message: `${entry.path}: ${message}` }));
        const dir = dirname(item.out);
        if (!made.has(dir)) {
          await mkdir(dir, { recursive: true });
          made.add(dir);
        }
        await writeFile(item.out, data);
        post({ type: 'file', index: item.index, bytes: data.length });
      }
      post({ type: 'batch-done' });
    }).catch((err: unknown) => {
      const e = err as NodeJS.ErrnoException;
      post({ type: 'error', format: err instanceof FormatError ? { code: err.code, details: err.details } : null, message: e?.message ?? String(err), code: typeof e?.code === 'string' ? e.code : undefined, path: e?.path });
    });
  });
  post({ type: 'ready' });
} catch (err) {
  const e = err as NodeJS.ErrnoException;
  post({ type: 'error', format: err instanceof FormatError ? { code: err.code, details: err.details } : null, message: e?.message ?? String(err), code: typeof e?.code === 'string' ? e.code : undefined, path: e?.path });
}
