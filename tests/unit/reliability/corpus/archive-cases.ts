/**
 * Broken archives of every format modpak reads. Layouts (../shared/docs/formats.md):
 * - HPI v1 and its SQSH chunk: see ../hostile.ts (the bases come from there).
 * - HPI v2: header 'HAPI', 0x00020000, DirBlock, DirSize, NameBlock, NameSize, Data, Last78; Dir2 (5 × i32),
 *   File2 {namePtr, start, size, compressedSize, date, checksum}.
 * - PAK: 'PACK' (SiN 'SPAK'), dirOffset, dirLength; 64-byte (SiN 128) entries: name, offset, length.
 * - Daikatana: 'PACK'; 72-byte entries: name[56], offset, length, compressedLength, compressed.
 * - Pangya: trailer u32 tableOffset, u32 entryCount, u8 0x12; entry u8 nameLength, u8 type, u32 offset,
 *   u32 packedSize, u32 realSize, name (XOR 0x71), one extra byte.
 * - WAD2/WAD3: magic, i32 count, i32 directory offset; 32-byte entries: offset, disk size, size, type,
 *   compression, 2 pad, name[16].
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { samplesDir } from '../../../helpers/run-cli.js';
import { wad2 } from '../../assets/quake/craft.js';
import { quakePak } from '../build.js';
import { hpiV1ChunkBomb, hpiV1Files } from '../hostile.js';
import { archiveCommands, entryCommands, setBytes, setU32, u32, verify, type CorpusCase } from './corpus-case.js';

const sample = (...parts: string[]) => new Uint8Array(readFileSync(join(samplesDir, ...parts)));
const cut = (bytes: Uint8Array, length: number) => bytes.slice(0, length);
const huge = 0x7fff0000;

function hpiV1Cases(): CorpusCase[] {
  // One stored file: root dir at 20 {count, entries 28}; entry 28 {name 46, record 37, isDir}; record 37
  // {data 52, size 1, flag 0}; name "a.txt\0" at 46; directory end 52; one data byte.
  const stored = hpiV1Files(['a.txt']);
  // One zlib file of one chunk: the same offsets; name "a.bin\0" at 46; chunk sizes at 52, the chunk at 56.
  const chunked = hpiV1ChunkBomb(1, 'a.bin');
  const sqsh = 56;
  return [
    {
      file: 'hpi1-truncated-header.hpi',
      bytes: cut(stored, 12),
      message: 'unexpected end of file: 0 + 20 > 12',
      commands: archiveCommands,
    },
    { file: 'hpi1-bad-magic.hpi', bytes: setBytes(stored, 0, 'HAPX'), message: 'not a recognised archive', commands: archiveCommands },
    {
      file: 'hpi1-unknown-version.hpi',
      bytes: setU32(stored, 4, 0x00030000),
      message: 'not a recognised archive',
      commands: archiveCommands,
    },
    {
      file: 'hpi1-directory-past-end.hpi',
      bytes: setU32(stored, 8, stored.length + 4096),
      message: 'directory overflows its bounds: 20 + 4129 > 53',
      commands: archiveCommands,
    },
    {
      file: 'hpi1-count-too-large.hpi',
      bytes: setU32(stored, 20, 0x01000000),
      message: 'directory at 20 claims 16777216 entries, more than the directory can hold',
      commands: archiveCommands,
    },
    {
      file: 'hpi1-entries-out-of-range.hpi',
      bytes: setU32(stored, 24, huge),
      message: '1 directory entries at 2147418112 + 9 lies outside the directory [20, 52)',
      commands: archiveCommands,
    },
    {
      file: 'hpi1-name-out-of-range.hpi',
      bytes: setU32(stored, 28, huge),
      message: 'entry name at 2147418112 + 1 lies outside the directory [20, 52)',
      commands: archiveCommands,
    },
    {
      file: 'hpi1-name-without-terminator.hpi',
      bytes: setBytes(stored, 51, 'x'),
      message: 'is not NUL-terminated',
      commands: archiveCommands,
    },
    {
      file: 'hpi1-record-out-of-range.hpi',
      bytes: setU32(stored, 32, huge),
      message: 'file record of a.txt at 2147418112 + 9 lies outside the directory [20, 52)',
      commands: archiveCommands,
    },
    // A folder entry whose directory is the root itself.
    {
      file: 'hpi1-cyclic-folder.hpi',
      bytes: setBytes(setU32(stored, 32, 20), 36, [1]),
      message: 'directory at 20 is reached twice (a loop in the tree)',
      commands: archiveCommands,
    },
    {
      file: 'hpi1-data-out-of-range.hpi',
      bytes: setU32(stored, 37, huge),
      message: 'a.txt: stored data overflows the file: 2147418112 + 1 > 53',
      commands: archiveCommands,
    },
    {
      file: 'hpi1-size-past-end.hpi',
      bytes: setU32(stored, 41, 1000),
      message: 'a.txt: stored data overflows the file: 52 + 1000 > 53',
      commands: archiveCommands,
    },
    {
      file: 'hpi1-chunked-past-end.hpi',
      bytes: setBytes(stored, 45, [9]),
      message: 'a.txt: 1 bytes need 1 chunks (at least 23 bytes) at 52, past the end of the file (53)',
      commands: archiveCommands,
    },
    {
      file: 'hpi1-chunk-bad-magic.hpi',
      bytes: setBytes(chunked, sqsh, 'SQSX'),
      message: 'a.bin: no SQSH chunk at 56 (found 0x58535153)',
      commands: entryCommands,
    },
    {
      file: 'hpi1-chunk-unknown-method.hpi',
      bytes: setBytes(chunked, sqsh + 5, [7]),
      message: 'a.bin: SQSH chunk at 56: unknown method 7',
      commands: entryCommands,
    },
    {
      file: 'hpi1-chunk-size-past-end.hpi',
      bytes: setU32(chunked, sqsh + 7, 1 << 20),
      message: 'a.bin: SQSH chunk at 56: payload overflows its bounds: 75 + 1048576 > 159',
      commands: entryCommands,
    },
    {
      file: 'hpi1-chunk-wrong-size.hpi',
      bytes: setU32(chunked, sqsh + 11, 1000),
      message: 'a.bin: zlib chunk at 56 inflates to more than the 1000 bytes its header declares',
      commands: entryCommands,
    },
    {
      file: 'hpi1-chunk-corrupt-zlib.hpi',
      bytes: setBytes(chunked, sqsh + 19, [0xff, 0xff, 0xff, 0xff]),
      message: 'a.bin: zlib chunk at 56 does not inflate: invalid block type',
      commands: entryCommands,
    },
    {
      file: 'hpi1-ciphered-truncated.ufo',
      bytes: cut(sample('hpi', 'ArmImp.ufo'), 100),
      message: 'textures/ArmImp.gaf: 46276 bytes need 1 chunks (at least 23 bytes) at 83, past the end of the file (100)',
      commands: archiveCommands,
    },
  ];
}

/** HPI v2 with one file `a.txt` holding `payload` (stored, or given as chunk bytes with compressedSize). */
function hpiV2(payload: Uint8Array, size: number, compressedSize: number): Uint8Array {
  const dirAt = 32;
  const dirSize = 20 + 24;
  const names = new TextEncoder().encode('\0a.txt\0');
  const nameAt = dirAt + dirSize;
  const dataAt = nameAt + names.length;
  const out = new Uint8Array(dataAt + payload.length);
  const v = new DataView(out.buffer);
  out.set(new TextEncoder().encode('HAPI'));
  [0x00020000, dirAt, dirSize, nameAt, names.length, 32, 0].forEach((x, i) => v.setUint32(4 + i * 4, x, true));
  [0, 20, 0, 20, 1].forEach((x, i) => v.setInt32(dirAt + i * 4, x, true));
  [1, dataAt, size, compressedSize, 0, 0].forEach((x, i) => v.setInt32(dirAt + 20 + i * 4, x, true));
  out.set(names, nameAt);
  out.set(payload, dataAt);
  return out;
}

function hpiV2Cases(): CorpusCase[] {
  const stored = hpiV2(new TextEncoder().encode('hello'), 5, 0);
  const chunk = hpiV1ChunkBomb(1, 'a.bin').slice(56); // one SQSH zlib chunk of 65536 zeros
  const chunked = hpiV2(chunk, 65536, chunk.length);
  const file = 32 + 20; // the File2 record
  const sqsh = 32 + 44 + 7;
  return [
    {
      file: 'hpi2-truncated-header.hpi',
      bytes: cut(stored, 20),
      message: 'unexpected end of file: 0 + 32 > 20',
      commands: archiveCommands,
    },
    {
      file: 'hpi2-directory-past-end.hpi',
      bytes: setU32(stored, 8, huge),
      message: 'directory block overflows its bounds: 2147418112 + 44 > 88',
      commands: archiveCommands,
    },
    {
      file: 'hpi2-directory-size-past-end.hpi',
      bytes: setU32(stored, 12, 1 << 20),
      message: 'directory block overflows its bounds: 32 + 1048576 > 88',
      commands: archiveCommands,
    },
    {
      file: 'hpi2-names-past-end.hpi',
      bytes: setU32(stored, 16, huge),
      message: 'name block overflows its bounds: 2147418112 + 7 > 88',
      commands: archiveCommands,
    },
    {
      file: 'hpi2-file-count-too-large.hpi',
      bytes: setU32(stored, 32 + 16, 0x00100000),
      message: 'files of the folder at 0: 1048576 × 24 bytes at 20 overflow the 44-byte directory',
      commands: archiveCommands,
    },
    {
      file: 'hpi2-subfolders-out-of-range.hpi',
      bytes: setU32(setU32(stored, 32 + 8, 1), 32 + 4, huge),
      message: 'subfolders of the folder at 0: 1 × 20 bytes at 2147418112 overflow the 44-byte directory',
      commands: archiveCommands,
    },
    {
      file: 'hpi2-cyclic-folder.hpi',
      bytes: setU32(setU32(stored, 32 + 8, 1), 32 + 4, 0),
      message: 'directory record at 0 is reached twice (a loop in the tree)',
      commands: archiveCommands,
    },
    {
      file: 'hpi2-name-out-of-range.hpi',
      bytes: setU32(stored, file, huge),
      message: 'file record at 20: name at 2147418112 lies outside [0, 7)',
      commands: archiveCommands,
    },
    {
      file: 'hpi2-name-without-terminator.hpi',
      bytes: setBytes(stored, 32 + 44 + 6, 'x'),
      message: 'file record at 20: name at 1 is not NUL-terminated before 7',
      commands: archiveCommands,
    },
    {
      file: 'hpi2-data-out-of-range.hpi',
      bytes: setU32(stored, file + 4, huge),
      message: 'a.txt: data overflows its bounds: 2147418112 + 5 > 88',
      commands: archiveCommands,
    },
    {
      file: 'hpi2-size-past-end.hpi',
      bytes: setU32(stored, file + 8, 1000),
      message: 'a.txt: data overflows its bounds: 83 + 1000 > 88',
      commands: archiveCommands,
    },
    {
      file: 'hpi2-chunk-bad-magic.hpi',
      bytes: setBytes(chunked, sqsh, 'SQSX'),
      message: 'a.txt: no SQSH chunk at 83 (found 0x58535153)',
      commands: entryCommands,
    },
    {
      file: 'hpi2-chunk-unknown-method.hpi',
      bytes: setBytes(chunked, sqsh + 5, [7]),
      message: 'a.txt: SQSH chunk at 83: unknown method 7',
      commands: entryCommands,
    },
    {
      file: 'hpi2-chunk-corrupt-zlib.hpi',
      bytes: setBytes(chunked, sqsh + 19, [0xff, 0xff, 0xff, 0xff]),
      message: 'a.txt: zlib chunk at 83 does not inflate: invalid block type',
      commands: entryCommands,
    },
  ];
}

function pakCases(): CorpusCase[] {
  const pak = quakePak([{ name: 'maps/a.txt', data: 'hello' }]); // data at 12, directory at 17 (64 bytes)
  const sin = quakePak([{ name: 'maps/a.txt', data: 'hello' }], 'SPAK', 128);
  const dir = 17;
  return [
    {
      file: 'pak-truncated-header.pak',
      bytes: cut(pak, 8),
      message: 'Quake PAK: PACK header cut off: the file has 8 of its 12 bytes',
      commands: archiveCommands,
    },
    {
      file: 'pak-directory-past-end.pak',
      bytes: setU32(pak, 4, huge),
      message: 'Quake PAK: directory overflows its bounds: 2147418112 + 64 > 81',
      commands: archiveCommands,
    },
    {
      file: 'pak-directory-length-past-end.pak',
      bytes: setU32(pak, 8, 64 * 1000),
      message: 'Quake PAK: directory overflows its bounds: 17 + 64000 > 81',
      commands: archiveCommands,
    },
    {
      file: 'pak-directory-length-not-whole.pak',
      bytes: setU32(pak, 8, 60),
      message: 'directory length 60 is not a multiple of the 64-byte Quake PAK entry',
      commands: archiveCommands,
    },
    {
      file: 'pak-negative-directory.pak',
      bytes: setU32(pak, 4, -5),
      message: 'Quake PAK: PACK directory at -5 overlaps the 12-byte header',
      commands: archiveCommands,
    },
    {
      file: 'pak-offset-out-of-range.pak',
      bytes: setU32(pak, dir + 56, huge),
      message: 'not a valid Quake PAK: entry 0: data 2147418112 + 5 lies outside the file (81 bytes)',
      commands: archiveCommands,
    },
    {
      file: 'pak-length-past-end.pak',
      bytes: setU32(pak, dir + 60, 1000),
      message: 'not a valid Quake PAK: entry 0: data 12 + 1000 lies outside the file (81 bytes)',
      commands: archiveCommands,
    },
    {
      file: 'pak-name-without-terminator.pak',
      bytes: setBytes(pak, dir, 'n'.repeat(56)),
      message: 'not a valid Quake PAK: entry 0: name is not NUL-terminated within its 56 bytes',
      commands: archiveCommands,
    },
    {
      file: 'sin-truncated-directory.sin',
      bytes: cut(sin, sin.length - 10),
      message: 'SiN PAK: directory overflows its bounds: 17 + 128 > 135',
      commands: archiveCommands,
    },
    {
      file: 'sin-offset-out-of-range.sin',
      bytes: setU32(sin, dir + 120, huge),
      message: 'not a valid SiN PAK: entry 0: data 2147418112 + 5 lies outside the file (145 bytes)',
      commands: archiveCommands,
    },
    {
      file: 'sin-length-past-end.sin',
      bytes: setU32(sin, dir + 124, 1000),
      message: 'not a valid SiN PAK: entry 0: data 12 + 1000 lies outside the file (145 bytes)',
      commands: archiveCommands,
    },
  ];
}

/** A Daikatana PAK of one compressed entry `a.tga` whose stream is `stream`, decoding to `length` bytes. */
function daikatana(stream: number[], length: number): Uint8Array {
  const dirAt = 12 + stream.length;
  const out = new Uint8Array(dirAt + 72);
  const v = new DataView(out.buffer);
  out.set(new TextEncoder().encode('PACK'));
  v.setInt32(4, dirAt, true);
  v.setInt32(8, 72, true);
  out.set(stream, 12);
  out.set(new TextEncoder().encode('a.tga'), dirAt);
  [12, length, stream.length, 1].forEach((x, i) => v.setInt32(dirAt + 56 + i * 4, x, true));
  return out;
}

function daikatanaCases(): CorpusCase[] {
  // Opcode 0x02: three literal bytes; 0xFF: end.
  const good = daikatana([0x02, 0x61, 0x62, 0x63, 0xff], 3);
  const dir = 12 + 5;
  return [
    {
      file: 'dk-literal-past-stream.pak',
      bytes: daikatana([0x09, 0x61, 0x62], 10),
      message: 'a.tga: Daikatana stream: literal of 10 bytes at 0 is cut off: only 2 bytes follow',
      commands: entryCommands,
    },
    {
      file: 'dk-reference-before-start.pak',
      bytes: daikatana([0xc2, 0x05, 0xff], 4),
      message: 'a.tga: Daikatana stream: back-reference at 0 reaches 7 bytes before the start of the output',
      commands: entryCommands,
    },
    {
      file: 'dk-output-overflows.pak',
      bytes: daikatana([0x02, 0x61, 0x62, 0x63, 0x7f, 0xff], 3),
      message: 'a.tga: Daikatana stream: no 0xFF end marker after the declared 3 bytes (opcode 0x7f at 4)',
      commands: entryCommands,
    },
    {
      file: 'dk-output-short.pak',
      bytes: daikatana([0x02, 0x61, 0x62, 0x63, 0xff], 8),
      message: 'a.tga: Daikatana stream: ends after 3 bytes, the entry declares 8',
      commands: entryCommands,
    },
    {
      file: 'dk-compressed-past-end.pak',
      bytes: setU32(good, dir + 64, 5000),
      message: 'not a valid Daikatana PAK: entry 0: offset 12, length 3 or compressedLength 5000 is impossible in a 89-byte file',
      commands: archiveCommands,
    },
    {
      file: 'dk-length-too-large.pak',
      bytes: setU32(good, dir + 60, 0x7fffffff),
      message: 'not a valid Daikatana PAK: entry 0: length 2147483647 cannot come from 5 compressed bytes (at most 65×)',
      commands: archiveCommands,
    },
  ];
}

/** The other entries are sound: extract only the broken one, so nothing may be written. */
const onlyReadme = [verify, (f: string, out: string) => ['extract', f, '-t', out, '-p', 'data/readme.txt']];

function pangyaCases(): CorpusCase[] {
  const pak = sample('pak', 'pangya', 'lzpak_v1_xor_lz77.pak');
  // The first file entry (type low nibble not 2): XOR entries are 14 bytes, the name, one extra byte.
  let at = u32(pak, pak.length - 9);
  while ((pak[at + 1]! & 0x0f) === 2) at += 15 + pak[at]!;
  return [
    {
      file: 'pangya-truncated-trailer.pak',
      bytes: cut(pak, pak.length - 4),
      message: 'not a recognised archive',
      commands: archiveCommands,
    },
    {
      file: 'pangya-table-past-end.pak',
      bytes: setU32(pak, pak.length - 9, huge),
      message: 'not a recognised archive',
      commands: archiveCommands,
    },
    {
      file: 'pangya-count-too-large.pak',
      bytes: setU32(pak, pak.length - 5, 0x00ffffff),
      message: 'not a recognised archive',
      commands: archiveCommands,
    },
    // A damaged entry is listed (with a warning) and fails when read.
    {
      file: 'pangya-offset-out-of-range.pak',
      bytes: setU32(pak, at + 2, huge),
      message: 'data/readme.txt: entry data overflows its bounds: 2147418112 + 170 > 3546',
      commands: onlyReadme,
    },
    {
      file: 'pangya-packed-size-past-end.pak',
      bytes: setU32(pak, at + 6, 4096),
      message: 'data/readme.txt: entry data overflows its bounds: 0 + 4096 > 3546',
      commands: onlyReadme,
    },
  ];
}

function wadCases(): CorpusCase[] {
  const wad = wad2([{ name: 'CONCHARS', type: 0x44, bytes: new Uint8Array(64) }]); // data at 12, directory at 76
  const wad3 = wad2([{ name: 'CONCHARS', type: 0x44, bytes: new Uint8Array(64) }], 3);
  const dir = 76;
  return [
    {
      file: 'wad2-truncated-header.wad',
      bytes: cut(wad, 8),
      message: 'WAD header cut off: the file has 8 of its 12 bytes',
      commands: archiveCommands,
    },
    {
      file: 'wad2-count-too-large.wad',
      bytes: setU32(wad, 4, 0x00100000),
      message: 'WAD2 directory (1048576 × 32 bytes) overflows its bounds: 76 + 33554432 > 108',
      commands: archiveCommands,
    },
    {
      file: 'wad2-directory-past-end.wad',
      bytes: setU32(wad, 8, huge),
      message: 'WAD2 directory (1 × 32 bytes) overflows its bounds: 2147418112 + 32 > 108',
      commands: archiveCommands,
    },
    {
      file: 'wad2-lump-out-of-range.wad',
      bytes: setU32(wad, dir, huge),
      message: 'WAD2 lump 0 ("CONCHARS"): data 2147418112 + 64 lies outside the file (108 bytes)',
      commands: archiveCommands,
    },
    {
      file: 'wad2-lump-size-past-end.wad',
      bytes: setU32(setU32(wad, dir + 4, 1000), dir + 8, 1000),
      message: 'WAD2 lump 0 ("CONCHARS"): data 12 + 1000 lies outside the file (108 bytes)',
      commands: archiveCommands,
    },
    {
      file: 'wad2-compressed-lump.wad',
      bytes: setBytes(wad, dir + 13, [1]),
      message: 'CONCHARS: lzss compressed lumps are not supported',
      commands: entryCommands,
    },
    {
      file: 'wad3-directory-past-end.wad',
      bytes: setU32(wad3, 8, huge),
      message: 'WAD3 directory (1 × 32 bytes) overflows its bounds: 2147418112 + 32 > 108',
      commands: archiveCommands,
    },
    { file: 'wad3-negative-count.wad', bytes: setU32(wad3, 4, -1), message: 'WAD3 lump count is negative (-1)', commands: archiveCommands },
  ];
}

export function archiveCases(): CorpusCase[] {
  return [...hpiV1Cases(), ...hpiV2Cases(), ...pakCases(), ...daikatanaCases(), ...pangyaCases(), ...wadCases()];
}
