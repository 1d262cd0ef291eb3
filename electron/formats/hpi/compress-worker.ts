/** Worker side of the compression pool: files' bytes in, their SQSH chunks out (see compress-pool.ts). */
import { parentPort } from 'node:worker_threads';
import { encodeFileChunks } from './chunks.js';
import type { CompressReply, CompressRequest } from './compress-pool.js';

const port = parentPort!;
port.on('message', (m: CompressRequest) => {
  try {
    const chunks = encodeFileChunks(m.data, m.method);
    port.postMessage({ id: m.id, chunks } satisfies CompressReply, chunks.map((c) => c.buffer as ArrayBuffer));
  } catch (err) {
    port.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) } satisfies CompressReply);
  }
});
