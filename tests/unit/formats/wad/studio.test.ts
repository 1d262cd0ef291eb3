import { describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStudioHost } from '../../../../electron/services/handlers/index.js';
import { samplesDir } from '../../../helpers/run-cli.js';
import { lumpBytes, readDirectory } from './wad-directory.js';

/** The studio's Archive screen opens a WAD like any archive: lumps in stored order, with their types. */
describe('archive.* on a WAD3', () => {
  it('opens, lists the lump types and reads a lump', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modpak-wadhost-'));
    const host = await createStudioHost({
      facts: { version: '1', host: 'web', initialRoot: dir, demo: false },
      recentFile: join(dir, 'recent.json'),
    });
    try {
      const path = join(dir, 'hl.wad');
      await copyFile(join(samplesDir, 'quake-assets', 'halflife', 'hl.wad'), path);
      const lumps = readDirectory(new Uint8Array(await readFile(path))).lumps;
      const listing = await host.call('archive.open', { path });
      if (!listing.ok) throw new Error(listing.error.message);
      const result = listing.result as { info: Record<string, unknown>; entries: { path: string; type?: string }[] };
      expect(result.info).toMatchObject({ format: 'wad', version: 'WAD3', files: lumps.length });
      expect(result.entries.map((e) => [e.path, e.type])).toEqual(lumps.map((l) => [l.name, 'miptex']));
      const read = await host.call('archive.read', { path, entry: lumps[1]!.name });
      if (!read.ok) throw new Error(read.error.message);
      const data = Buffer.from((read.result as { data: string }).data, 'base64');
      expect(new Uint8Array(data)).toEqual(lumpBytes(new Uint8Array(await readFile(path)), lumps[1]!));
    } finally {
      await host.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
