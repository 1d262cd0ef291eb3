import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../../electron/io/byte-source.js';
import { openArchiveSource } from '../../../electron/formats/index.js';
import { entryChecksum, EntryChecksum } from '../../../electron/formats/hpi/checksums.js';
import { modFiles, packToBytes, sameBytes } from '../formats/hpi/fixtures.js';
import { packFile } from '../formats/hpi/fixtures.js';
import { quakePak } from './build.js';
import { prng } from '../../helpers/prng.js';

async function streamed(bytes: Uint8Array): Promise<{ path: string; whole: Uint8Array; pieces: Uint8Array[]; warnings: string[] }[]> {
  const archive = await openArchiveSource(new MemorySource(bytes, 'x'));
  const out = [];
  for (const e of archive.entries) {
    if (e.dir) continue;
    const warnings: string[] = [];
    const pieces: Uint8Array[] = [];
    for await (const p of archive.stream!(e, (m) => warnings.push(m))) pieces.push(p.slice());
    out.push({ path: e.path, whole: await archive.read(e), pieces, warnings });
  }
  return out;
}

describe('Archive.stream gives the bytes of read, a piece at a time (item 2)', () => {
  const cases: [string, () => Promise<Uint8Array>][] = [
    ['HPI v1 LZ77, enciphered', () => packToBytes(modFiles(), { method: 'lz77', key: 0x7d })],
    ['HPI v1 stored', () => packToBytes(modFiles(), { method: 'none', key: 0x21 })],
    ['HPI v2 zlib', () => packToBytes(modFiles(), { version: 2, method: 'zlib' })],
    ['HPI v2 stored', () => packToBytes(modFiles(), { version: 2, method: 'none' })],
    [
      'Quake PAK',
      async () =>
        quakePak([
          { name: 'a.txt', data: 'x'.repeat(3_000_000) },
          { name: 'b/c.bin', data: '' },
        ]),
    ],
  ];
  for (const [label, make] of cases) {
    it(label, async () => {
      for (const { path, whole, pieces, warnings } of await streamed(await make())) {
        const joined = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
        let at = 0;
        for (const p of pieces) {
          joined.set(p, at);
          at += p.length;
        }
        expect(sameBytes(joined, whole), path).toBe('same');
        expect(Math.max(0, ...pieces.map((p) => p.length)), path).toBeLessThanOrEqual(1 << 20);
        expect(warnings, path).toEqual([]);
      }
    });
  }

  it('the v2 entry checksum summed in pieces equals the one over the whole', () => {
    const rand = prng(3);
    const data = Uint8Array.from({ length: 100_000 }, () => (rand() * 256) | 0);
    const sum = new EntryChecksum();
    for (let at = 0; at < data.length; at += 777) sum.update(data.subarray(at, at + 777));
    expect(sum.digest()).toBe(entryChecksum(data));
  });

  it('a v2 entry whose data changed warns about its checksum when streamed too', async () => {
    const bytes = await packToBytes([packFile('a.txt', 'hello hello hello')], { version: 2, method: 'none' });
    const at = Buffer.from(bytes).indexOf('hello');
    bytes[at] = 'j'.charCodeAt(0);
    const [entry] = await streamed(bytes);
    expect(entry!.warnings.join()).toMatch(/entry checksum 0x[0-9a-f]+ does not match the data's 0x[0-9a-f]+/);
  });
});
