import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packBytes, writeHpi } from '../../../electron/demo/writer.js';
import { unitFbi } from '../../../electron/demo/content.js';
import { mountInstall } from '../../../electron/vfs/index.js';

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'modpak-corrupt-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('bad archives in an install never stop the mount', () => {
  it('garbage, empty, truncated and damaged archives are ignored with a reason; the rest mounts', async () => {
    const dir = join(base, 'TA');
    const files = [
      { path: 'units/ARMCOM.fbi', data: unitFbi('ARMCOM', 'Commander') },
      { path: 'units/CORCOM.fbi', data: unitFbi('CORCOM', 'Commander') },
    ];
    await writeHpi(join(dir, 'rev31.gp3'), files);
    const good = await packBytes('hpi', files, { version: 1 });
    let seed = 5;
    const noise = Uint8Array.from({ length: 4096 }, () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24);
    await writeFile(join(dir, 'garbage.hpi'), noise);
    await writeFile(join(dir, 'empty.ccx'), new Uint8Array(0));
    await writeFile(join(dir, 'truncated.ufo'), good.subarray(0, 40));
    // The header's directory end pointing past the file, with the trailer intact.
    const lying = good.slice();
    new DataView(lying.buffer).setUint32(8, 0x7fffffff, true);
    await writeFile(join(dir, 'lying.hpi'), lying);
    await writeFile(join(dir, 'headeronly.hpi'), new TextEncoder().encode('HAPI'));
    await mkdir(join(dir, 'folder.hpi'));
    const vfs = await mountInstall(dir, { game: 'ta' });
    try {
      expect(vfs.report().mounted.map((m) => m.archive)).toEqual(['rev31.gp3']);
      const ignored = Object.fromEntries(vfs.report().ignored.map((i) => [i.archive, i.reason]));
      expect(Object.keys(ignored).sort()).toEqual(['empty.ccx', 'garbage.hpi', 'headeronly.hpi', 'lying.hpi', 'truncated.ufo']);
      for (const reason of Object.values(ignored)) expect(reason.length).toBeGreaterThan(5);
      expect(vfs.resolve('units/corcom.fbi').winner?.archive).toBe('rev31.gp3');
      expect((await vfs.defs('units')).map((d) => d.name)).toEqual(['ARMCOM', 'CORCOM']);
    } finally {
      await vfs.close();
    }
  });

  it('a definition file that does not decode is skipped with a warning, the rest still counts', async () => {
    const dir = join(base, 'TA2');
    await writeHpi(
      join(dir, 'rev31.gp3'),
      [
        { path: 'units/ARMCOM.fbi', data: unitFbi('ARMCOM', 'Commander') },
        { path: 'units/BROKEN.fbi', data: unitFbi('BROKEN', 'x'.repeat(3000)) },
      ],
      { key: 0, method: 'zlib' },
    );
    // Damage the last file's compressed bytes (just before the trailer); the directory stays intact.
    const path = join(dir, 'rev31.gp3');
    const bytes = new Uint8Array(await readFile(path));
    for (let i = bytes.length - 36 - 40; i < bytes.length - 36 - 4; i++) bytes[i] = bytes[i]! ^ 0x5a;
    await writeFile(path, bytes);
    const vfs = await mountInstall(dir, { game: 'ta' });
    try {
      expect(vfs.report().mounted.map((m) => m.archive)).toEqual(['rev31.gp3']);
      expect((await vfs.defs('units')).map((d) => d.name)).toEqual(['ARMCOM']);
      expect(vfs.warnings.join('\n')).toMatch(/rev31\.gp3: units\/BROKEN\.fbi: .*its definitions are skipped/);
    } finally {
      await vfs.close();
    }
  });
});
