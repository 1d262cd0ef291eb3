import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractArchive } from '../../../electron/services/archive-extract.js';
import { packFile, packToBytes, sampleBytes } from '../formats/hpi/fixtures.js';

let work: string;
const files = Array.from({ length: 120 }, (_, i) =>
  packFile(`dir${i % 5}/file${i}.bin`, sampleBytes(i, 2000 + i * 97, i % 3 === 0 ? 'runs' : 'text')),
);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'hpi-workers-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('extraction on worker threads', () => {
  it('writes the same files as in-process extraction, with progress for every file', async () => {
    const archive = join(work, 'a.ufo');
    await writeFile(archive, await packToBytes([...files, packFile('../escape.txt', 'no')]));
    const warnings: string[] = [];
    let last = 0;
    const parallel = await extractArchive(archive, join(work, 'par'), {
      workers: 2,
      onWarning: (m) => warnings.push(m),
      onProgress: (d, t) => (last = d === t ? d : last),
    });
    const serial = await extractArchive(archive, join(work, 'ser'), { workers: 0 });
    expect(parallel).toEqual({
      files: 120,
      bytes: files.reduce((n, f) => n + f.size, 0),
      refused: ['../escape.txt'],
      failed: [],
      threads: 2,
    });
    expect(serial).toEqual({ ...parallel, threads: 0 });
    expect(last).toBe(121);
    expect(warnings).toEqual(['refused to extract "../escape.txt": it would land outside the target folder']);
    for (const f of files) {
      const a = await readFile(join(work, 'par', f.path));
      expect(a.equals(Buffer.from(await f.read())), f.path).toBe(true);
    }
    expect((await readdir(work)).sort()).toEqual(['a.ufo', 'par', 'ser']);
  });

  it('reports a corrupt entry from a worker as the same FormatError, once', async () => {
    const bytes = await packToBytes(files, { key: 0 });
    // Break the first chunk's magic of the first file: its data starts right after the directory.
    const dirEnd = new DataView(bytes.buffer).getUint32(8, true);
    bytes[dirEnd + 4] = bytes[dirEnd + 4]! ^ 0xff;
    const archive = join(work, 'bad.ufo');
    await writeFile(archive, bytes);
    await expect(extractArchive(archive, join(work, 'bad'), { workers: 2 })).rejects.toMatchObject({
      name: 'FormatError',
      message: expect.stringMatching(/no SQSH chunk at/),
    });
  });
});

describe('modpak extract --threads', () => {
  it('decodes on as many threads as asked, with the same bytes, and refuses 0', async () => {
    const { runCli } = await import('../../helpers/run-cli.js');
    const archive = join(work, 'threads.ufo');
    await writeFile(archive, await packToBytes(files));
    const one = await runCli(['extract', archive, '-t', join(work, 't1'), '--threads', '1']);
    const two = await runCli(['extract', archive, '-t', join(work, 't2'), '--threads', '2']);
    expect(one.stderr).toMatch(/extracted 120 files .* on 1 thread$/m);
    expect(two.stderr).toMatch(/extracted 120 files .* on 2 threads$/m);
    for (const f of files.slice(0, 10))
      expect((await readFile(join(work, 't2', f.path))).equals(await readFile(join(work, 't1', f.path))), f.path).toBe(true);
    const zero = await runCli(['extract', archive, '-t', join(work, 't0'), '--threads', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/--threads/);
  });
});
