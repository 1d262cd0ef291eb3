/**
 * HPI v1 (Total Annihilation: .hpi .ufo .ccx .gp3) reader. Opening reads the header, the directory and the
 * file's last 4 KiB (for the trailer); file data is read on demand with positioned reads, one file at a time.
 */
import type { Archive, ArchiveEntry } from '../archive.js';
import type { HpiV1Info } from '../../../shared/archive-info.js';
import { STREAM_SLICE, type ChunkScratch } from '../archive.js';
import type { ByteSource } from '../../io/byte-source.js';
import { checkRange, fail, FormatError } from '../../../shared/errors.js';
import { positionCipher, positionCipherInto, deriveKey } from './cipher.js';
import { readV1Header, type V1Header } from './header.js';
import { chunkCount, readV1Directory, type RawV1Entry, type V1Entry } from './v1-directory.js';
import { CHUNK_SIZE, decodeStoredChunk, joinParts } from './sqsh.js';
import { checkChunkLength, chunkSizeAt } from './v1-pieces.js';
import { bytesAfterTrailer, TAIL_SIZE, trailerText, TRAILER_SIZE } from './trailer.js';

/** Read bytes at an absolute position and remove the position cipher (a copy when enciphered). */
async function readPlain(source: ByteSource, offset: number, length: number, key: number): Promise<Uint8Array> {
  const raw = await source.read(offset, length);
  return key === 0 ? raw : positionCipher(raw, offset, key);
}

/** Read and walk the directory with cipher key K (already derived). */
export async function readV1Tree(source: ByteSource, header: V1Header, key: number): Promise<RawV1Entry[]> {
  const dir = await readPlain(source, header.start, header.directoryEnd - header.start, key);
  return readV1Directory(dir, header.start, header.directoryEnd, source.size);
}

export class HpiV1Archive implements Archive {
  readonly format = 'hpi' as const;

  private constructor(
    readonly source: ByteSource,
    private readonly header: V1Header,
    private readonly key: number,
    readonly entries: readonly V1Entry[],
    readonly warnings: readonly string[],
    private readonly tail: Uint8Array,
    private readonly directoryReadsPlain: boolean | null,
    private readonly counts: EntryCounts,
  ) {}

  static async open(source: ByteSource): Promise<HpiV1Archive> {
    const header = await readV1Header(source);
    const warnings: string[] = [];
    let key = deriveKey(header.headerKey);
    let raw: RawV1Entry[];
    let readsPlain: boolean | null = null;
    try {
      raw = await readV1Tree(source, header, key);
    } catch (err) {
      // HeaderKey 0xFF: the game reads such archives as plain, old tools decipher them with K = 0xFF.
      if (!(err instanceof FormatError) || header.headerKey !== 0xff) throw err;
      raw = await readV1Tree(source, header, 0);
      key = 0;
      readsPlain = true;
      warnings.push('HeaderKey 0xFF: the directory reads unenciphered (as TA reads it), not with K = 0xFF');
    }
    if (header.headerKey === 0xff && readsPlain === null) {
      readsPlain = await readV1Tree(source, header, 0).then(
        () => true,
        () => false,
      );
    }
    const tailLength = Math.min(TAIL_SIZE, source.size);
    const tail = await source.read(source.size - tailLength, tailLength);
    const dataEnd = trailerText(tail) !== null ? source.size - TRAILER_SIZE : source.size;
    const { entries, counts } = await withPackedSizes(source, raw, dataEnd, key);
    return new HpiV1Archive(source, header, key, entries, warnings, tail, readsPlain, counts);
  }

  /** K, as derived from the header (0 = not enciphered): with an entry's data offset, size and flag, all its bytes need (see v1-pieces). */
  get cipherKey(): number {
    return this.key;
  }

  info(): HpiV1Info {
    const { files, dirs, bytes } = this.counts;
    const trailer = trailerText(this.tail);
    return {
      format: 'hpi',
      version: 1,
      files,
      dirs,
      bytes,
      key: this.header.headerKey,
      trailer,
      bytesAfterTrailer: trailer === null ? bytesAfterTrailer(this.tail) : null,
      directoryReadsPlain: this.directoryReadsPlain,
    };
  }

  async read(entry: ArchiveEntry, onWarning?: (message: string) => void): Promise<Uint8Array> {
    const e = entry as V1Entry;
    if (this.entries[e.index] !== entry) throw new Error(`entry ${entry.path} does not belong to this archive`);
    if (e.dir) fail('unsupported', `${e.path} is a folder`);
    if (e.flag === 0) {
      const data = await readPlain(this.source, e.dataOffset, e.size, this.key);
      return this.key === 0 ? data.slice() : data;
    }
    return this.readChunked(e, onWarning);
  }

  private async readChunked(e: V1Entry, onWarning?: (message: string) => void): Promise<Uint8Array> {
    const count = chunkCount(e.size);
    if (count === 0) return new Uint8Array(0);
    const tableAt = e.dataOffset;
    const table = await readPlain(this.source, tableAt, count * 4, this.key);
    const tableView = new DataView(table.buffer, table.byteOffset, table.byteLength);
    const sizes: number[] = [];
    let total = 0;
    for (let i = 0; i < count; i++) {
      const size = chunkSizeAt(tableView, i, e);
      sizes.push(size);
      total += size;
    }
    const bodyAt = tableAt + count * 4;
    checkRange(`${e.path}: chunks`, bodyAt, total, this.source.size);
    // As stored: each chunk is deciphered in the same pass that sums and unscrambles it.
    const body = await this.source.read(bodyAt, total);
    const parts: Uint8Array[] = [];
    let done = 0;
    let at = 0;
    for (let i = 0; i < count; i++) {
      const expected = Math.min(CHUNK_SIZE, e.size - done);
      const data = decodeStoredChunk(body.subarray(at, at + sizes[i]!), bodyAt + at, this.key, expected, onWarning);
      checkChunkLength(data, expected, i, bodyAt + at, e);
      parts.push(data);
      done += expected;
      at += sizes[i]!;
    }
    return joinParts(parts, e.size);
  }

  /**
   * The entry a piece at a time: a stored file in slices, a chunked one chunk by chunk (each chunk read,
   * deciphered and decoded on its own), so no more than one 64 KiB chunk is held whatever the declared size.
   */
  async *stream(entry: ArchiveEntry, onWarning?: (message: string) => void, scratch?: ChunkScratch): AsyncIterable<Uint8Array> {
    const e = entry as V1Entry;
    if (this.entries[e.index] !== entry) throw new Error(`entry ${entry.path} does not belong to this archive`);
    if (e.dir) fail('unsupported', `${e.path} is a folder`);
    // Every read here is used (deciphered, copied or decoded) before the next one: transient reads let the
    // source refill one buffer instead of allocating a block per 256 KiB.
    const source = this.source;
    const read = source.readTransient ? source.readTransient.bind(source) : source.read.bind(source);
    if (e.flag === 0) {
      for (let at = 0; at < e.size; at += STREAM_SLICE) {
        const length = Math.min(STREAM_SLICE, e.size - at);
        const raw = await read(e.dataOffset + at, length);
        const into = scratch?.take(length).subarray(0, length);
        if (this.key === 0) {
          if (into) into.set(raw);
          yield into ?? raw.slice();
        } else yield into ? positionCipherInto(raw, e.dataOffset + at, this.key, into) : positionCipher(raw, e.dataOffset + at, this.key);
      }
      return;
    }
    const count = chunkCount(e.size);
    const tableAt = e.dataOffset;
    const rawTable = await read(tableAt, count * 4);
    const table = this.key === 0 ? rawTable.slice() : positionCipher(rawTable, tableAt, this.key);
    const tableView = new DataView(table.buffer, table.byteOffset, table.byteLength);
    let at = tableAt + count * 4;
    let done = 0;
    for (let i = 0; i < count; i++) {
      const size = chunkSizeAt(tableView, i, e);
      checkRange(`${e.path}: chunk ${i}`, at, size, this.source.size);
      const expected = Math.min(CHUNK_SIZE, e.size - done);
      const data = decodeStoredChunk(await read(at, size), at, this.key, expected, onWarning, scratch?.take(expected));
      checkChunkLength(data, expected, i, at, e);
      yield data;
      done += expected;
      at += size;
    }
  }

  async close(): Promise<void> {
    await this.source.close();
  }
}

/**
 * Packed sizes, from the directory alone: files are laid out back to back, so a chunked file takes the
 * bytes up to the next file's data (the last one's chunk table is read to be exact). Stored files take
 * exactly their size (already set). Several entries may share one data offset.
 */
async function withPackedSizes(
  source: ByteSource,
  raw: RawV1Entry[],
  dataEnd: number,
  key: number,
): Promise<{ entries: V1Entry[]; counts: EntryCounts }> {
  const counts: EntryCounts = { files: 0, dirs: 0, bytes: 0 };
  const starts = dataStarts(raw, counts);
  for (const r of packedFromStarts(raw, starts, dataEnd)) {
    const count = chunkCount(r.size);
    const table = await readPlain(source, r.dataOffset, count * 4, key);
    const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
    let packed = count * 4;
    for (let c = 0; c < count; c++) packed += view.getUint32(c * 4, true);
    r.packedSize = packed;
  }
  return { entries: raw, counts };
}

type EntryCounts = { files: number; dirs: number; bytes: number };

/**
 * The data offsets of the files that have bytes, sorted, while info()'s counts are taken. Each pass over
 * the entries is a function of its own: a mount runs them cold, and a loop sharing its function with code
 * not yet run is optimised, thrown away and optimised again when that code is reached.
 */
function dataStarts(raw: readonly RawV1Entry[], counts: EntryCounts): Uint32Array {
  // u32, as the directory stores them: packed sizes computed from them stay small integers in the entries.
  const all = new Uint32Array(raw.length);
  let sorted = true;
  let at = 0;
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!;
    if (r.dir) {
      counts.dirs++;
      continue;
    }
    counts.files++;
    counts.bytes += r.size;
    if (r.size === 0) continue;
    if (at > 0 && r.dataOffset < all[at - 1]!) sorted = false;
    all[at++] = r.dataOffset;
  }
  const starts = all.subarray(0, at);
  // Typed-array sort is numeric and native; writers usually lay data out in directory order anyway.
  return sorted ? starts : starts.sort();
}

/** Each chunked file's packed size, up to the next file's data; returns the files whose data is last (read exactly). */
function packedFromStarts(raw: readonly RawV1Entry[], starts: Uint32Array, dataEnd: number): RawV1Entry[] {
  const last = starts.length > 0 ? starts[starts.length - 1]! : -1;
  const exact: RawV1Entry[] = [];
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!;
    if (r.dir || r.flag === 0 || r.size === 0) continue;
    if (r.dataOffset === last) {
      exact.push(r);
      continue;
    }
    // The first start past this file's: starts are sorted, so a binary search.
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! <= r.dataOffset) lo = mid + 1;
      else hi = mid;
    }
    r.packedSize = Math.max(0, (lo < starts.length ? starts[lo]! : dataEnd) - r.dataOffset);
  }
  return exact;
}
