import type * as Zlib from 'node:zlib';

/** node:zlib, loaded when first used: opening or extracting an archive that stores its files does not load it. */
let loaded: typeof Zlib | undefined;
const zlib = (): typeof Zlib => (loaded ??= process.getBuiltinModule('node:zlib'));

/**
 * Node's native inflate for the format codecs, as plain Uint8Arrays (no Buffer reaches a codec). Native
 * inflate measured 3-4x pako's on 64 KiB chunks, which is why the codecs do not inflate with pako.
 * `maxOutputLength` bounds the allocation to what the caller expects; both throw on a bad stream, a
 * stream that outputs more with code ERR_BUFFER_TOO_LARGE. Through one native stream per thread, reset
 * between calls, where this Node has it (see `reusedInflate`); through `inflateSync` otherwise. The output
 * is a view of `into` where that has room beyond `maxOutputLength` (to see a stream that outputs more)
 * and the stream is reused: the caller's scratch, used before the next call.
 */
export function inflateZlib(data: Uint8Array, maxOutputLength: number, into?: Uint8Array): Uint8Array {
  const stream = maxOutputLength <= MAX_OUTPUT_CHUNK ? reusedInflate() : null;
  return stream ? stream.inflate(data, maxOutputLength, into) : inflateZlibOnce(data, maxOutputLength);
}

/** `inflateZlib` through a stream of its own, as `zlib.inflateSync` makes one for each call. */
export function inflateZlibOnce(data: Uint8Array, maxOutputLength: number): Uint8Array {
  return plain(zlib().inflateSync(data, { maxOutputLength: Math.max(maxOutputLength, 1), chunkSize: outputChunk(maxOutputLength) }));
}

/** What `zlib.Inflate` holds and `inflateSync` drives: its native stream and where a write leaves its counts. */
interface NativeInflateStream {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  reset(): void;
  onerror: (message: string, errno: number, code?: string) => void;
}

let reused: { inflate(data: Uint8Array, maxOutputLength: number, into?: Uint8Array): Uint8Array } | null | undefined;

/**
 * One native inflate stream kept for the thread and reset after each chunk, driven as `inflateSync` drives
 * the one it makes per call. inflateSync's stream object, its setup and its teardown cost as much as the
 * inflating of a 64 KiB chunk: over the 31,461 chunks of the bench's 303 MB zlib archive, 613-715 ms on one
 * thread against 347-383 ms with one stream. Node offers no public way to keep a stream for synchronous
 * calls, so this reads the stream's internals (as Node 20 has them) and, where they are not there,
 * returns null and `inflateSync` does the work. A failed chunk drops the stream.
 */
export function reusedInflate(): typeof reused {
  if (reused !== undefined) return reused;
  reused = null;
  const engine = new (zlib().Inflate)() as Zlib.Inflate & { _handle?: Partial<NativeInflateStream>; _writeState?: unknown };
  const stream = engine._handle;
  const counts = engine._writeState;
  if (typeof stream?.writeSync !== 'function' || typeof stream.reset !== 'function' || !(counts instanceof Uint32Array)) {
    engine.close();
    return reused;
  }
  const native = stream as NativeInflateStream;
  const finish = zlib().constants.Z_FINISH;
  let failure: Error | null = null;
  native.onerror = (message, errno, code) => {
    failure = Object.assign(new Error(message), { errno, code });
  };
  reused = {
    inflate(data, maxOutputLength, into) {
      const out = into && into.length > maxOutputLength ? into : plain(Buffer.allocUnsafe(outputChunk(maxOutputLength)));
      native.writeSync(finish, data, 0, data.length, out, 0, out.length);
      if (failure) {
        const err = failure;
        failure = null;
        reused = undefined;
        engine.close();
        throw err;
      }
      const written = out.length - counts[0]!;
      native.reset();
      // A full buffer is a stream that had more to give.
      if (counts[0] === 0 || written > maxOutputLength) {
        throw Object.assign(new RangeError(`Cannot create a Buffer larger than ${maxOutputLength} bytes`), {
          code: 'ERR_BUFFER_TOO_LARGE',
        });
      }
      return out.subarray(0, written);
    },
  };
  return reused;
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
  return Math.min(Math.max(expected, 0), MAX_OUTPUT_CHUNK) + INFLATE_ROOM;
}

const MAX_OUTPUT_CHUNK = 1 << 20;
/** Bytes of output room past the expected size, where a stream that outputs more shows itself. */
export const INFLATE_ROOM = 64;

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
