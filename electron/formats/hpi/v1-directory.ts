/**
 * The HPI v1 directory tree, walked from its plain bytes (position cipher removed).
 *
 * Dir   {u32 count, u32 entriesOffset}
 * Entry {u32 nameOffset, u32 dataOffset, u8 isDir}                (9 bytes)
 * File  {u32 dataOffset, u32 size (uncompressed), u8 flag}        (at a file entry's dataOffset)
 * All offsets are absolute file offsets; every one must land inside [start, end) of the directory.
 * Entries come out in stored order, depth first, a folder before its contents.
 */
import { fail } from '../../../shared/errors.js';
import { BlockNames, joinedPath, MAX_PATH_LENGTH } from './names.js';
import { CHUNK_SIZE, SQSH_HEADER_SIZE } from './sqsh.js';
import type { ArchiveEntry } from '../archive.js';
import { flatString } from '../common/flat-string.js';

const ENTRY_SIZE = 9;
const FILE_RECORD_SIZE = 9;
const DIR_HEADER_SIZE = 8;
/** Deeper than any real archive; stops a crafted chain of folders from exhausting memory. */
const MAX_DEPTH = 256;

export interface V1Entry extends ArchiveEntry {
  /** Position in the archive's entry list (how the reader knows the entry is its own). */
  readonly index: number;
  /** For files: where the stored bytes or the chunk-size table start (absolute). */
  readonly dataOffset: number;
  /** The file record's flag: 0 stored, else chunked (1 LZ77, 2 zlib by convention). */
  readonly flag: number;
}

/** A V1Entry while the directory is read: its packed size is filled in afterwards. */
export type RawV1Entry = { -readonly [K in keyof V1Entry]: V1Entry[K] };

const FLAG_METHODS: Record<number, string> = { 0: 'stored', 1: 'lz77', 2: 'zlib' };

export const chunkCount = (size: number) => Math.ceil(size / CHUNK_SIZE);

/**
 * Walk the tree. `dir` holds the plain bytes of [start, end); `fileSize` bounds the data offsets, which
 * are checked here (with the chunk table's smallest possible size) so no later read can be implausible.
 */
export function readV1Directory(dir: Uint8Array, start: number, end: number, fileSize: number): RawV1Entry[] {
  const view = new DataView(dir.buffer, dir.byteOffset, dir.byteLength);
  const u32 = (abs: number) => view.getUint32(abs - start, true);
  const inside = (what: string, abs: number, length: number) => {
    if (abs < start || abs + length > end) {
      fail('out-of-bounds', `${what} at ${abs} + ${length} lies outside the directory [${start}, ${end})`, {
        offset: abs,
        expected: end,
        actual: abs + length,
      });
    }
  };
  const names = new BlockNames(dir);
  const entries: RawV1Entry[] = [];
  const seenDirs = new Set<number>();
  // Entry lists, by where they start: two folders sharing one would multiply its entries (an amplifier).
  const seenLists = new Map<number, number>();
  // Every entry takes 9 bytes of its own in an honest directory, so the total is bounded by the bytes.
  const maxEntries = Math.floor((end - start) / ENTRY_SIZE);
  let listed = 0;
  const walk = (dirOffset: number, prefix: string, depth: number): void => {
    if (depth > MAX_DEPTH) fail('bad-count', `directory nested deeper than ${MAX_DEPTH} levels at ${dirOffset}`, { offset: dirOffset });
    if (seenDirs.has(dirOffset))
      fail('bad-count', `directory at ${dirOffset} is reached twice (a loop in the tree)`, { offset: dirOffset });
    seenDirs.add(dirOffset);
    inside('directory header', dirOffset, DIR_HEADER_SIZE);
    const count = u32(dirOffset);
    const first = u32(dirOffset + 4);
    // The count is checked against the bytes it needs before the loop runs.
    if (count > (end - start) / ENTRY_SIZE)
      fail('bad-count', `directory at ${dirOffset} claims ${count} entries, more than the directory can hold`, {
        offset: dirOffset,
        actual: count,
      });
    inside(`${count} directory entries`, first, count * ENTRY_SIZE);
    if (count > 0) {
      const owner = seenLists.get(first);
      if (owner !== undefined)
        fail('bad-count', `directory at ${dirOffset} shares its entry list at ${first} with the directory at ${owner}`, {
          offset: dirOffset,
        });
      seenLists.set(first, dirOffset);
    }
    listed += count;
    if (listed > maxEntries) {
      fail(
        'bad-count',
        `the directory's folders list ${listed} entries so far, more than its ${end - start} bytes can hold (${maxEntries}): entry lists overlap`,
        { offset: dirOffset, expected: maxEntries, actual: listed },
      );
    }
    for (let i = 0; i < count; i++) {
      const at = first + i * ENTRY_SIZE;
      const nameOffset = u32(at);
      const dataOffset = u32(at + 4);
      const isDir = dir[at + 8 - start] !== 0;
      if (nameOffset < start || nameOffset + 1 > end) inside('entry name', nameOffset, 1);
      const name = names.read(nameOffset - start, end - start, 'entry at', at);
      // The checks' messages are built only when one fails (two strings per entry were a tenth of a mount).
      const path = flatString(prefix.length + name.length > MAX_PATH_LENGTH ? joinedPath(prefix, name, `entry at ${at}`) : prefix + name);
      if (isDir) {
        entries.push({ index: entries.length, path, dir: true, size: 0, packedSize: 0, method: 'dir', dataOffset: 0, flag: 0 });
        walk(dataOffset, path + '/', depth + 1);
        continue;
      }
      if (dataOffset < start || dataOffset + FILE_RECORD_SIZE > end) inside(`file record of ${path}`, dataOffset, FILE_RECORD_SIZE);
      const fileData = u32(dataOffset);
      const size = u32(dataOffset + 4);
      const flag = dir[dataOffset + 8 - start]!;
      if (flag === 0) {
        if (fileData + size > fileSize)
          fail('out-of-bounds', `${path}: stored data overflows the file: ${fileData} + ${size} > ${fileSize}`, {
            offset: fileData,
            expected: fileSize,
            actual: fileData + size,
          });
      } else {
        // Each chunk needs a 4-byte size and a 19-byte header at least: a size the file cannot hold is a lie.
        const minimum = chunkCount(size) * (4 + SQSH_HEADER_SIZE);
        if (fileData + minimum > fileSize) {
          fail(
            'out-of-bounds',
            `${path}: ${size} bytes need ${chunkCount(size)} chunks (at least ${minimum} bytes) at ${fileData}, past the end of the file (${fileSize})`,
            {
              offset: fileData,
              expected: fileSize,
              actual: fileData + minimum,
            },
          );
        }
      }
      entries.push({
        index: entries.length,
        path,
        dir: false,
        size,
        packedSize: flag === 0 ? size : 0,
        method: FLAG_METHODS[flag] ?? 'chunked',
        dataOffset: fileData,
        flag,
      });
    }
  };
  walk(start, '', 0);
  return entries;
}
