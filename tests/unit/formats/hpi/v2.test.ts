import { taMountVerdict } from '../../../../electron/vfs/rules/ta-mount.js';
import { describe, expect, it } from 'vitest';
import { entryChecksum } from '../../../../electron/formats/hpi/checksums.js';
import { readChunkHeader } from '../../../../electron/formats/hpi/sqsh.js';
import { modFiles, openBytes, packFile, packToBytes, readAll, sameBytes, sampleBytes } from './fixtures.js';

const v2 = { version: 2 as const };
const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getUint32(at, true);
const isSqsh = (b: Uint8Array, at: number) => new TextDecoder().decode(b.subarray(at, at + 4)) === 'SQSH';

describe('HPI v2 (TA: Kingdoms) writer and reader', () => {
  it("round-trips every method with entry checksums, listing a folder's subfolders then its files", async () => {
    const files = modFiles();
    for (const method of [undefined, 'lz77', 'zlib', 'none'] as const) {
      const bytes = await packToBytes(files, { ...v2, method });
      expect(Array.from(bytes.subarray(0, 8))).toEqual([0x48, 0x41, 0x50, 0x49, 0, 0, 2, 0]);
      expect(u32(bytes, 24)).toBe(0x20);
      const archive = await openBytes(bytes);
      expect(archive.info()).toMatchObject({
        format: 'hpi',
        version: 2,
        files: files.length,
        dirs: 6,
        bytes: files.reduce((n, f) => n + f.size, 0),
        last78: false,
      });
      expect(taMountVerdict(archive.info())).toEqual({ ok: false, reason: expect.stringMatching(/v2/) });
      expect(archive.entries.map((e) => e.path)).toEqual([
        'units',
        'units/ARMFARK.FBI',
        'units/ARMFLAK.FBI',
        'anims',
        'anims/armfark_gadget.gaf',
        'features',
        'features/corpses',
        'features/corpses/armfark_dead.tdf',
        'sounds',
        'sounds/noise.wav',
        'maps',
        'maps/big.tnt',
        'empty.txt',
      ]);
      const warnings: string[] = [];
      for (const f of files) {
        const entry = archive.entries.find((e) => e.path === f.path)!;
        expect(sameBytes(await archive.read(entry, (m) => warnings.push(m)), await f.read()), `${f.path} ${method}`).toBe('same');
      }
      expect(warnings).toEqual([]);
      // Noise does not compress: stored whatever the method; the runs do, in one chunk for the whole file.
      const noise = archive.entries.find((e) => e.path === 'sounds/noise.wav')!;
      expect(noise.method).toBe('stored');
      const big = archive.entries.find((e) => e.path === 'maps/big.tnt')!;
      expect(big.method).toBe(method === 'none' ? 'stored' : 'sqsh');
      if (method !== 'none') {
        // One chunk of all 200,000 bytes, as HPIPack writes it (kbot-io reads only a file's first chunk).
        const start = (big as unknown as { start: number }).start;
        let at = start;
        const sizes: number[] = [];
        while (at < start + big.packedSize) {
          const h = readChunkHeader(bytes, at, at);
          sizes.push(h.size);
          at += 19 + h.compressedSize;
        }
        expect(sizes).toEqual([200000]);
      }
    }
  });

  it('orders entries folder by folder: subfolders first (depth first), then files', async () => {
    const archive = await openBytes(
      await packToBytes([packFile('top.txt', 'a'), packFile('a/x.txt', 'b'), packFile('a/b/y.txt', 'c'), packFile('c/z.txt', 'd')], v2),
    );
    expect(archive.entries.map((e) => e.path)).toEqual(['a', 'a/b', 'a/b/y.txt', 'a/x.txt', 'c', 'c/z.txt', 'top.txt']);
  });

  it('compresses the directory and name blocks only when that saves space', async () => {
    const small = await packToBytes([packFile('a.txt', 'x')], v2);
    expect(isSqsh(small, u32(small, 8))).toBe(false);
    expect(isSqsh(small, u32(small, 16))).toBe(false);
    const many = Array.from({ length: 300 }, (_, i) => packFile(`units/armunit_number_${i}.fbi`, `[UNITINFO]{UnitName=ARM${i};}`));
    const big = await packToBytes(many, v2);
    expect(isSqsh(big, u32(big, 8))).toBe(true);
    expect(isSqsh(big, u32(big, 16))).toBe(true);
    const got = await readAll(await openBytes(big));
    expect(new TextDecoder().decode(got.get('units/armunit_number_299.fbi'))).toBe('[UNITINFO]{UnitName=ARM299;}');
  });

  it('writes zero files, a zero-byte file, and files of 65536 and 65537 bytes', async () => {
    expect((await openBytes(await packToBytes([], v2))).entries).toEqual([]);
    const files = [0, 65536, 65537].map((n, i) => packFile(`f${n}`, sampleBytes(40 + i, n, 'text')));
    const got = await readAll(await openBytes(await packToBytes(files, v2)));
    for (const f of files) expect(sameBytes(got.get(f.path), await f.read())).toBe('same');
  });

  it('warns (and still reads) when an entry checksum does not match', async () => {
    const bytes = await packToBytes([packFile('a.txt', 'hello')], v2);
    const archive0 = await openBytes(bytes);
    const rec = u32(bytes, 8); // raw directory block: root, then the file record at 20
    expect(u32(bytes, rec + 20 + 20)).toBe(entryChecksum(new TextEncoder().encode('hello')));
    const bad = bytes.slice();
    new DataView(bad.buffer).setUint32(rec + 20 + 20, 1, true);
    const archive = await openBytes(bad);
    const warnings: string[] = [];
    expect(new TextDecoder().decode(await archive.read(archive.entries[0]!, (m) => warnings.push(m)))).toBe('hello');
    expect(warnings[0]).toMatch(/entry checksum 0x1 does not match/);
    expect(archive0.warnings).toEqual([]);
  });

  it('reports Last78 when the header points at a 78-byte block', async () => {
    const bytes = await packToBytes([packFile('a.txt', 'hello')], v2);
    const withBlock = new Uint8Array(bytes.length + 78);
    withBlock.set(bytes);
    new DataView(withBlock.buffer).setUint32(28, bytes.length, true);
    expect((await openBytes(withBlock)).info()).toMatchObject({ last78: true });
    new DataView(withBlock.buffer).setUint32(28, bytes.length + 10, true);
    const past = await openBytes(withBlock);
    expect(past.info()).toMatchObject({ last78: false });
    expect(past.warnings.join()).toMatch(/Last78/);
  });

  it('keeps the Last78 block when an archive is re-exported with --order-from', async () => {
    const { mkdtemp, mkdir, writeFile, readFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { runCli } = await import('../../../helpers/run-cli.js');
    const bytes = await packToBytes([packFile('a.txt', 'hello'), packFile('b/c.txt', 'world')], v2);
    const block = Uint8Array.from({ length: 78 }, (_, i) => (i * 37 + 11) & 0xff);
    const original = new Uint8Array(bytes.length + 78);
    original.set(bytes);
    original.set(block, bytes.length);
    new DataView(original.buffer).setUint32(28, bytes.length, true);
    const dir = await mkdtemp(join(tmpdir(), 'modpak-last78-'));
    try {
      await writeFile(join(dir, 'official.hpi'), original);
      await mkdir(join(dir, 'src', 'b'), { recursive: true });
      await writeFile(join(dir, 'src', 'a.txt'), 'hello, changed');
      await writeFile(join(dir, 'src', 'b', 'c.txt'), 'world');
      const args = ['pack', join(dir, 'src'), '--format', 'hpi2'];
      expect((await runCli([...args, '--target', join(dir, 'kept.hpi'), '--order-from', join(dir, 'official.hpi')])).code).toBe(0);
      const kept = new Uint8Array(await readFile(join(dir, 'kept.hpi')));
      const at = new DataView(kept.buffer, kept.byteOffset).getUint32(28, true);
      expect(at).toBe(kept.length - 78);
      expect(kept.subarray(at)).toEqual(block);
      const reread = await openBytes(kept);
      expect(reread.info()).toMatchObject({ last78: true });
      expect(new TextDecoder().decode((await readAll(reread)).get('a.txt'))).toBe('hello, changed');
      // Without --order-from there is nothing to keep: a fresh archive has no Last78.
      expect((await runCli([...args, '--target', join(dir, 'fresh.hpi')])).code).toBe(0);
      expect((await openBytes(new Uint8Array(await readFile(join(dir, 'fresh.hpi'))))).info()).toMatchObject({ last78: false });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
