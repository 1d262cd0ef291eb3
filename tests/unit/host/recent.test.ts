import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecentInstalls } from '../../../electron/services/handlers/app.js';

describe('recent installs', () => {
  it('keeps the newest first, without duplicates, up to the limit, across restarts', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'modpak-recent-')), 'state', 'recent.json');
    const recent = new RecentInstalls(file, 3);
    expect(await recent.get()).toEqual([]);
    for (const root of ['/a', '/b', '/c', '/b', '/d']) await recent.add(root);
    expect(await recent.get()).toEqual(['/d', '/b', '/c']);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(['/d', '/b', '/c']);
    expect(await new RecentInstalls(file, 3).get()).toEqual(['/d', '/b', '/c']);
  });

  it('a damaged file counts as empty and is replaced on the next open', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'modpak-recent-')), 'recent.json');
    for (const damaged of ['{not json', '{"a":1}', '[1, null, "/ok"]']) {
      await writeFile(file, damaged);
      const recent = new RecentInstalls(file);
      expect(await recent.get()).toEqual(damaged.includes('/ok') ? ['/ok'] : []);
    }
    const recent = new RecentInstalls(file);
    await recent.add('/x');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(['/x', '/ok']);
  });
});
