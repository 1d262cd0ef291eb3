/** Worker side of the compression pool: files' bytes in, their encoded chunks out (see compress-pool.ts). */
import { parentPort } from 'node:worker_threads';
import { fileCodec } from '../formats/file-codecs.js';
import type { CompressReply, CompressRequest } from './compress-pool.js';

const port = parentPort!;
port.on('message', (m: CompressRequest) => {
  try {
    const laid = fileCodec(m.method).encodeInto(m.data, m.into ?? undefined);
    // Moved back whole, not copied: the chunks' one array and the lent file bytes, so neither thread
    // allocates per file and nothing waits for a collection to be freed.
    const moved = laid ? [laid.bytes.buffer as ArrayBuffer] : [];
    if (m.lent) moved.push(m.data.buffer as ArrayBuffer);
    port.postMessage({ id: m.id, data: m.lent ? m.data : null, laid } satisfies CompressReply, moved);
  } catch (err) {
    port.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) } satisfies CompressReply);
  }
});
