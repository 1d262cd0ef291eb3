/**
 * HPI v2 (TA: Kingdoms) reader. No position cipher. The directory and name blocks are either raw or one
 * SQSH chunk each; the directory is a packed array of records reached through the root at offset 0:
 *
 * Dir2  {i32 namePtr, firstSubDir, subCount, firstFile, fileCount}                  (20 bytes)
 * File2 {i32 namePtr, start, size, compressedSize (0 = stored), date (time_t), checksum} (24 bytes)
 *
 * A compressed payload is one or more consecutive SQSH chunks, decoded until `size` bytes are out.
 */
import type { Archive, ArchiveEntry } from '../archive.js';
import type { HpiV2Info } from '../../../shared/archive-info.js';
import { countEntries, STREAM_SLICE } from '../archive.js';
import type { ByteSource } from '../../io/byte-source.js';
import { checkRange, fail } from '../../../shared/errors.js';
import { EntryChecksum, entryChecksum } from './checksums.js';
import { readV2Header, type V2Header } from './header.js';
import { joinedPath, readName } from './names.js';
import { decodeChunkAt, joinParts, maxDecodedSize, SQSH_HEADER_SIZE, SQSH_MAGIC } from './sqsh.js';
import { flatString } from '../common/flat-string.js';

const DIR2_SIZE = 20;
const FILE2_SIZE = 24;
const MAX_DEPTH = 256;
export const LAST78_SIZE = 78;

export interface V2Entry extends ArchiveEntry {
  readonly start: number;
  readonly compressedSize: number;
  readonly checksum: number;
  readonly date: number;
}

/**
 * The most a directory block may decode to: a million records, twenty times the largest TA: Kingdoms
 * archive's directory. A compressed block claiming more is a decompression bomb, refused before inflating.
 */
export const MAX_DIRECTORY_BYTES = 24 << 20;
/** Each record (20 bytes at least) names one name of at most 255 bytes and its NUL. */
const NAME_BYTES_PER_RECORD = 256 / DIR2_SIZE;

/** A directory or name block: raw bytes, or one SQSH chunk when it starts with 'SQSH', decoding to at most `cap` bytes. */
async function readBlock(source: ByteSource, what: string, offset: number, size: number, cap: number): Promise<Uint8Array> {
  const raw = await source.read(offset, size);
  if (size >= SQSH_HEADER_SIZE && new DataView(raw.buffer, raw.byteOffset, 4).getUint32(0, true) === SQSH_MAGIC) {
    const compressedSize = new DataView(raw.buffer, raw.byteOffset + 7, 4).getUint32(0, true);
    const declared = new DataView(raw.buffer, raw.byteOffset + 11, 4).getUint32(0, true);
    if (declared > cap)
      fail('bad-count', `${what} at ${offset} declares ${declared} bytes once decoded, more than its records can need (at most ${cap})`, {
        offset,
        expected: cap,
        actual: declared,
      });
    const chunk = decodeChunkAt(raw, 0, offset, Math.min(cap, maxDecodedSize(raw[5]!, Math.min(compressedSize, size))));
    if (chunk.end !== size)
      fail('size-mismatch', `${what} at ${offset}: its SQSH chunk takes ${chunk.end} bytes, the header says ${size}`, { offset });
    return chunk.data;
  }
  return raw.slice();
}

export function readV2Directory(dir: Uint8Array, names: Uint8Array, fileSize: number): V2Entry[] {
  const view = new DataView(dir.buffer, dir.byteOffset, dir.byteLength);
  const i32 = (at: number) => view.getInt32(at, true);
  const inside = (what: string, at: number, count: number, size: number) => {
    if (at < 0 || count < 0 || at + count * size > dir.length) {
      fail('out-of-bounds', `${what}: ${count} × ${size} bytes at ${at} overflow the ${dir.length}-byte directory`, {
        offset: at,
        expected: dir.length,
        actual: at + count * size,
      });
    }
  };
  const entries: V2Entry[] = [];
  const seenDirs = new Set<number>();
  const seenFiles = new Set<number>();
  const name = (ptr: number, where: string) => readName(names, ptr, names.length, where);
  const walk = (at: number, prefix: string, depth: number) => {
    if (depth > MAX_DEPTH) fail('bad-count', `directory nested deeper than ${MAX_DEPTH} levels at ${at}`, { offset: at });
    if (seenDirs.has(at)) fail('bad-count', `directory record at ${at} is reached twice (a loop in the tree)`, { offset: at });
    seenDirs.add(at);
    inside('directory record', at, 1, DIR2_SIZE);
    const firstSub = i32(at + 4);
    const subCount = i32(at + 8);
    const firstFile = i32(at + 12);
    const fileCount = i32(at + 16);
    inside(`subfolders of the folder at ${at}`, firstSub, subCount, DIR2_SIZE);
    inside(`files of the folder at ${at}`, firstFile, fileCount, FILE2_SIZE);
    for (let i = 0; i < subCount; i++) {
      const sub = firstSub + i * DIR2_SIZE;
      const path = flatString(joinedPath(prefix, name(i32(sub), `folder record at ${sub}`), `folder record at ${sub}`));
      entries.push({ path, dir: true, size: 0, packedSize: 0, method: 'dir', start: 0, compressedSize: 0, checksum: 0, date: 0 });
      walk(sub, path + '/', depth + 1);
    }
    for (let i = 0; i < fileCount; i++) {
      const rec = firstFile + i * FILE2_SIZE;
      if (seenFiles.has(rec)) fail('bad-count', `file record at ${rec} is listed twice`, { offset: rec });
      seenFiles.add(rec);
      const path = flatString(joinedPath(prefix, name(i32(rec), `file record at ${rec}`), `file record at ${rec}`));
      const start = view.getUint32(rec + 4, true);
      const size = view.getUint32(rec + 8, true);
      const compressedSize = view.getUint32(rec + 12, true);
      const packed = compressedSize === 0 ? size : compressedSize;
      checkRange(`${path}: data`, start, packed, fileSize);
      // Every chunk holds at least one header; the declared size must be reachable from the packed bytes.
      if (compressedSize !== 0 && size > maxDecodedSize(2, compressedSize)) {
        fail('bad-stream', `${path}: ${size} bytes cannot come from ${compressedSize} packed bytes`, { offset: rec, actual: size });
      }
      entries.push({
        path,
        dir: false,
        size,
        packedSize: packed,
        method: compressedSize === 0 ? 'stored' : 'sqsh',
        start,
        compressedSize,
        date: view.getUint32(rec + 16, true),
        checksum: view.getUint32(rec + 20, true),
      });
    }
  };
  walk(0, '', 0);
  return entries;
}

export class HpiV2Archive implements Archive {
  readonly format = 'hpi' as const;
  private readonly own: WeakSet<object>;

  private constructor(
    readonly source: ByteSource,
    private readonly header: V2Header,
    readonly entries: readonly V2Entry[],
    readonly warnings: readonly string[],
  ) {
    this.own = new WeakSet(entries);
  }

  static async open(source: ByteSource): Promise<HpiV2Archive> {
    const header = await readV2Header(source);
    const dir = await readBlock(source, 'directory block', header.dirBlock, header.dirSize, MAX_DIRECTORY_BYTES);
    const names = await readBlock(
      source,
      'name block',
      header.nameBlock,
      header.nameSize,
      Math.max(256, Math.ceil(dir.length * NAME_BYTES_PER_RECORD)),
    );
    const entries = readV2Directory(dir, names, source.size);
    const warnings: string[] = [];
    if (header.last78 !== 0 && header.last78 + LAST78_SIZE > source.size)
      warnings.push(`Last78 offset ${header.last78} points past the end of the file (${source.size})`);
    return new HpiV2Archive(source, header, entries, warnings);
  }

  info(): HpiV2Info {
    const { files, dirs, bytes } = countEntries(this.entries);
    const last78 = this.header.last78 !== 0 && this.header.last78 + LAST78_SIZE <= this.source.size;
    return {
      format: 'hpi',
      version: 2,
      files,
      dirs,
      bytes,
      last78,
    };
  }

  /** The Last78 block, kept opaque, so a rewrite can preserve it. */
  async carryOver(): Promise<Record<string, Uint8Array>> {
    const at = this.header.last78;
    if (at === 0 || at + LAST78_SIZE > this.source.size) return {};
    return { last78: (await this.source.read(at, LAST78_SIZE)).slice() };
  }

  async read(entry: ArchiveEntry, onWarning?: (message: string) => void): Promise<Uint8Array> {
    if (!this.own.has(entry)) throw new Error(`entry ${entry.path} does not belong to this archive`);
    const e = entry as V2Entry;
    if (e.dir) fail('unsupported', `${e.path} is a folder`);
    let data: Uint8Array;
    if (e.compressedSize === 0) data = (await this.source.read(e.start, e.size)).slice();
    else {
      const body = await this.source.read(e.start, e.compressedSize);
      const parts: Uint8Array[] = [];
      let done = 0;
      let at = 0;
      while (done < e.size) {
        const chunk = decodeChunkAt(body, at, e.start, e.size - done, onWarning);
        if (chunk.data.length === 0)
          fail('bad-stream', `${e.path}: empty SQSH chunk at ${e.start + at} before ${e.size} bytes were out`, { offset: e.start + at });
        parts.push(chunk.data);
        done += chunk.data.length;
        at = chunk.end;
      }
      if (at !== body.length) onWarning?.(`${body.length - at} bytes after the last chunk`);
      data = joinParts(parts, e.size);
    }
    const sum = entryChecksum(data);
    if (sum !== e.checksum) onWarning?.(`entry checksum 0x${e.checksum.toString(16)} does not match the data's 0x${sum.toString(16)}`);
    return data;
  }

  /** The entry chunk by chunk (a stored one in slices), its checksum summed as the pieces pass. */
  async *stream(entry: ArchiveEntry, onWarning?: (message: string) => void): AsyncIterable<Uint8Array> {
    if (!this.own.has(entry)) throw new Error(`entry ${entry.path} does not belong to this archive`);
    const e = entry as V2Entry;
    if (e.dir) fail('unsupported', `${e.path} is a folder`);
    const sum = new EntryChecksum();
    if (e.compressedSize === 0) {
      for (let at = 0; at < e.size; at += STREAM_SLICE) {
        const data = (await this.source.read(e.start + at, Math.min(STREAM_SLICE, e.size - at))).slice();
        sum.update(data);
        yield data;
      }
    } else {
      let done = 0;
      let at = 0;
      while (done < e.size) {
        if (at + SQSH_HEADER_SIZE > e.compressedSize)
          fail('truncated', `${e.path}: SQSH chunk header at ${e.start + at} cut off before ${e.size} bytes were out`, {
            offset: e.start + at,
          });
        const head = await this.source.read(e.start + at, SQSH_HEADER_SIZE);
        const payload = new DataView(head.buffer, head.byteOffset + 7, 4).getUint32(0, true);
        const length = Math.min(SQSH_HEADER_SIZE + payload, e.compressedSize - at);
        const body = await this.source.read(e.start + at, length);
        const chunk = decodeChunkAt(body, 0, e.start + at, e.size - done, onWarning);
        if (chunk.data.length === 0)
          fail('bad-stream', `${e.path}: empty SQSH chunk at ${e.start + at} before ${e.size} bytes were out`, { offset: e.start + at });
        sum.update(chunk.data);
        yield chunk.data;
        done += chunk.data.length;
        at += chunk.end;
      }
      if (at !== e.compressedSize) onWarning?.(`${e.compressedSize - at} bytes after the last chunk`);
    }
    const digest = sum.digest();
    if (digest !== e.checksum)
      onWarning?.(`entry checksum 0x${e.checksum.toString(16)} does not match the data's 0x${digest.toString(16)}`);
  }

  close(): Promise<void> {
    return this.source.close();
  }
}
