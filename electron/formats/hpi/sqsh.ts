/**
 * SQSH chunks, shared by HPI v1 and v2: a 19-byte header and a payload.
 *
 * 0x00 'SQSH'  0x04 u8 version (2)  0x05 u8 method (0 stored, 1 LZ77, 2 zlib)  0x06 u8 scrambled
 * 0x07 u32 compressedSize  0x0B u32 size (uncompressed)  0x0F u32 checksum (byte sum of the payload as stored)
 *
 * The chunk's own method decides how it decodes, whatever the file's flag says.
 */
import { deflateZlib, inflateRaw, inflateZlib } from '../../io/zlib.js';
import { fail, FormatError } from '../../../shared/errors.js';
import { byteSum } from './checksums.js';
import { decipherPayload, payloadCipher, scrambleInPlace } from './cipher.js';
import { decodeLz77, decodeLz77Written, encodeLz77, encodeLz77Literals, encodeLz77View, lz77CannotShrink, LZ77_MAX_RATIO } from './lz77.js';
import { decipherInto } from './wasm/cipher.js';

export const SQSH_MAGIC = 0x48535153; // 'SQSH' little-endian
export const SQSH_HEADER_SIZE = 19;
/** v1 files are cut into chunks of this many uncompressed bytes (the last may be shorter). */
export const CHUNK_SIZE = 65536;
/** zlib's largest possible expansion (a stream of repeated bytes), used to reject implausible sizes. */
const ZLIB_MAX_RATIO = 1032;

export type ChunkMethod = 0 | 1 | 2;
export const METHOD_NAMES = ['stored', 'lz77', 'zlib'] as const;

export interface ChunkHeader {
  version: number;
  method: number;
  scrambled: boolean;
  compressedSize: number;
  size: number;
  checksum: number;
}

export function readChunkHeader(bytes: Uint8Array, at: number, where: number): ChunkHeader {
  if (at + SQSH_HEADER_SIZE > bytes.length) {
    fail('truncated', `SQSH chunk header at ${where} cut off: ${at} + ${SQSH_HEADER_SIZE} > ${bytes.length}`, { offset: where });
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, SQSH_HEADER_SIZE);
  const magic = view.getUint32(0, true);
  if (magic !== SQSH_MAGIC) fail('bad-magic', `no SQSH chunk at ${where} (found 0x${magic.toString(16)})`, { offset: where });
  return {
    version: view.getUint8(4),
    method: view.getUint8(5),
    scrambled: view.getUint8(6) !== 0,
    compressedSize: view.getUint32(7, true),
    size: view.getUint32(11, true),
    checksum: view.getUint32(15, true),
  };
}

/** Largest uncompressed size a payload of `packed` bytes can honestly decode to with `method`. */
export function maxDecodedSize(method: number, packed: number): number {
  if (method === 1) return packed * LZ77_MAX_RATIO;
  if (method === 2) return packed * ZLIB_MAX_RATIO;
  return packed;
}

/** The checks every payload passes before anything is decoded or allocated for it. */
function checkPayload(header: ChunkHeader, length: number, where: number): void {
  const { method, size } = header;
  if (length !== header.compressedSize) {
    fail('size-mismatch', `SQSH chunk at ${where}: payload is ${length} bytes, header says ${header.compressedSize}`, { offset: where });
  }
  if (method > 2) fail('unsupported', `SQSH chunk at ${where}: unknown method ${method}`, { offset: where, actual: method });
  if (size > maxDecodedSize(method, length)) {
    fail('bad-stream', `SQSH chunk at ${where}: ${size} bytes cannot come from ${length} packed bytes (${METHOD_NAMES[method]})`, {
      offset: where,
      expected: maxDecodedSize(method, length),
      actual: size,
    });
  }
}

function checkSum(header: ChunkHeader, sum: number, where: number, onWarning?: (m: string) => void): void {
  if (sum !== header.checksum) {
    onWarning?.(`SQSH chunk at ${where}: checksum 0x${header.checksum.toString(16)} does not match the payload's 0x${sum.toString(16)}`);
  }
}

/** Decode an unscrambled LZ77 or zlib payload (read once, straight away: it may be the scratch buffer). */
function decodeCompressed(
  header: ChunkHeader,
  plain: Uint8Array,
  where: number,
  onWarning?: (m: string) => void,
  into?: Uint8Array,
): Uint8Array {
  if (header.method === 1) return inChunk(where, () => decodeLz77(plain, header.size, into));
  return inflateChunk(plain, header.size, where, onWarning);
}

/** A decoder's FormatError said of the chunk at `where`. */
function inChunk<T>(where: number, decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    if (err instanceof FormatError) fail(err.code, `SQSH chunk at ${where}: ${err.message}`, { ...err.details, offset: where });
    throw err;
  }
}

function checkStoredSize(header: ChunkHeader, length: number, where: number): void {
  if (length !== header.size)
    fail('size-mismatch', `stored SQSH chunk at ${where}: ${length} bytes, header says ${header.size}`, { offset: where });
}

/**
 * Decode a chunk's payload (position cipher already removed). The checksum is over the payload as stored;
 * a mismatch is a warning, as the game does not check it. Sizes are checked before anything is allocated.
 */
export function decodeChunk(header: ChunkHeader, payload: Uint8Array, where: number, onWarning?: (m: string) => void): Uint8Array {
  checkPayload(header, payload.length, where);
  let out: Uint8Array;
  let sum: number;
  if (header.method === 0) {
    checkStoredSize(header, payload.length, where);
    out = new Uint8Array(payload.length);
    sum = decipherPayload(payload, 0, 0, header.scrambled, out);
  } else {
    // The decoders read the unscrambled payload once, straight away: reuse one scratch buffer for it.
    const plain = scratchFor(payload.length).subarray(0, payload.length);
    sum = decipherPayload(payload, 0, 0, header.scrambled, plain);
    out = decodeCompressed(header, plain, where, onWarning);
  }
  // Only a chunk that decodes gets the warning: for one that does not, its error says all.
  checkSum(header, sum, where, onWarning);
  return out;
}

const headerScratch = new Uint8Array(SQSH_HEADER_SIZE);

/**
 * Decode the chunk `raw` holds exactly as stored at `filePos` (HPI v1: position cipher with key K still
 * on, 0 = none). The same checks and messages as `decodeChunkAt`, but the payload is deciphered, summed
 * and unscrambled in one pass into a scratch buffer, so a chunk costs its output array and nothing else.
 */
export function decodeStoredChunk(
  raw: Uint8Array,
  filePos: number,
  key: number,
  maxSize: number,
  onWarning?: (m: string) => void,
  into?: Uint8Array,
): Uint8Array {
  if (raw.length < SQSH_HEADER_SIZE) readChunkHeader(raw, 0, filePos);
  decipherPayload(raw.subarray(0, SQSH_HEADER_SIZE), filePos, key, false, headerScratch);
  const header = readChunkHeader(headerScratch, 0, filePos);
  const end = SQSH_HEADER_SIZE + header.compressedSize;
  if (end > raw.length) {
    fail(
      'out-of-bounds',
      `SQSH chunk at ${filePos}: payload overflows its bounds: ${filePos + SQSH_HEADER_SIZE} + ${header.compressedSize} > ${filePos + raw.length}`,
      {
        offset: filePos,
        expected: filePos + raw.length,
        actual: filePos + end,
      },
    );
  }
  if (header.size > maxSize)
    fail('size-mismatch', `SQSH chunk at ${filePos} declares ${header.size} bytes, at most ${maxSize} expected`, {
      offset: filePos,
      expected: maxSize,
      actual: header.size,
    });
  const stored = raw.subarray(SQSH_HEADER_SIZE, end);
  checkPayload(header, stored.length, filePos);
  const at = filePos + SQSH_HEADER_SIZE;
  if (header.method === 0) {
    const out = into && into.length >= stored.length ? into.subarray(0, stored.length) : new Uint8Array(stored.length);
    const sum = decipherPayload(stored, at, key, header.scrambled, out);
    checkStoredSize(header, out.length, filePos);
    checkSum(header, sum, filePos, onWarning);
    return out;
  }
  if (header.method === 1) {
    // Deciphered and summed straight into the decoder's memory.
    const cipher = payloadCipher(at, key, header.scrambled);
    const { out, input: sum } = inChunk(filePos, () =>
      decodeLz77Written(stored.length, header.size, (input) => decipherInto(stored, cipher, input), into),
    );
    checkSum(header, sum, filePos, onWarning);
    return out;
  }
  const plain = scratchFor(stored.length).subarray(0, stored.length);
  const sum = decipherPayload(stored, at, key, header.scrambled, plain);
  const out = inflateChunk(plain, header.size, filePos, onWarning, into);
  // Only a chunk that decodes gets the warning: for one that does not, its error says all.
  checkSum(header, sum, filePos, onWarning);
  return out;
}

let scratch = new Uint8Array(CHUNK_SIZE + 1024);
function scratchFor(length: number): Uint8Array {
  if (scratch.length < length) scratch = new Uint8Array(length);
  return scratch;
}

/**
 * zlib with the Adler-32 checked by zlib itself; if that fails, raw-inflate after the 2 header bytes, which
 * reads streams whose Adler-32 is missing or wrong (an old packer wrote such chunks and the game loads them).
 */
function inflateChunk(plain: Uint8Array, size: number, where: number, onWarning?: (m: string) => void, into?: Uint8Array): Uint8Array {
  let out: Uint8Array;
  try {
    out = inflateZlib(plain, size, into);
  } catch (first) {
    if ((first as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      fail('size-mismatch', `zlib chunk at ${where} inflates to more than the ${size} bytes its header declares`, {
        offset: where,
        expected: size,
      });
    }
    try {
      out = inflateRaw(plain.subarray(2), size);
      onWarning?.(`zlib chunk at ${where} has a missing or bad Adler-32 (tolerated)`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        fail('size-mismatch', `zlib chunk at ${where} inflates to more than the ${size} bytes its header declares`, {
          offset: where,
          expected: size,
        });
      }
      fail('bad-stream', `zlib chunk at ${where} does not inflate: ${(err as Error).message}`, { offset: where });
    }
  }
  if (out.length !== size)
    fail('size-mismatch', `zlib chunk at ${where} inflated to ${out.length} bytes, expected ${size}`, {
      offset: where,
      expected: size,
      actual: out.length,
    });
  return out;
}

/**
 * Compress `data` with `method` (no header). zlib chunks are Node's native deflate at its default
 * level: valid streams every reader inflates, though not byte for byte HPIPack's. Neither pako nor Node's
 * zlib reproduces HPIPack's bytes at any level, memLevel or strategy (formats.md), so nothing is lost.
 */
export function compressPayload(data: Uint8Array, method: ChunkMethod): Uint8Array {
  if (method === 1) return encodeLz77(data);
  if (method === 2) return deflateZlib(data);
  return data.slice();
}

/** A whole chunk, header + payload, ready to (optionally) encipher and write. */
export function encodeChunk(data: Uint8Array, method: ChunkMethod, scrambled: boolean): Uint8Array {
  // wrapChunk copies the payload into the chunk: the LZ77 stream can stay in the encoder's scratch and
  // stored bytes need no copy of their own (one array per chunk, not two, for the collector to free).
  return wrapChunk(chunkPayload(data, method), data.length, method, scrambled);
}

/**
 * A chunk's payload before wrapping: the LZ77 stream is a view of this thread's scratch, valid until its next
 * encode. Bytes LZ77 cannot shrink (noise, already compressed data) skip the search: literals cost no more.
 */
export function chunkPayload(data: Uint8Array, method: ChunkMethod): Uint8Array {
  if (method === 1) return lz77CannotShrink(data) ? encodeLz77Literals(data) : encodeLz77View(data);
  return method === 2 ? compressPayload(data, method) : data;
}

/**
 * Most bytes a chunk of `size` uncompressed bytes takes with any method: LZ77 writes at most 9/8 of its input
 * and a terminator, zlib's deflateBound is below that, stored is the input itself.
 */
export function chunkBound(size: number): number {
  return SQSH_HEADER_SIZE + size + (size >>> 3) + 16;
}

/** Put an already compressed payload into a chunk (scrambling it in place first when asked). */
export function wrapChunk(payload: Uint8Array, size: number, method: ChunkMethod, scrambled: boolean): Uint8Array {
  const chunk = new Uint8Array(SQSH_HEADER_SIZE + payload.length);
  wrapChunkInto(payload, size, method, scrambled, chunk, 0);
  return chunk;
}

/** wrapChunk into `out` at `at` (room for the header and payload checked by the caller); returns the chunk's end. */
export function wrapChunkInto(
  payload: Uint8Array,
  size: number,
  method: ChunkMethod,
  scrambled: boolean,
  out: Uint8Array,
  at: number,
): number {
  const end = at + SQSH_HEADER_SIZE + payload.length;
  const body = out.subarray(at + SQSH_HEADER_SIZE, end);
  body.set(payload);
  if (scrambled) scrambleInPlace(body);
  const view = new DataView(out.buffer, out.byteOffset + at, SQSH_HEADER_SIZE);
  view.setUint32(0, SQSH_MAGIC, true);
  view.setUint8(4, 2);
  view.setUint8(5, method);
  view.setUint8(6, scrambled ? 1 : 0);
  view.setUint32(7, payload.length, true);
  view.setUint32(11, size, true);
  view.setUint32(15, byteSum(body), true);
  return end;
}

export interface DecodedChunk {
  header: ChunkHeader;
  data: Uint8Array;
  /** Offset in `body` just past the chunk. */
  end: number;
}

/**
 * Decode the chunk at `at` in `body` (plain bytes: the position cipher already removed). `origin` is the
 * body's absolute file offset, for messages; `maxSize` is the most this chunk may decode to, checked
 * before anything is allocated.
 */
export function decodeChunkAt(
  body: Uint8Array,
  at: number,
  origin: number,
  maxSize: number,
  onWarning?: (m: string) => void,
): DecodedChunk {
  const where = origin + at;
  const header = readChunkHeader(body, at, where);
  const start = at + SQSH_HEADER_SIZE;
  if (start + header.compressedSize > body.length) {
    fail(
      'out-of-bounds',
      `SQSH chunk at ${where}: payload overflows its bounds: ${origin + start} + ${header.compressedSize} > ${origin + body.length}`,
      {
        offset: where,
        expected: origin + body.length,
        actual: origin + start + header.compressedSize,
      },
    );
  }
  if (header.size > maxSize)
    fail('size-mismatch', `SQSH chunk at ${where} declares ${header.size} bytes, at most ${maxSize} expected`, {
      offset: where,
      expected: maxSize,
      actual: header.size,
    });
  const data = decodeChunk(header, body.subarray(start, start + header.compressedSize), where, onWarning);
  return { header, data, end: start + header.compressedSize };
}

/** Join decoded parts whose total is known (a single part is returned as is). */
export function joinParts(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
