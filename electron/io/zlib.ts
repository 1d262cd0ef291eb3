import type * as Zlib from 'node:zlib';

/** node:zlib, loaded when first used: opening or extracting an archive that stores its files does not load it. */
let loaded: typeof Zlib | undefined;
const zlib = (): typeof Zlib => (loaded ??= process.getBuiltinModule('node:zlib'));

/**
 * Node's native inflate for the format codecs, as plain Uint8Arrays (no Buffer reaches a codec). Native
 * inflate measured 3-4x pako's on 64 KiB chunks, which is why the codecs do not inflate with pako.
 * `maxOutputLength` bounds the allocation to what the caller expects; both throw on a bad stream.
 */
export function inflateZlib(data: Uint8Array, maxOutputLength: number): Uint8Array {
  return plain(zlib().inflateSync(data, { maxOutputLength: Math.max(maxOutputLength, 1), chunkSize: outputChunk(maxOutputLength) }));
}

/** Raw deflate without the zlib header and Adler-32, flushed as far as it goes (a missing Adler-32 is not an error). */
export function inflateRaw(data: Uint8Array, maxOutputLength: number): Uint8Array {
  return plain(
    zlib().inflateRawSync(data, {
      finishFlush: zlib().constants.Z_SYNC_FLUSH,
      maxOutputLength: Math.max(maxOutputLength, 1),
      chunkSize: outputChunk(maxOutputLength),
    }),
  );
}

/**
 * zlib's output buffer: the whole expected output and a little room, so the end of the stream is seen in
 * the first buffer. Node's default (16 KiB) inflated a 64 KiB chunk into five arrays and a concatenation
 * (30 % more CPU, and the extra arrays raised peak memory). Capped, so a size that lies allocates little.
 */
function outputChunk(expected: number): number {
  return Math.min(Math.max(expected, 0), 1 << 20) + 64;
}

function plain(buf: Uint8Array): Uint8Array {
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/**
 * Native deflate at zlib's default level (6), as a zlib stream (header and Adler-32). The packers' zlib
 * chunks: 2.8x pako's speed on the bench corpus's 64 KiB chunks (1.9 against 5.5 CPU-seconds for 5,000
 * files). Neither this nor pako reproduces HPIPack's zlib bytes; both are valid streams every reader inflates.
 */
export function deflateZlib(data: Uint8Array): Uint8Array {
  // Room for the whole stream (above zlib's compressBound) in one output buffer, capped as inflate's is, so a
  // 64 KiB chunk is not written in 16 KiB pieces and concatenated, and a PNG's rows get no second copy.
  return plain(zlib().deflateSync(data, { chunkSize: outputChunk(data.length + (data.length >> 8)) }));
}
