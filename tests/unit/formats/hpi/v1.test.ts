import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../../../electron/io/byte-source.js';
import { hpiEngine } from '../../../../electron/formats/hpi/index.js';
import { taMountStatus } from '../../../../electron/vfs/probe.js';
import { taMountVerdict } from '../../../../electron/vfs/rules/ta-mount.js';

import { deriveKey, positionCipher } from '../../../../electron/formats/hpi/cipher.js';
import { FormatError } from '../../../../shared/errors.js';
import { encodeLz77 } from '../../../../electron/formats/hpi/lz77.js';
import { modFiles, openBytes, packFile, packToBytes, readAll, sameBytes, sampleBytes } from './fixtures.js';

const hex = (s: string) => Uint8Array.from(s.trim().split(/\s+/), (h) => parseInt(h, 16));

/** The seed's AFark.ufo: nine files whose directory it dumps byte by byte. */
const afark = [
  ['anims/armfark_gadget.gaf', 18504],
  ['download/ARMFARK.TDF', 84],
  ['features/corpses/armfark_dead.tdf', 619],
  ['objects3d/armfark.3do', 7337],
  ['objects3d/armfark_dead.3do', 3551],
  ['scripts/ARMFARK.COB', 18988],
  ['unitpics/ARMFARK.PCX', 8728],
  ['units/ARMFARK.FBI', 1466],
  ['weapons/armfark_weapon.tdf', 430],
] as const;

describe('HPI v1 writer and reader', () => {
  it("lays the directory out as HPIPack does (the seed's AFark.ufo header and directory, key 0xA6)", async () => {
    const bytes = await packToBytes(
      afark.map(([p, n], i) => packFile(p, sampleBytes(i, n))),
      { key: 0xa6 },
    );
    expect(Array.from(bytes.subarray(0, 20))).toEqual(Array.from(hex('48 41 50 49 00 00 01 00 24 02 00 00 a6 00 00 00 14 00 00 00')));
    const plain = positionCipher(bytes.subarray(0x14, 0x224), 0x14, deriveKey(0xa6));
    // 0x14..0x70 as the seed prints it after deciphering with K = 0x9A
    expect(Array.from(plain.subarray(0, 0x70 - 0x14))).toEqual(
      Array.from(
        hex(`08 00 00 00 1c 00 00 00 64 00 00 00
             6a 00 00 00 01 97 00 00 00 a0 00 00 00 01 c6 00
             00 00 cf 00 00 00 01 13 01 00 00 1d 01 00 00 01
             66 01 00 00 6e 01 00 00 01 94 01 00 00 9d 01 00
             00 01 c3 01 00 00 c9 01 00 00 01 ef 01 00 00 f7
             01 00 00 01 61 6e 69 6d 73 00 01 00 00 00 72 00`),
      ),
    );
    // The first file record (at 0x8E): data right after the directory, 18504 bytes, LZ77.
    expect(Array.from(plain.subarray(0x8e - 0x14, 0x8e - 0x14 + 9))).toEqual(Array.from(hex('24 02 00 00 48 48 00 00 01')));
    // The first chunk follows its 4-byte size table at 0x224 + 4, enciphered like everything else.
    expect(Array.from(positionCipher(bytes.subarray(0x228, 0x22f), 0x228, 0x9a))).toEqual(Array.from(hex('53 51 53 48 02 01 01')));
    const archive = await openBytes(bytes);
    expect(archive.entries.filter((e) => !e.dir).map((e) => [e.path, e.size])).toEqual(afark.map(([p, n]) => [p, n]));
  });

  it('round-trips every method and key, keeping stored order and bytes', async () => {
    const files = modFiles();
    for (const options of [
      {},
      { method: 'zlib' as const },
      { method: 'none' as const },
      { key: 0 },
      { key: 1 },
      { key: 0xfe, method: 'zlib' as const },
    ]) {
      const bytes = await packToBytes(files, options);
      const archive = await openBytes(bytes);
      const info = archive.info();
      expect(info).toMatchObject({
        format: 'hpi',
        version: 1,
        files: files.length,
        key: options.key ?? 0x7d,
        trailer: 'Copyright 1997 Cavedog Entertainment',
      });
      expect(taMountVerdict(info)).toEqual({ ok: true, reason: expect.any(String) });
      const method = options.method === 'none' ? 'stored' : (options.method ?? 'lz77');
      // LZ77 stores the one file it cannot shrink: the noise, whose chunks would outweigh it (checked below).
      const listed = archive.entries.filter((e) => !e.dir);
      expect(listed.map((e) => e.method)).toEqual(
        listed.map((e) => (method === 'lz77' && e.path === 'sounds/noise.wav' ? 'stored' : method)),
      );
      const got = await readAll(archive);
      expect([...got.keys()]).toEqual([
        'units/ARMFARK.FBI',
        'units/ARMFLAK.FBI',
        'anims/armfark_gadget.gaf',
        'features/corpses/armfark_dead.tdf',
        'sounds/noise.wav',
        'empty.txt',
        'maps/big.tnt',
      ]);
      for (const f of files) expect(sameBytes(got.get(f.path), await f.read()), `${f.path} ${JSON.stringify(options)}`).toBe('same');
    }
  });

  it('would have made the stored noise larger as LZ77 chunks', async () => {
    const noise = modFiles().find((f) => f.path === 'sounds/noise.wav')!;
    const bytes = await noise.read();
    let chunked = 0;
    for (let at = 0; at < bytes.length; at += 65536) chunked += 4 + 19 + encodeLz77(bytes.subarray(at, at + 65536)).length;
    expect(chunked).toBeGreaterThan(bytes.length);
  });

  it('lists folders too, before their contents, with method dir', async () => {
    const archive = await openBytes(await packToBytes([packFile('a/b/c.txt', 'x'), packFile('a/d.txt', 'y')]));
    expect(archive.entries.map((e) => [e.path, e.dir, e.method])).toEqual([
      ['a', true, 'dir'],
      ['a/b', true, 'dir'],
      ['a/b/c.txt', false, 'lz77'],
      ['a/d.txt', false, 'lz77'],
    ]);
  });

  it('writes an archive of zero files, a zero-byte file, and files of 65536 and 65537 bytes', async () => {
    const empty = await openBytes(await packToBytes([]));
    expect(empty.entries).toEqual([]);
    expect(empty.info()).toMatchObject({ files: 0, dirs: 0, bytes: 0 });
    const sizes = [0, 65536, 65537];
    const files = sizes.map((n, i) => packFile(`f${n}.bin`, sampleBytes(30 + i, n, 'runs')));
    for (const method of ['lz77', 'zlib', 'none'] as const) {
      const bytes = await packToBytes(files, { method });
      const archive = await openBytes(bytes);
      const got = await readAll(archive);
      for (const f of files) expect(sameBytes(got.get(f.path), await f.read()), f.path).toBe('same');
      if (method !== 'none') {
        // 0 chunks, 1 chunk, 2 chunks: the size table is 0, 4 and 8 bytes.
        const chunked = archive.entries.map((e) => e.packedSize);
        expect(chunked[0]).toBe(0);
      }
    }
  });

  it('writes no trailer when asked, and TA would not mount that', async () => {
    const bytes = await packToBytes(modFiles().slice(0, 2), { trailer: false });
    const archive = await openBytes(bytes);
    expect(archive.info()).toMatchObject({ trailer: null });
    expect(taMountVerdict(archive.info())).toMatchObject({ ok: false, reason: expect.stringMatching(/no Cavedog trailer/) });
    expect(await taMountStatus(new MemorySource(bytes))).toMatchObject({ ok: false });
  });

  it('reports bytes after the trailer', async () => {
    const bytes = await packToBytes(modFiles().slice(0, 2));
    const longer = new Uint8Array(bytes.length + 5);
    longer.set(bytes);
    expect(taMountVerdict((await openBytes(longer)).info())).toEqual({
      ok: false,
      reason: expect.stringMatching(/^5 bytes follow the Cavedog trailer/),
    });
    expect(await taMountStatus(new MemorySource(longer))).toMatchObject({ ok: false, reason: expect.stringMatching(/5 bytes follow/) });
    expect(await taMountStatus(new MemorySource(bytes))).toEqual({ ok: true, reason: expect.any(String) });
  });

  it('does not compare the trailer year, and refuses a directory that does not read', async () => {
    const bytes = await packToBytes(modFiles().slice(0, 2));
    const other = bytes.slice();
    other.set(new TextEncoder().encode('2025'), other.length - 26);
    expect(await taMountStatus(new MemorySource(other))).toMatchObject({ ok: true });
    const broken = bytes.slice();
    new DataView(broken.buffer).setUint32(8, 0x7fffff, true); // DirectorySize past the end
    expect(await taMountStatus(new MemorySource(broken))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/directory does not read/),
    });
    expect(await taMountStatus(new MemorySource(new TextEncoder().encode('PACK....')))).toMatchObject({
      ok: false,
      reason: 'not an HPI archive',
    });
  });

  it('refuses HeaderKey 0xFF and other bad keys before writing anything', async () => {
    await expect(packToBytes(modFiles(), { key: 0xff })).rejects.toThrow(/HeaderKey 0xFF is refused/);
    await expect(packToBytes(modFiles(), { key: 256 })).rejects.toThrow(FormatError);
    await expect(packToBytes(modFiles(), { method: 'lz77x' })).rejects.toThrow(/Pangya/);
  });

  it('merges folders that differ only in case under the first spelling, keeping files that differ in case', async () => {
    const files = [packFile('Units/A.FBI', 'a'), packFile('units/B.FBI', 'b'), packFile('UNITS/b.fbi', 'c'), packFile('anims/x.gaf', 'd')];
    const archive = await openBytes(await packToBytes(files));
    expect(archive.entries.map((e) => e.path)).toEqual(['Units', 'Units/A.FBI', 'Units/B.FBI', 'Units/b.fbi', 'anims', 'anims/x.gaf']);
  });

  it('recognises HAPI v1/v2 and BANK from the bytes, and reports saved games without parsing them', async () => {
    const bank = new TextEncoder().encode('HAPIBANK' + ' '.repeat(40));
    expect(await hpiEngine.detect(new MemorySource(bank))).toEqual({ match: true });
    await expect(hpiEngine.open(new MemorySource(bank))).rejects.toThrow(/saved game/);
    expect(await hpiEngine.detect(new MemorySource(new TextEncoder().encode('HAPI\x00\x00\x03\x00')))).toEqual({ match: false });
  });

  it('reads stored files and chunks enciphered by position, and shared data offsets', async () => {
    const bytes = await packToBytes([packFile('a.txt', 'hello hello hello'), packFile('b.txt', 'other')], { method: 'none', key: 0x33 });
    expect(new TextDecoder().decode(bytes)).not.toContain('hello'); // stored bytes are enciphered too
    // Point b.txt's record at a.txt's data: both entries read the same bytes.
    const archive = await openBytes(bytes);
    const dataA = (archive.entries[0] as unknown as { dataOffset: number }).dataOffset;
    const k = deriveKey(0x33);
    const dir = positionCipher(bytes.subarray(20, new DataView(bytes.buffer).getUint32(8, true)), 20, k);
    const view = new DataView(dir.buffer);
    // Find b.txt's record: the second file record, whose size is 5.
    let record = -1;
    for (let i = 0; i + 9 <= dir.length; i++)
      if (view.getUint32(i + 4, true) === 5 && dir[i + 8] === 0 && view.getUint32(i, true) > 20) record = i;
    view.setUint32(record, dataA, true);
    view.setUint32(record + 4, 17, true);
    const patched = bytes.slice();
    patched.set(positionCipher(dir, 20, k), 20);
    const shared = await readAll(await openBytes(patched));
    expect(new TextDecoder().decode(shared.get('b.txt'))).toBe('hello hello hello');
  });
});
