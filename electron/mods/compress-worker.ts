/** Worker side of the compression pool: files' bytes in, their SQSH chunks out (see compress-pool.ts). */
import { parentPort } from 'node:worker_threads';
import { encodeFileChunks } from '../formats/hpi/chunks.js';
import type { CompressReply, CompressRequest } from './compress-pool.js';

const port = parentPort!;
port.on('message', (m: CompressRequest) => {
  try {
    if (m.method !== 1 && m.method !== 2) throw new Error(`compression method ${m.method} is not LZ77 (1) or zlib (2)`);
    const chunks = encodeFileChunks(m.data, m.method);
    // Copied, not transferred: a file's chunks are small, and handing thousands of small buffers from
    // thread to thread costs more than copying them (a full pack of the bench corpus: 11.2-11.5 s against 12.2-13.7 s).
    port.postMessage({ id: m.id, chunks } satisfies CompressReply);
  } catch (err) {
    port.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) } satisfies CompressReply);
  }
});
