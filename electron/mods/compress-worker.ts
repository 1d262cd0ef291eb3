/** Worker side of the compression pool: files' bytes in, their encoded chunks out (see compress-pool.ts). */
import { parentPort } from 'node:worker_threads';
import { fileCodec } from '../formats/file-codecs.js';
import { toThreadError } from '../io/thread-errors.js';
import type { CompressReply, CompressRequest } from './compress-pool.js';

const port = parentPort!;
port.on('message', (m: CompressRequest) => {
  try {
    const laid = fileCodec(m.method).encodeInto(m.data, m.into ?? undefined);
    // Moved back whole, not copied: the chunks' one array, the lent file bytes, and the array lent for
    // chunks that did not go in it (a stored file), so neither thread allocates per file.
    const spare = m.into !== null && laid?.bytes.buffer !== m.into.buffer ? m.into : null;
    const moved = laid ? [laid.bytes.buffer as ArrayBuffer] : [];
    if (spare) moved.push(spare.buffer as ArrayBuffer);
    if (m.lent) moved.push(m.data.buffer as ArrayBuffer);
    port.postMessage({ id: m.id, data: m.lent ? m.data : null, laid, spare } satisfies CompressReply, moved);
  } catch (err) {
    // With its code (a FormatError's, or a system error's), as this thread would have thrown it.
    port.postMessage({ id: m.id, error: toThreadError(err) } satisfies CompressReply);
  }
});
