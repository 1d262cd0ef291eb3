/** A file as SQSH chunks of 64 KiB, each compressed and scrambled (both HPI versions write them so). */
import type { LaidChunks } from '../archive.js';
import { lz77CannotShrink } from './lz77.js';
import { CHUNK_SIZE, chunkBound, chunkPayload, SQSH_HEADER_SIZE, wrapChunkInto, type ChunkMethod } from './sqsh.js';

const chunkOf = (data: Uint8Array, at: number) => data.subarray(at, Math.min(data.length, at + CHUNK_SIZE));

/** Whether the file is LZ77-packed and LZ77 can shrink none of its chunks: the packers store it (see encodeFileChunksInto). */
export function lz77CannotShrinkAny(data: Uint8Array, method: ChunkMethod): boolean {
  if (method !== 1 || data.length === 0) return false;
  for (let at = 0; at < data.length; at += CHUNK_SIZE) if (!lz77CannotShrink(chunkOf(data, at))) return false;
  return true;
}

/** Most bytes a file of `size` bytes takes as chunks, with any method. */
export function fileChunksBound(size: number): number {
  const whole = Math.floor(size / CHUNK_SIZE);
  const rest = size % CHUNK_SIZE;
  return whole * chunkBound(CHUNK_SIZE) + (rest > 0 ? chunkBound(rest) : 0);
}

/**
 * The file's chunks, laid end to end in one array: `into` when it holds the file's bound, else a new one.
 * Packing reuses these arrays from file to file (and hands them between threads whole), so compressing a
 * file allocates nothing. Null for an LZ77 file none of whose chunks LZ77 can shrink (noise, data already
 * compressed): the writer then stores it (flag 0), which every reader takes, and it costs its own size
 * rather than 9/8 of it. An empty file has no chunks.
 */
export function encodeFileChunksInto(data: Uint8Array, method: ChunkMethod, into?: Uint8Array): LaidChunks | null {
  if (lz77CannotShrinkAny(data, method)) return null;
  const bound = fileChunksBound(data.length);
  let bytes = into && into.length >= bound ? into : new Uint8Array(bound);
  const ends: number[] = [];
  let end = 0;
  for (let at = 0; at < data.length; at += CHUNK_SIZE) {
    const piece = chunkOf(data, at);
    const payload = chunkPayload(piece, method);
    const need = end + SQSH_HEADER_SIZE + payload.length;
    // The bound holds for both codecs; growing is only a guard should a codec ever exceed it.
    if (need > bytes.length) {
      const grown = new Uint8Array(Math.max(need, 2 * bytes.length));
      grown.set(bytes.subarray(0, end));
      bytes = grown;
    }
    end = wrapChunkInto(payload, piece.length, method, true, bytes, end);
    ends.push(end);
  }
  return { bytes, ends };
}

/** The chunks of a LaidChunks as views of its array. */
export function chunkViews({ bytes, ends }: LaidChunks): Uint8Array[] {
  return ends.map((end, i) => bytes.subarray(ends[i - 1] ?? 0, end));
}

/** The chunks as one view when each starts where the one before ends in the same array, else null. */
export function laidEndToEnd(chunks: readonly Uint8Array[]): Uint8Array | null {
  const first = chunks[0];
  if (!first) return null;
  let end = first.byteOffset + first.length;
  for (let i = 1; i < chunks.length; i++) {
    const c = chunks[i]!;
    if (c.buffer !== first.buffer || c.byteOffset !== end) return null;
    end += c.length;
  }
  return chunks.length === 1 ? first : new Uint8Array(first.buffer, first.byteOffset, end - first.byteOffset);
}
