import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractArchive } from '../../../electron/services/archive-extract.js';
import { withArchive } from '../../../electron/services/archive-service.js';
import type { PackOptions } from '../../../electron/formats/archive.js';
import { packFile, packToBytes, sampleBytes, sameBytes } from '../formats/hpi/fixtures.js';
import { samplesDir } from '../../helpers/run-cli.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'hpi-extract-bytes-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** Every file under `dir`, by its path relative to it (forward slashes). */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const d of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (d.isFile())
      out.push(
        join(d.parentPath, d.name)
          .slice(dir.length + 1)
          .replaceAll('\\', '/'),
      );
  return out.sort();
}

/** Extract on this thread alone and beside a worker; each written file must equal the archive's whole read of the entry. */
async function expectExtractEqualsReads(archivePath: string, label: string): Promise<void> {
  const expected = await withArchive(archivePath, async (archive) => {
    const files = new Map<string, Uint8Array>();
    for (const e of archive.entries) if (!e.dir) files.set(e.path, await archive.read(e));
    return files;
  });
  for (const workers of [0, 1]) {
    const target = join(work, `${label}-${workers}`);
    const result = await extractArchive(archivePath, target, { workers });
    expect(result.files, `${label} on ${workers} workers`).toBe(expected.size);
    expect(await filesUnder(target)).toEqual([...expected.keys()].sort());
    for (const [path, bytes] of expected) expect(sameBytes(await readFile(join(target, path)), bytes), `${label}: ${path}`).toBe('same');
  }
}

describe('extraction writes exactly the bytes the archive reads back (real samples)', () => {
  it('every HPI sample, in this thread and on a worker', async () => {
    const names = (await readdir(join(samplesDir, 'hpi'))).sort();
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) await expectExtractEqualsReads(join(samplesDir, 'hpi', name), name);
  });
});

describe('extraction of generated archives: the bytes packed come back', () => {
  // Stored files larger than a stream slice (1 MiB) and than the read-ahead block, multi-chunk files,
  // empty files, many small files: each kind goes through a different read of the stream.
  const files = [
    packFile('big/stored-noise.bin', sampleBytes(1, (1 << 20) + 300_000, 'noise')),
    packFile('big/runs.tnt', sampleBytes(2, 5 * 65536 + 17, 'runs')),
    packFile('text/exact-chunk.fbi', sampleBytes(3, 65536)),
    packFile('empty.txt', new Uint8Array(0)),
    ...Array.from({ length: 60 }, (_, i) =>
      packFile(`many/d${i % 4}/f${i}.txt`, sampleBytes(10 + i, 100 + i * 211, i % 2 ? 'text' : 'runs')),
    ),
  ];
  const variants: [string, PackOptions][] = [
    ['lz77-ciphered', { method: 'lz77' }],
    ['lz77-plain', { method: 'lz77', key: 0 }],
    ['zlib-ciphered', { method: 'zlib', key: 0x7d }],
    ['stored-ciphered', { method: 'none', key: 0x33 }],
    ['stored-plain', { method: 'none', key: 0 }],
  ];
  for (const [label, options] of variants) {
    it(label, async () => {
      const archive = join(work, `${label}.hpi`);
      await writeFile(archive, await packToBytes(files, options));
      for (const workers of [0, 1]) {
        const target = join(work, `gen-${label}-${workers}`);
        const result = await extractArchive(archive, target, { workers });
        expect(result).toMatchObject({ files: files.length, refused: [], failed: [] });
        for (const f of files) expect(sameBytes(await readFile(join(target, f.path)), await f.read()), `${label}: ${f.path}`).toBe('same');
      }
    });
  }

  it('extracting over an earlier extraction replaces every file and leaves no temporary file', async () => {
    const archive = join(work, 'again.hpi');
    await writeFile(archive, await packToBytes(files.slice(0, 20)));
    const target = join(work, 'again');
    await mkdir(join(target, 'big'), { recursive: true });
    await writeFile(join(target, 'big', 'runs.tnt'), 'an older file of that name');
    await writeFile(join(target, 'kept.txt'), 'not in the archive');
    for (const workers of [0, 1]) await extractArchive(archive, target, { workers });
    for (const f of files.slice(0, 20)) expect(sameBytes(await readFile(join(target, f.path)), await f.read()), f.path).toBe('same');
    expect(await filesUnder(target)).toEqual([...files.slice(0, 20).map((f) => f.path), 'kept.txt'].sort());
  });
});
