import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exerciseArchive, fuzzArchive, mutations } from '../../../helpers/fuzz.js';
import { runCli } from '../../../helpers/run-cli.js';
import { FormatError } from '../../../../shared/errors.js';
import { detectFormat } from '../../../../electron/formats/index.js';
import { MemorySource } from '../../../../electron/io/byte-source.js';
import { fuzzSeedArchive } from './fuzz-fixtures.js';

/** Mutated Quake, SiN and Daikatana archives: each opens and reads, or fails with a FormatError; never anything else. */

describe.each(['pak', 'sin', 'daikatana'] as const)('fuzzing %s archives', (format) => {
  it('600 mutants end in success or a FormatError, within time and allocation limits', async () => {
    const original = await fuzzSeedArchive(format);
    expect((await detectFormat(new MemorySource(original))).engine.id).toBe(format);
    const outcome = await fuzzArchive(original, { count: 600, seed: 17 });
    expect(outcome.ok + outcome.rejected).toBe(600);
    // Both kinds happen: the harness really exercised the reader, not just the magic check.
    expect(outcome.rejected).toBeGreaterThan(100);
    expect(outcome.ok).toBeGreaterThan(20);
  });
});

describe('broken PAK archives through the CLI', () => {
  it('exit 1 with one line `modpak: FILE: ...` for every failing mutant', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modpak-pakfuzz-'));
    try {
      let checked = 0;
      for (const format of ['pak', 'sin', 'daikatana'] as const) {
        const original = await fuzzSeedArchive(format);
        let picked = 0;
        for (const m of mutations(original, 200, 23)) {
          if (picked === 4) break;
          try {
            await exerciseArchive(m.bytes);
            continue;
          } catch (err) {
            if (!(err instanceof FormatError)) throw err;
          }
          picked++;
          const file = join(dir, `${format}-${picked}.pak`);
          await writeFile(file, m.bytes);
          const run = await runCli(['extract', file, '--target', join(dir, `out-${format}-${picked}`)]);
          expect(run.code, m.label).toBe(1);
          const lines = run.stderr.split('\n').filter((l) => l.startsWith('modpak:') && !l.startsWith('modpak: warning:'));
          expect(lines, m.label).toHaveLength(1);
          expect(lines[0]!.startsWith(`modpak: ${file}: `), lines[0]).toBe(true);
          checked++;
        }
      }
      expect(checked).toBe(12);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
