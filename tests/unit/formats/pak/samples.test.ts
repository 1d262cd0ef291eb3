import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, samplesDir } from '../../../helpers/run-cli.js';
import { filesUnder } from '../../../helpers/files.js';

/**
 * Every Quake-family and Daikatana sample archive extracted through the CLI to the SHA-256s the peer readers
 * agree on (expected.json). The folders' archives that expected.json leaves out are the ones with no
 * single right answer: a truncated directory, a stream that must fail, duplicate names (their own tests).
 */

const expected = JSON.parse(readFileSync(join(samplesDir, 'expected.json'), 'utf8')) as Record<string, Record<string, string>>;
const folders = ['pak/quake', 'pak/daikatana'];
const archives = folders.flatMap((folder) =>
  readdirSync(join(samplesDir, folder), { withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => `${folder}/${d.name}`),
);

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('PAK samples', () => {
  it('cover every archive in the folders, and expected.json names the ones with known content', () => {
    expect(archives.length).toBe(9);
    const known = archives.filter((a) => expected[a]);
    expect(known.sort()).toEqual(
      Object.keys(expected)
        .filter((k) => folders.some((f) => k.startsWith(`${f}/`)))
        .sort(),
    );
    expect(archives.filter((a) => !expected[a]).sort()).toEqual([
      'pak/daikatana/trenchbroom_dkpak_duplicate_name.pak',
      'pak/daikatana/trenchbroom_dkpak_rle.pak',
      'pak/daikatana/trenchbroom_dkpak_truncated.pak',
    ]);
  });

  it.each(archives.filter((a) => expected[a]))('%s extracts to the expected SHA-256s', async (name) => {
    const file = join(samplesDir, name);
    const target = await mkdtemp(join(tmpdir(), 'modpak-pak-'));
    try {
      const run = await runCli(['extract', file, '--target', target]);
      expect(run.stderr).not.toMatch(/^modpak:/m);
      expect(run.code).toBe(0);
      const got: Record<string, string> = {};
      for (const rel of await filesUnder(target)) got[rel] = sha256(await readFile(join(target, rel)));
      expect(got).toEqual(expected[name]);
      const verify = await runCli(['verify', file, '--json']);
      expect(verify.code).toBe(0);
      expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true, files: Object.keys(expected[name]!).length });
    } finally {
      await rm(target, { recursive: true, force: true });
    }
  });

  it('recognises each sample as its own layout', async () => {
    for (const name of archives.filter((a) => expected[a])) {
      const info = JSON.parse((await runCli(['info', join(samplesDir, name), '--json'])).stdout);
      expect(info.format, name).toBe(name.includes('daikatana') ? 'daikatana' : 'pak');
    }
    // quakespasm's 8 entries also read as 4 SiN entries (every other name, every other entry's data): fits,
    // but covers a fifth of the file, so it is reported, not chosen.
    const info = JSON.parse((await runCli(['info', join(samplesDir, 'pak/quake/quakespasm-0.95.1.pak'), '--json'])).stdout);
    expect(info).toMatchObject({ format: 'pak', files: 8, dirs: 0, bytes: 557928, alsoMatches: ['sin'] });
    expect(info.note).toMatch(
      /fits Quake PAK \(8 × 64-byte entries, data covering 100% .*SiN PAK \(4 × 128-byte entries, data covering 20% .*read as Quake PAK, the most plausible/,
    );
  });
});
