/**
 * An HPI v1 file's bytes piece by piece, from its place in the archive alone (data offset, size, flag and
 * the cipher key): what an extraction thread needs, without the directory. `HpiV1Archive.stream` is the
 * same walk over asynchronous reads; the checks and messages are shared below.
 */
import type { ChunkScratch, ReadSync } from '../archive.js';
import { checkRange, fail } from '../../../shared/errors.js';
import { positionCipherInto } from './cipher.js';
import { CHUNK_SIZE, decodeStoredChunk, SQSH_HEADER_SIZE } from './sqsh.js';
import { chunkCount } from './v1-directory.js';

/** Where a v1 file's bytes are and how they are stored (a V1Entry has these; so does an extraction plan). */
export interface V1File {
  /** For messages. */
  readonly path: string;
  readonly dataOffset: number;
  readonly size: number;
  /** 0 stored, else chunked. */
  readonly flag: number;
}

/** Chunk i's packed size from the (plain) chunk table, checked to hold at least a chunk header. */
export function chunkSizeAt(table: DataView, i: number, file: V1File): number {
  const size = table.getUint32(i * 4, true);
  if (size < SQSH_HEADER_SIZE)
    fail('bad-stream', `${file.path}: chunk ${i} is ${size} bytes, smaller than a chunk header`, {
      offset: file.dataOffset + i * 4,
      actual: size,
    });
  return size;
}

/** Chunk i decoded to `data`: it must hold the bytes its place in the file calls for. */
export function checkChunkLength(data: Uint8Array, expected: number, i: number, at: number, file: V1File): void {
  if (data.length !== expected) {
    fail('size-mismatch', `${file.path}: chunk ${i} holds ${data.length} bytes, expected ${expected}`, {
      offset: at,
      expected,
      actual: data.length,
    });
  }
}

/** Stored files are deciphered in slices of this size: small enough to be served from a FileSource's block. */
const STORED_SLICE = 128 << 10;

let tableScratch = new Uint8Array(4096);

/**
 * Hand the file's bytes to `put` piece by piece (a chunk, or a slice of a stored file), each a view of
 * `scratch` valid until the next piece: the same bytes, errors and warnings as `HpiV1Archive.stream`,
 * without a promise per piece. `sourceSize` bounds every chunk before it is read.
 */
export function v1PiecesSync(
  read: ReadSync,
  sourceSize: number,
  key: number,
  file: V1File,
  put: (piece: Uint8Array) => void,
  scratch: ChunkScratch,
  onWarning?: (message: string) => void,
): void {
  const { dataOffset, size } = file;
  if (file.flag === 0) {
    for (let at = 0; at < size; at += STORED_SLICE) {
      const length = Math.min(STORED_SLICE, size - at);
      const raw = read(dataOffset + at, length);
      const into = scratch.take(length).subarray(0, length);
      if (key === 0) into.set(raw);
      else positionCipherInto(raw, dataOffset + at, key, into);
      put(into);
    }
    return;
  }
  const count = chunkCount(size);
  const tableBytes = count * 4;
  if (tableScratch.length < tableBytes) tableScratch = new Uint8Array(Math.max(tableBytes, 2 * tableScratch.length));
  // The chunk reads below may refill the block the table was read from: it is kept (plain) in a scratch of its own.
  const rawTable = read(dataOffset, tableBytes);
  const table = tableScratch.subarray(0, tableBytes);
  if (key === 0) table.set(rawTable);
  else positionCipherInto(rawTable, dataOffset, key, table);
  const tableView = new DataView(table.buffer, 0, tableBytes);
  let at = dataOffset + tableBytes;
  let done = 0;
  for (let i = 0; i < count; i++) {
    const packed = chunkSizeAt(tableView, i, file);
    if (at + packed > sourceSize) checkRange(`${file.path}: chunk ${i}`, at, packed, sourceSize);
    const expected = Math.min(CHUNK_SIZE, size - done);
    const data = decodeStoredChunk(read(at, packed), at, key, expected, onWarning, scratch.take(expected));
    checkChunkLength(data, expected, i, at, file);
    put(data);
    done += expected;
    at += packed;
  }
}
