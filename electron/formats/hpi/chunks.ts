/** A file as SQSH chunks of 64 KiB, each compressed and scrambled (both HPI versions write them so). */
import { lz77CannotShrink } from './lz77.js';
import { CHUNK_SIZE, encodeChunk, type ChunkMethod } from './sqsh.js';

const chunkOf = (data: Uint8Array, at: number) => data.subarray(at, Math.min(data.length, at + CHUNK_SIZE));

/**
 * The file's chunks, or null for an LZ77 file none of whose chunks LZ77 can shrink (noise, data already
 * compressed): the writer then stores it (flag 0), which every reader takes, and it costs its own size
 * rather than 9/8 of it. An empty file keeps its empty chunk list.
 */
export function encodeFileChunks(data: Uint8Array, method: ChunkMethod): Uint8Array[] | null {
  if (method === 1 && data.length > 0) {
    let at = 0;
    while (at < data.length && lz77CannotShrink(chunkOf(data, at))) at += CHUNK_SIZE;
    if (at >= data.length) return null;
  }
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += CHUNK_SIZE) chunks.push(encodeChunk(chunkOf(data, at), method, true));
  return chunks;
}
