import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArchiveEntry } from '../../../electron/formats/index.js';
import { generateDemoInstall } from '../../../electron/demo/demo-install.js';
import { writeHpi } from '../../../electron/demo/writer.js';
import { unitFbi } from '../../../electron/demo/content.js';
import { InstallService } from '../../../electron/services/install-service.js';
import { MergedIndex, MountedInstall, extractPaths, type Layer } from '../../../electron/vfs/index.js';

let base: string;
let root: string;
const service = new InstallService();

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'modpak-install-service-'));
  root = await generateDemoInstall(join(base, 'TA'));
});
afterAll(async () => {
  await service.closeAll();
  await rm(base, { recursive: true, force: true });
});

describe('InstallService', () => {
  it('caches a mount per folder and options; other options mount again', async () => {
    const a = await service.open(root);
    expect(await service.open(join(root, '.'))).toBe(a);
    expect(await service.get(root)).toBe(a);
    const b = await service.open(root, { noDisc: true });
    expect(b).not.toBe(a);
    expect(b.report().mounted.some((m) => m.stage === 'disc')).toBe(false);
    expect(await service.open(root, { noDisc: true, refresh: true })).not.toBe(b);
    await expect(service.get(join(base, 'other'))).rejects.toThrow(/not open/);
  });

  it('mounts again when an archive arrives at the top of the install', async () => {
    const before = await service.open(root);
    await new Promise((r) => setTimeout(r, 20));
    await writeHpi(join(root, 'new.ufo'), [{ path: 'units/NEWUFO.fbi', data: unitFbi('NEWUFO', 'fresh') }]);
    const after = await service.open(root);
    expect(after).not.toBe(before);
    expect(after.resolve('units/NEWUFO.fbi').winner?.archive).toBe('new.ufo');
    await rm(join(root, 'new.ufo'));
    expect((await service.open(root)).resolve('units/NEWUFO.fbi').winner).toBeNull();
  });

  it('answers in the shared shapes: report, stats, tree, resolve, defs, conflicts, read', async () => {
    const install = await service.open(root, { game: 'ta' });
    expect(install.report().gameSource).toBe('given');
    expect(install.stats().paths).toBe(install.tree().paths.length);
    expect(install.resolve('docs/readme.txt').winner?.archive).toBe('totala1.hpi');
    expect((await install.defs('units')).length).toBeGreaterThan(10);
    expect((await install.conflicts()).paths.length).toBeGreaterThan(0);
    expect(new TextDecoder().decode(await install.read('docs/readme.txt'))).toMatch(/^Total Annihilation demo install/);
  });

  it('extracts chosen files and whole folders (winners only) with progress', async () => {
    const install = await service.open(root, { game: 'ta' });
    const target = join(base, 'out');
    const progress: number[] = [];
    const result = await extractPaths(install, ['units/CORCOM.fbi', 'features'], target, { onProgress: (d) => progress.push(d) });
    expect(result.refused).toEqual([]);
    expect(result.files).toBe(6);
    expect(progress.at(-1)).toBe(6);
    expect(await readFile(join(target, 'units/CORCOM.fbi'), 'latin1')).toContain('Loose commander');
    expect((await readdir(join(target, 'features', 'urban'))).sort()).toEqual(['cars.tdf', 'cars2.tdf']);
    await expect(extractPaths(install, ['no/such/thing'], join(base, 'out2'))).rejects.toThrow(/no file or folder no\/such\/thing/);
    const aborted = new AbortController();
    aborted.abort();
    await expect(extractPaths(install, ['units'], join(base, 'out3'), { signal: aborted.signal })).rejects.toThrow();
  });

  it('withExtraArchive: the hypothetical mount with its placement, not cached', async () => {
    const extra = join(base, 'mymod.ufo');
    await writeHpi(extra, [{ path: 'units/ARMCOM.fbi', data: unitFbi('ARMCOM', 'mod') }]);
    const { install, placement } = await service.withExtraArchive(root, extra);
    try {
      expect(placement).toEqual({ archive: 'mymod.ufo', stage: 'ufo', rank: 3, pushesOut: null, replaces: null, reason: 'mounted' });
      expect(install.resolve('units/ARMCOM.fbi').winner?.archive).toBe('rev31.gp3');
      expect(install.resolve('units/ARMCOM.fbi').shadowed.map((s) => s.archive)).toEqual(['mymod.ufo', 'totala1.hpi']);
    } finally {
      await install.close();
    }
    expect((await service.open(root)).resolve('units/ARMCOM.fbi').shadowed.map((s) => s.archive)).toEqual(['totala1.hpi']);
  });
});

describe('extraction never writes outside its target', () => {
  it('refuses names that climb out, and writes the rest', async () => {
    const files: [string, string][] = [
      ['../evil.txt', 'x'],
      ['/abs.txt', 'x'],
      ['ok/fine.txt', 'fine'],
      ['a\\..\\..\\evil2.txt', 'x'],
    ];
    const data = new Map<ArchiveEntry, Uint8Array>();
    const entries = files.map(([path, text]) => {
      const e: ArchiveEntry = { path, dir: false, size: text.length, packedSize: text.length, method: 'stored' };
      data.set(e, new TextEncoder().encode(text));
      return e;
    });
    const layer: Layer = {
      archive: 'evil.hpi',
      root: 'install',
      stage: 'hpi',
      entries,
      read: async (e) => data.get(e)!,
      close: async () => {},
    };
    const vfs = new MountedInstall(
      base,
      { game: 'ta', source: 'given', reason: null },
      null,
      { game: 'ta', mounted: [], ignored: [], looseFirst: true },
      new MergedIndex([layer]),
    );
    const target = join(base, 'safe', 'inner');
    const warnings: string[] = [];
    const result = await extractPaths(
      vfs,
      files.map(([p]) => p),
      target,
      { onWarning: (w) => warnings.push(w) },
    );
    expect(result.files).toBe(1);
    expect(result.refused.sort()).toEqual(['../evil.txt', '/abs.txt', 'a\\..\\..\\evil2.txt'].sort());
    expect(warnings).toHaveLength(3);
    expect(await readdir(join(base, 'safe'))).toEqual(['inner']);
    expect(await readFile(join(target, 'ok/fine.txt'), 'utf8')).toBe('fine');
  });
});
