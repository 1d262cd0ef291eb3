/**
 * What a writer's compression pipeline (compress-order.ts) and the compression workers
 * (mods/compress-worker.ts) do to one file, by a method number that crosses the thread boundary. HPI's
 * SQSH methods keep their own numbers (1 LZ77, 2 zlib: a file becomes 64 KiB chunks); the PAK-family
 * codecs make one stream of the whole file and take numbers of their own.
 */
import type { LaidChunks } from './archive.js';
import { dkCompressBound, dkCompressInto } from './daikatana/encode.js';
import { encodeFileChunksInto, fileChunksBound } from './hpi/chunks.js';
import { lz77EncodeBound, lz77EncodeIfSmaller } from './pangya/lz77-encode.js';

import { DAIKATANA_METHOD, PANGYA_LZ77_METHOD, PANGYA_LZ77X_METHOD } from './entry-span.js';

/** The PAK family's method numbers are entry-span.ts's, where readers decode them. */
export { DAIKATANA_METHOD, PANGYA_LZ77_METHOD, PANGYA_LZ77X_METHOD };

export interface FileCodec {
  /** The most `encodeInto` writes for a file of `size` bytes (an array this large is never replaced). */
  bound(size: number): number;
  /** The file's encoded form laid in `into` when it holds the bound, else in a new array; null: store the file as it is. */
  encodeInto(data: Uint8Array, into?: Uint8Array): LaidChunks | null;
}

/** One stream (a view from the start of the array it was written in) as LaidChunks of one chunk; null: store. */
const single = (stream: Uint8Array | null): LaidChunks | null =>
  stream === null
    ? null
    : { bytes: new Uint8Array(stream.buffer, stream.byteOffset, stream.buffer.byteLength - stream.byteOffset), ends: [stream.length] };

const daikatana: FileCodec = {
  bound: dkCompressBound,
  encodeInto: (data, into) => {
    if (data.length === 0) return null;
    const packed = dkCompressInto(data, into);
    return single(packed.length < data.length ? packed : null);
  },
};

const pangya = (type: 1 | 3): FileCodec => ({
  bound: lz77EncodeBound,
  encodeInto: (data, into) => single(lz77EncodeIfSmaller(data, type, into)),
});

const CODECS: Record<number, FileCodec> = {
  1: { bound: fileChunksBound, encodeInto: (data, into) => encodeFileChunksInto(data, 1, into) },
  2: { bound: fileChunksBound, encodeInto: (data, into) => encodeFileChunksInto(data, 2, into) },
  [DAIKATANA_METHOD]: daikatana,
  [PANGYA_LZ77_METHOD]: pangya(1),
  [PANGYA_LZ77X_METHOD]: pangya(3),
};

export function fileCodec(method: number): FileCodec {
  const codec = CODECS[method];
  if (!codec) throw new Error(`compression method ${method} is none of HPI's LZ77 (1) or zlib (2), Daikatana's (16) or Pangya's (17, 18)`);
  return codec;
}
