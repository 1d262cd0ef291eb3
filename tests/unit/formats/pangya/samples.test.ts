import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openArchive, openArchiveSource } from '../../../../electron/formats/index.js';
import { MemorySource } from '../../../../electron/io/byte-source.js';
import type { PangyaEntry } from '../../../../electron/formats/pangya/table.js';
import { runCli, samplesDir } from '../../../helpers/run-cli.js';

const expected = JSON.parse(await readFile(join(samplesDir, 'expected.json'), 'utf8')) as Record<string, Record<string, string>>;
const samples = Object.keys(expected).filter((k) => k.startsWith('pak/pangya/'));
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** What each sample was written with (from the samples README and the file names). */
function expectedMeta(key: string): { cipher: 'xor' | 'xtea'; region: string | null; method: string } {
  const name = key.split('/').pop()!;
  const region = name.match(/_xtea_([a-z]{2})_/)?.[1] ?? null;
  return {
    cipher: name.includes('_xor_') ? 'xor' : 'xtea',
    // lzpak's "gb" build enciphers with the US key: only the US key decodes that table (checked below).
    region: region === 'gb' ? 'us' : region,
    method: name.endsWith('_stored.pak') ? 'stored' : name.endsWith('_lz772.pak') ? 'lz77x' : 'lz77',
  };
}

const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

describe('Pangya samples', () => {
  it('has the twelve Pangya samples', () => {
    expect(samples.length).toBe(12);
  });

  for (const key of samples) {
    describe(key, () => {
      const file = join(samplesDir, key);
      const meta = expectedMeta(key);

      it('reads every file to the SHA-256 in expected.json, with the right cipher, region and method', async () => {
        const archive = await openArchive(file);
        try {
          expect(archive.format).toBe('pangya');
          const info = archive.info();
          expect(info).toMatchObject({ cipher: meta.cipher, region: meta.region });
          expect('regionCandidates' in info).toBe(false);
          expect(info).toMatchObject({ files: 5, dirs: 2 });
          const files = archive.entries.filter((e) => !e.dir);
          expect(files.map((e) => e.path).sort()).toEqual(Object.keys(expected[key]!).sort());
          expect(archive.entries.filter((e) => e.dir).map((e) => e.path)).toEqual(['data', 'data/sub']);
          for (const entry of files) {
            expect(sha256(await archive.read(entry)), entry.path).toBe(expected[key]![entry.path]);
            // noise.bin does not shrink; these writers keep it compressed anyway, with its requested type.
            expect(entry.method, entry.path).toBe(meta.method);
          }
          expect(archive.warnings).toEqual([]);
        } finally {
          await archive.close();
        }
      });

      it('keeps the stored name, decoded from CP949', async () => {
        const archive = await openArchive(file);
        try {
          const korean = archive.entries.find((e) => e.path.endsWith('.txt') && e.path !== 'data/readme.txt') as PangyaEntry;
          expect(korean.name).toBe('data/한글.txt');
        } finally {
          await archive.close();
        }
      });

      it('leaves the bytes it reads as they were: from a Buffer, detected then opened, twice, like the file', async () => {
        // A Buffer's slice() is a view, not a copy: a name deciphered in place would change the table under
        // the next region key tried, and under the open that takes the walk detection made.
        const bytes = await readFile(file);
        const before = sha256(bytes);
        const fromFile = await openArchive(file);
        try {
          for (let i = 0; i < 2; i++) {
            const archive = await openArchiveSource(new MemorySource(bytes));
            expect(archive.info()).toEqual(fromFile.info());
            expect(archive.entries).toEqual(fromFile.entries);
            expect(archive.warnings).toEqual([]);
          }
        } finally {
          await fromFile.close();
        }
        expect(sha256(bytes)).toBe(before);
      });

      it('extracts through the CLI to the expected bytes, and info --json reports cipher and region', async () => {
        const target = await mkdtemp(join(tmpdir(), 'pangya-sample-'));
        scratch.push(target);
        const run = await runCli(['extract', file, '--target', target]);
        expect(run.code, run.stderr).toBe(0);
        for (const [path, hash] of Object.entries(expected[key]!)) expect(sha256(await readFile(join(target, path))), path).toBe(hash);
        expect((await readdir(join(target, 'data'))).sort()).toEqual(['readme.txt', 'sub', '한글.txt']);
        const info = await runCli(['info', '--json', file]);
        expect(info.code).toBe(0);
        expect(JSON.parse(info.stdout)).toMatchObject({
          format: 'pangya',
          files: 5,
          dirs: 2,
          bytes: 9197,
          cipher: meta.cipher,
          region: meta.region,
        });
      });
    });
  }
});
