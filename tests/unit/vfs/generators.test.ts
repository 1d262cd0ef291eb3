import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { generateDemoInstall, generateFullInstall } from '../../../electron/demo/index.js';
import { mountInstall } from '../../../electron/vfs/index.js';

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'modpak-generators-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function fingerprint(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.push(
      `${relative(dir, path)} ${createHash('sha256')
        .update(await readFile(path))
        .digest('hex')}`,
    );
  }
  return out.sort();
}

describe('install generators', () => {
  it('the demo install is the same bytes on every run', async () => {
    const a = await fingerprint(await generateDemoInstall(join(base, 'a')));
    const b = await fingerprint(await generateDemoInstall(join(base, 'b')));
    expect(a.length).toBeGreaterThan(25);
    expect(a).toEqual(b);
  });

  it('the full install has the asked archives and entries, two .hpi past the slots, deterministic', async () => {
    const dir = join(base, 'full');
    const names = await generateFullInstall(dir, { archives: 16, entries: 1600, method: 'none' });
    expect(names).toHaveLength(16);
    const vfs = await mountInstall(dir);
    try {
      const stats = vfs.stats();
      expect(stats).toMatchObject({ game: 'ta', archives: 16, ignored: 0, entries: 1601 });
      expect(stats.shadowedPaths).toBeGreaterThan(50);
      expect(vfs.report().mounted.map((m) => m.stage)).toEqual(['gp3', 'ccx', 'ufo', 'ufo', ...Array(10).fill('hpi'), 'disc', 'disc']);
      expect((await vfs.defs('units')).length).toBeGreaterThan(30);
    } finally {
      await vfs.close();
    }
    await generateFullInstall(join(base, 'full2'), { archives: 16, entries: 1600, method: 'none' });
    expect(await fingerprint(join(base, 'full2'))).toEqual(await fingerprint(dir));
  });
});
