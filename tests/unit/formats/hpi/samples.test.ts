import { taMountVerdict } from '../../../../electron/vfs/rules/ta-mount.js';
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openArchive } from '../../../../electron/formats/index.js';
import { samplesDir } from '../../../helpers/run-cli.js';

const expected = JSON.parse(await readFile(join(samplesDir, 'expected.json'), 'utf8')) as Record<string, Record<string, string>>;
const hpiSamples = Object.keys(expected).filter((k) => k.startsWith('hpi/'));

describe('real HPI archives (../shared/samples/hpi)', () => {
  it('has samples to check', () => {
    expect(hpiSamples.length).toBeGreaterThanOrEqual(5);
  });

  for (const name of hpiSamples) {
    it(`${name}: every file decodes to the SHA-256 the peer readers agree on`, async () => {
      const archive = await openArchive(join(samplesDir, name));
      try {
        expect(archive.info()).toMatchObject({ format: 'hpi', version: 1 });
        expect(taMountVerdict(archive.info())).toMatchObject({ ok: true });
        const got: Record<string, string> = {};
        const warnings: string[] = [];
        for (const entry of archive.entries) {
          if (entry.dir) continue;
          const data = await archive.read(entry, (m) => warnings.push(`${entry.path}: ${m}`));
          got[entry.path] = createHash('sha256').update(data).digest('hex');
        }
        expect(got).toEqual(expected[name]);
        expect(warnings).toEqual([]);
      } finally {
        await archive.close();
      }
    });
  }
});
