/**
 * Hostile archives generated in code from the format descriptions (../shared/docs/formats.md), never
 * with the writers under test. HPI v1, no cipher (HeaderKey 0):
 *   header 'HAPI', u32 0x00010000, u32 directoryEnd (absolute), u32 headerKey, u32 start (0x14)
 *   Dir {u32 count, u32 entriesOffset}; Entry {u32 nameOffset, u32 dataOffset, u8 isDir} (9 bytes);
 *   File {u32 dataOffset, u32 size, u8 flag} at a file entry's dataOffset. Offsets absolute.
 * SQSH chunk: 'SQSH', u8 2, u8 method, u8 scrambled, u32 compressedSize, u32 size, u32 byte-sum checksum.
 * HPI v2: 'HAPI', u32 0x00020000, DirBlock, DirSize, NameBlock, NameSize, Data, Last78 (u32 each);
 *   Dir2 {namePtr, firstSubDir, subCount, firstFile, fileCount} (i32, 20 bytes),
 *   File2 {namePtr, start, size, compressedSize, date, checksum} (24 bytes); blocks raw or one SQSH chunk.
 */
import { deflateSync } from 'node:zlib';

class Bytes {
  private buf = new Uint8Array(1 << 16);
  length = 0;
  private grow(n: number) {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }
  u8(v: number) {
    this.grow(1);
    this.buf[this.length++] = v;
    return this;
  }
  u32(v: number) {
    this.grow(4);
    new DataView(this.buf.buffer).setUint32(this.length, v >>> 0, true);
    this.length += 4;
    return this;
  }
  bytes(b: Uint8Array) {
    this.grow(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }
  text(s: string) {
    return this.bytes(new TextEncoder().encode(s));
  }
  patch32(at: number, v: number) {
    new DataView(this.buf.buffer).setUint32(at, v >>> 0, true);
  }
  done(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

const v1Header = (b: Bytes) => b.text('HAPI').u32(0x00010000).u32(0).u32(0).u32(20);

/** The Cavedog trailer TA 3.1c wants as the last 36 bytes, so the game (and the mount) reads the directory. */
export function withTrailer(bytes: Uint8Array): Uint8Array {
  const trailer = new TextEncoder().encode('Copyright 1997 Cavedog Entertainment');
  const out = new Uint8Array(bytes.length + trailer.length);
  out.set(bytes);
  out.set(trailer, bytes.length);
  return out;
}

/**
 * `folders` folders at the root, each its own directory header, all pointing at ONE list of `files` file
 * entries (which share one zero-byte stored file record): folders × files entries from a few bytes each.
 * With `shift`, each folder's list starts 9 bytes later than the one before (overlapping, never equal).
 */
export function hpiV1Amplifier(folders: number, files: number, shift = false): Uint8Array {
  const b = v1Header(new Bytes());
  const rootAt = b.length;
  const rootEntries = rootAt + 8;
  const subsAt = rootEntries + folders * 9;
  const listAt = subsAt + folders * 8;
  const listLength = files + (shift ? folders : 0);
  const recordAt = listAt + listLength * 9;
  const nameAt = recordAt + 9;
  b.u32(folders).u32(rootEntries);
  for (let i = 0; i < folders; i++)
    b.u32(nameAt)
      .u32(subsAt + i * 8)
      .u8(1);
  for (let i = 0; i < folders; i++) b.u32(files).u32(listAt + (shift ? i * 9 : 0));
  for (let i = 0; i < listLength; i++) b.u32(nameAt).u32(recordAt).u8(0);
  b.u32(0).u32(0).u8(0);
  b.text('A').u8(0);
  b.patch32(8, b.length);
  return b.done();
}

/** Stored files at the root, named as given (any bytes but NUL), each holding its own name's first byte. */
export function hpiV1Files(names: readonly string[]): Uint8Array {
  const b = v1Header(new Bytes());
  const entriesAt = b.length + 8;
  const recordsAt = entriesAt + names.length * 9;
  let nameAt = recordsAt + names.length * 9;
  const nameOffsets = names.map((n) => {
    const at = nameAt;
    nameAt += n.length + 1;
    return at;
  });
  const dataAt = nameAt;
  b.u32(names.length).u32(entriesAt);
  names.forEach((_, i) =>
    b
      .u32(nameOffsets[i]!)
      .u32(recordsAt + i * 9)
      .u8(0),
  );
  names.forEach((_, i) =>
    b
      .u32(dataAt + i)
      .u32(1)
      .u8(0),
  );
  for (const n of names) b.bytes(Uint8Array.from(n, (c) => c.charCodeAt(0) & 0xff)).u8(0);
  b.patch32(8, b.length);
  for (const n of names) b.u8(n.charCodeAt(0) & 0xff);
  return b.done();
}

/** One stored file whose name is `length` characters long. */
export function hpiV1LongName(length: number): Uint8Array {
  const b = v1Header(new Bytes());
  const entriesAt = b.length + 8;
  const recordAt = entriesAt + 9;
  const nameAt = recordAt + 9;
  b.u32(1).u32(entriesAt);
  b.u32(nameAt).u32(recordAt).u8(0);
  b.u32(0).u32(0).u8(0);
  b.text('N'.repeat(length)).u8(0);
  b.patch32(8, b.length);
  return b.done();
}

/** A whole SQSH chunk: zlib (method 2) of `plain`. */
export function sqshZlib(plain: Uint8Array): Uint8Array {
  const payload = deflateSync(plain, { level: 9 });
  let sum = 0;
  for (const x of payload) sum += x;
  return new Bytes().text('SQSH').u8(2).u8(2).u8(0).u32(payload.length).u32(plain.length).u32(sum).bytes(payload).done();
}

/**
 * One zlib-chunked file of `chunks` × 64 KiB zeros, every chunk-size entry pointing at the SAME tiny chunk
 * bytes laid out once per chunk (each chunk is a separate copy: a few dozen bytes for 64 KiB).
 */
export function hpiV1ChunkBomb(chunks: number, name = 'bomb.bin'): Uint8Array {
  const chunk = sqshZlib(new Uint8Array(65536));
  const b = v1Header(new Bytes());
  const entriesAt = b.length + 8;
  const recordAt = entriesAt + 9;
  const nameAt = recordAt + 9;
  const dirEnd = nameAt + name.length + 1;
  b.u32(1).u32(entriesAt);
  b.u32(nameAt).u32(recordAt).u8(0);
  b.u32(dirEnd)
    .u32(chunks * 65536)
    .u8(2);
  b.text(name).u8(0);
  b.patch32(8, b.length);
  for (let i = 0; i < chunks; i++) b.u32(chunk.length);
  for (let i = 0; i < chunks; i++) b.bytes(chunk);
  return b.done();
}

/** An HPI v2 whose directory block is one SQSH zlib chunk decoding to `size` bytes (zeros past a valid root). */
export function hpiV2DirectoryBomb(size: number): Uint8Array {
  const dir = new Uint8Array(size); // root {namePtr 0, firstSub 0, subCount 0, firstFile 0, fileCount 0}
  const dirChunk = sqshZlib(dir);
  const names = new Uint8Array([0]);
  const b = new Bytes().text('HAPI').u32(0x00020000);
  const dirAt = 32;
  const nameAt = dirAt + dirChunk.length;
  b.u32(dirAt).u32(dirChunk.length).u32(nameAt).u32(names.length).u32(32).u32(0);
  b.bytes(dirChunk).bytes(names);
  return b.done();
}
