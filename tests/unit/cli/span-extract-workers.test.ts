import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractArchive, plannedWorkerScript } from '../../../electron/services/archive-extract.js';
import { spanPlan } from '../../../electron/services/extract-plan.js';
import { extractWithWorkers, type EntryOutcome } from '../../../electron/services/extract-pool.js';
import { withArchive, type Archive } from '../../../electron/formats/index.js';
import { FormatError } from '../../../shared/errors.js';
import { samplesDir } from '../../helpers/run-cli.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'span-workers-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

const sample = (path: string) => `${samplesDir}pak/${path}`;

/** Every file of the archive written by one planned worker from the span plan alone (this thread writes none). */
async function extractOnPlannedWorker(archive: Archive, path: string, root: string, keepGoing = false): Promise<Map<number, EntryOutcome>> {
  const indices = archive.entries.flatMap((e, i) => (e.dir ? [] : [i]));
  const plan = spanPlan(
    archive,
    indices,
    indices.map((i) => archive.entries[i]!.path),
  );
  expect(plan, 'every entry of the archive is one run of its file').not.toBeNull();
  const outcomes = new Map<number, EntryOutcome>();
  await extractWithWorkers({
    archivePath: path,
    root,
    keepGoing,
    indices,
    sizeOf: (i) => archive.entries[i]!.size,
    workers: 1,
    script: plannedWorkerScript,
    prelude: plan,
    ranges: true,
    onFile: (i, outcome) => outcomes.set(i, outcome),
  });
  return outcomes;
}

describe('the planned worker writes PAK-family entries from their spans alone', () => {
  it.each([
    'quake/quakespasm-0.95.1.pak',
    'daikatana/dkpak_exe_user.pak',
    'daikatana/synthetic_overlap_backref.pak',
    'pangya/lzpak_v1_xor_lz77.pak',
    'pangya/lzpak_v3_xtea_jp_stored.pak',
    'pangya/pangpak_xtea_kr_lz772.pak',
    'pangya/pangpak_xtea_us_lz77.pak',
  ])('%s: the same bytes as the reader decodes', async (name) => {
    const path = sample(name);
    const root = join(work, name.replace(/\W/g, '_'));
    await withArchive(path, async (archive) => {
      const outcomes = await extractOnPlannedWorker(archive, path, root);
      const files = archive.entries.filter((e) => !e.dir);
      expect(outcomes.size).toBe(files.length);
      // Stored and compressed entries both cross: the Daikatana and Pangya samples hold each kind.
      for (const [i, outcome] of outcomes) {
        const entry = archive.entries[i]!;
        const expected = await archive.read(entry);
        expect(outcome, entry.path).toEqual({ kind: 'file', bytes: expected.length });
        expect(new Uint8Array(await readFile(join(root, entry.path))), entry.path).toEqual(expected);
      }
    });
  });

  it('a stream that does not decode is the same failure on the worker as in this thread', async () => {
    // Every opcode, an unterminated stream and a truncated literal (the last two must fail).
    const path = sample('daikatana/trenchbroom_dkpak_rle.pak');
    await withArchive(path, async (archive) => {
      const outcomes = await extractOnPlannedWorker(archive, path, join(work, 'rle-worker'), true);
      const here = await extractArchive(path, join(work, 'rle-here'), { workers: 0, keepGoing: true });
      const failed = [...outcomes]
        .filter(([, o]) => o.kind === 'failed')
        .map(([i, o]) => ({ path: archive.entries[i]!.path, message: (o as { message: string }).message }));
      expect(failed.length).toBeGreaterThanOrEqual(2);
      expect(failed.sort((a, b) => a.path.localeCompare(b.path))).toEqual([...here.failed].sort((a, b) => a.path.localeCompare(b.path)));
      expect(outcomes.size - failed.length).toBe(here.files);
    });
  });

  it('without keepGoing, the first entry that does not decode stops the worker and names itself', async () => {
    const path = sample('daikatana/trenchbroom_dkpak_rle.pak');
    await withArchive(path, async (archive) => {
      const stopped = extractOnPlannedWorker(archive, path, join(work, 'rle-stop'));
      await expect(stopped).rejects.toMatchObject({ failure: expect.any(FormatError) });
    });
  });
});

describe('an extraction of a PAK-family archive', () => {
  it.each(['daikatana/dkpak_exe_user.pak', 'pangya/pangpak_xtea_kr_lz772.pak'])(
    '%s: a worker and this thread alone write the same files',
    async (name) => {
      const path = sample(name);
      const alone = await extractArchive(path, join(work, `alone-${name.replace(/\W/g, '_')}`), { workers: 0 });
      const shared = await extractArchive(path, join(work, `shared-${name.replace(/\W/g, '_')}`), { workers: 1 });
      expect(shared.threads).toBe(1);
      expect({ ...alone, threads: 1 }).toEqual(shared);
    },
  );
});

describe('the span plan', () => {
  it("is not made for an archive that keeps its entries otherwise (HPI v1 chunks, a WAD's lumps)", async () => {
    for (const path of [`${samplesDir}hpi/ArmImp.ufo`, `${samplesDir}quake-assets/quake/cr8_czg.wad`])
      await withArchive(path, async (archive) => {
        expect(spanPlan(archive, [0], [archive.entries[0]!.path])).toBeNull();
      });
  });
});
