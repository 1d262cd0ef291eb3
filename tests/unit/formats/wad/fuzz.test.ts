import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fuzzArchive } from '../../../helpers/fuzz.js';
import { samplesDir } from '../../../helpers/run-cli.js';

/** Mutated WAD2 and WAD3 samples: each opens and reads, or fails with a FormatError; never anything else. */
describe.each(['quake-assets/halflife/hl.wad', 'quake-assets/quake/cr8_czg.wad'])('fuzzing %s', (file) => {
  it('400 mutants end in success or a FormatError, within time and allocation limits', async () => {
    const original = new Uint8Array(await readFile(join(samplesDir, file)));
    const outcome = await fuzzArchive(original, { count: 400, seed: 29 });
    expect(outcome.ok + outcome.rejected).toBe(400);
    expect(outcome.rejected).toBeGreaterThan(40);
    expect(outcome.ok).toBeGreaterThan(40);
  });
});
