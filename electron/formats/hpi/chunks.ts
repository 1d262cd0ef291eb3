/** A file as SQSH chunks of 64 KiB, each compressed and scrambled (both HPI versions write them so). */
import { CHUNK_SIZE, encodeChunk, type ChunkMethod } from './sqsh.js';

export function encodeFileChunks(data: Uint8Array, method: ChunkMethod): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += CHUNK_SIZE)
    chunks.push(encodeChunk(data.subarray(at, Math.min(data.length, at + CHUNK_SIZE)), method, true));
  return chunks;
}
