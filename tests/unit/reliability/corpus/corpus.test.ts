import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../helpers/run-cli.js';
import { archiveCases } from './archive-cases.js';
import { assetCases } from './asset-cases.js';
import type { CorpusCase } from './corpus-case.js';

/**
 * Every corpus file through every command that reads it, in-process (one CLI run is a few milliseconds;
 * a child process per run would take seconds): exit 1, one stderr line `modpak: FILE: <its message>`, no
 * stack trace, nothing written into the output folder.
 */
const cases: CorpusCase[] = [...archiveCases(), ...assetCases()];
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modpak-corpus-'));
  for (const c of cases) await writeFile(join(dir, c.file), c.bytes);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the failure corpus: one file per breakage, each named by the message it gives', () => {
  it('has unique file names', () => {
    expect(new Set(cases.map((c) => c.file)).size).toBe(cases.length);
  });
  for (const c of cases) {
    it(c.file, async () => {
      const file = join(dir, c.file);
      for (const [i, command] of c.commands.entries()) {
        const out = join(dir, `${c.file}.out${i}`);
        await mkdir(out);
        const args = command(file, join(out, 'target'));
        const run = await runCli(args);
        if (process.env.CORPUS_PRINT)
          appendFileSync(
            process.env.CORPUS_PRINT,
            `${c.file} | ${args
              .slice(0, 2)
              .join(' ')
              .replace(dir + '/', '')} | ${run.code} | ${run.stderr.trim().replaceAll(dir + '/', '')}\n`,
          );
        const what = `${args.join(' ')}\n${run.stderr}${run.stdout.slice(0, 300)}`;
        expect(run.code, what).toBe(1);
        const lines = run.stderr.split('\n').filter((l) => l !== '');
        expect(lines, what).toHaveLength(1);
        const fragment = typeof c.message === 'string' ? escapeRe(c.message) : c.message.source;
        expect(lines[0], what).toMatch(new RegExp(`^modpak: ${escapeRe(file)}: .*${fragment}`));
        expect(lines[0]).not.toMatch(/\n\s+at |\.ts:\d+/);
        expect(await readdir(out), what).toEqual([]);
      }
    });
  }
});
