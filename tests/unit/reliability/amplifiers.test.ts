import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { FormatError } from '../../../shared/errors.js';
import { MemorySource } from '../../../electron/io/byte-source.js';
import { hpiEngine } from '../../../electron/formats/hpi/index.js';
import { runCli } from '../../helpers/run-cli.js';
import { hpiV1Amplifier, hpiV1LongName, withTrailer } from './hostile.js';
import { put, withScratch } from './build.js';

const open = (bytes: Uint8Array) => hpiEngine.open(new MemorySource(bytes, 'x.hpi'));

describe('HPI v1 directory amplification (item 1)', () => {
  it('refuses folders that share one entry list', async () => {
    const bytes = hpiV1Amplifier(1000, 1000);
    expect(bytes.length).toBeLessThan(30_000);
    const err = await open(bytes).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).message).toMatch(/directory at \d+ shares its entry list at \d+ with the directory at \d+/);
  });

  it('refuses overlapping lists once the folders list more entries than the directory bytes hold', async () => {
    const bytes = hpiV1Amplifier(500, 1000, true);
    const err = await open(bytes).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    const holds = Math.floor((bytes.length - 20) / 9);
    expect((err as FormatError).message).toMatch(
      new RegExp(`more than its ${bytes.length - 20} bytes can hold \\(${holds}\\): entry lists overlap`),
    );
  });

  it('an honest archive of the same shape (one folder, its own list) still reads', async () => {
    const archive = await open(hpiV1Amplifier(1, 1000));
    expect(archive.entries.length).toBe(1001);
  });
});

describe('one long name (item 3)', () => {
  it('is refused with a clear message, not a stack overflow', async () => {
    const err = await open(hpiV1LongName(125_000)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).message).toMatch(/name at \d+ is longer than 255 bytes/);
    expect((await open(hpiV1LongName(255))).entries[0]!.path).toHaveLength(255);
  });

  it('an archive with one ignores that archive, and the install still mounts', async () => {
    await withScratch(async (dir) => {
      const root = join(dir, 'ta');
      await mkdir(root);
      await put(join(root, 'zz-long.ufo'), withTrailer(hpiV1LongName(125_000)));
      await put(join(root, 'amp.ufo'), withTrailer(hpiV1Amplifier(1000, 1000)));
      await put(join(root, 'good.ufo'), withTrailer(hpiV1LongName(10)));
      const run = await runCli(['mount', 'archives', root, '--game', 'ta', '--json']);
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as { ignored: { archive: string; reason: string }[]; mounted: { archive: string }[] };
      expect(report.mounted.map((m) => m.archive)).toEqual(['good.ufo']);
      const reasons = Object.fromEntries(report.ignored.map((i) => [i.archive, i.reason]));
      expect(reasons['zz-long.ufo']).toMatch(/longer than 255 bytes/);
      expect(reasons['amp.ufo']).toMatch(/shares its entry list/);
    });
  });
});
