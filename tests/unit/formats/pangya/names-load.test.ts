import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractWithWorkers, type EntryOutcome } from '../../../../electron/services/extract-pool.js';
import { openArchive } from '../../../../electron/formats/index.js';
import { runBin, samplesDir } from '../../../helpers/run-cli.js';
import { buildArchive, fixtureFiles } from './fixtures.js';

/**
 * The CP949 codec (iconv-lite) is loaded on the first name that is not ASCII, which each way of running
 * reaches differently: the sources resolve it from the module, the CLI bundle through its own require, a
 * worker bundle has it inlined. Korean names must decode in all three.
 */
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pangya-names-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('Korean names wherever the Pangya reader runs', () => {
  it('the CLI as users run it (its bundle) lists a CP949 name', async () => {
    const run = await runBin(['list', join(samplesDir, 'pak', 'pangya', 'lzpak_v3_xtea_kr_lz772.pak')]);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')).toContain('data/한글.txt');
  });

  it('a worker thread (its own bundle) opens a table of Korean names and writes their files', async () => {
    const files = fixtureFiles();
    const archivePath = join(work, 'korean.pak');
    await writeFile(archivePath, await buildArchive({ cipher: 'xtea', region: 'kr' }, files));
    const archive = await openArchive(archivePath);
    const indices = archive.entries.flatMap((e, i) => (e.dir ? [] : [i]));
    const paths = archive.entries.map((e) => e.path);
    await archive.close();
    const root = join(work, 'out');
    const outcomes: [number, EntryOutcome][] = [];
    // No part for this thread: the worker decodes every entry, or the job fails.
    await extractWithWorkers({
      archivePath,
      root,
      keepGoing: false,
      indices,
      sizeOf: () => 1,
      outOf: (i) => join(root, `${i}.out`),
      workers: 1,
      onFile: (i, outcome) => outcomes.push([i, outcome]),
    });
    expect(outcomes.length).toBe(files.length);
    const korean = paths.indexOf('data/한글 이름.txt');
    expect(korean).toBeGreaterThan(0);
    expect(new TextDecoder().decode(await readFile(join(root, `${korean}.out`)))).toBe('안녕하세요 팡야');
  });
});
