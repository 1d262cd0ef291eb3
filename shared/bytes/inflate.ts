import { Inflate } from 'pako';
import { fail } from '../errors.js';

/**
 * A zlib stream inflated into at most `limit` bytes: the output buffer is sized from what the caller already
 * checked (a frame's width × height × channels), so a stream that would inflate past it (a zlib bomb, a
 * damaged size) fails at the limit instead of allocating what it asks for. Returns what it inflated to.
 */
export function inflateAtMost(what: string, stream: Uint8Array, limit: number): Uint8Array {
  const expected = limit;
  const out = new Uint8Array(expected);
  let written = 0;
  const inflater = new Inflate({ chunkSize: Math.min(Math.max(expected, 1024), 1 << 16) });
  inflater.onData = (chunk: Uint8Array) => {
    if (written + chunk.length > expected)
      fail('size-mismatch', `${what}: the zlib stream inflates past ${expected} bytes`, { expected, actual: written + chunk.length });
    out.set(chunk, written);
    written += chunk.length;
  };
  inflater.onEnd = () => {};
  inflater.push(stream, true);
  if (inflater.err) fail('bad-stream', `${what}: zlib stream is damaged (${inflater.msg || `error ${inflater.err}`})`);
  if (!inflater.ended) fail('truncated', `${what}: the zlib stream ends early, after ${written} bytes`, { actual: written });
  return out.subarray(0, written);
}
