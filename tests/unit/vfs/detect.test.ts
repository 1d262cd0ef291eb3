import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decideGame, detectGame, type GameFacts } from '../../../electron/vfs/detect.js';

const facts = (names: string[], more: Partial<GameFacts> = {}): GameFacts => ({
  folder: 'game',
  names,
  hpiVersions: new Map(),
  pak0Format: null,
  ...more,
});

describe('decideGame', () => {
  it('names that tell the game outright', () => {
    expect(decideGame(facts(['TotalA.exe', 'totala1.hpi']))).toEqual({ game: 'ta', reason: 'found TotalA.exe' });
    expect(decideGame(facts(['rev31.gp3']))).toEqual({ game: 'ta', reason: 'found rev31.gp3' });
    expect(decideGame(facts(['Kingdoms.exe', 'data.hpi']))?.game).toBe('tak');
    expect(decideGame(facts(['daikatana.exe', 'pak0.pak']))?.game).toBe('daikatana');
    expect(decideGame(facts(['quake2.exe', 'pak0.pak']))?.game).toBe('quake2');
  });

  it('HPI versions decide between TA and TA: Kingdoms', () => {
    expect(
      decideGame(
        facts(['a.hpi', 'b.hpi', 'c.hpi'], {
          hpiVersions: new Map([
            ['a.hpi', 2],
            ['b.hpi', 2],
            ['c.hpi', 1],
          ]),
        }),
      )?.game,
    ).toBe('tak');
    expect(
      decideGame(
        facts(['a.hpi', 'b.ufo'], {
          hpiVersions: new Map([
            ['a.hpi', 1],
            ['b.ufo', 0],
          ]),
        }),
      )?.game,
    ).toBe('ta');
  });

  it('paks: Daikatana by its layout, Quake 2 by baseq2 or gaps, Quake otherwise', () => {
    expect(decideGame(facts(['pak0.pak'], { pak0Format: 'daikatana' }))?.game).toBe('daikatana');
    expect(decideGame(facts(['pak0.pak'], { folder: 'baseq2', pak0Format: 'pak' }))?.game).toBe('quake2');
    expect(decideGame(facts(['pak1.pak', 'pak3.pak']))?.game).toBe('quake2');
    expect(decideGame(facts(['pak0.pak', 'PAK1.PAK'], { folder: 'id1', pak0Format: 'pak' }))).toEqual({
      game: 'quake',
      reason: 'the folder is id1',
    });
  });

  it('nothing recognisable gives null', () => {
    expect(decideGame(facts(['readme.txt', 'x.zip']))).toBeNull();
  });
});

describe('detectGame on a folder', () => {
  /** 'HAPI' and the version word, as an archive starts (all that the sniffer reads). */
  const hpi = (version: number) => {
    const bytes = new Uint8Array(64);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, 0x49504148, true);
    view.setUint32(4, version, true);
    return bytes;
  };

  it('reads the archives’ versions when the names do not decide, and not when they do', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modpak-detect-'));
    try {
      const names = ['a.hpi', 'b.hpi', 'c.ufo', 'd.ccx', 'e.ufo', 'f.hpi'];
      const versions = [0x20000, 0x20000, 0x10000, 0x20000, 0x10000, 0x20000];
      await Promise.all(names.map((n, i) => writeFile(join(dir, n), hpi(versions[i]!))));
      expect(await detectGame(dir, names)).toEqual({ game: 'tak', reason: '4 of 6 archives are HPI v2 (TA: Kingdoms)' });
      await writeFile(join(dir, 'readme.txt'), 'x');
      expect(await detectGame(dir, ['readme.txt', 'c.ufo', 'e.ufo'])).toEqual({
        game: 'ta',
        reason: '2 of 2 archives are HPI v1 (Total Annihilation)',
      });
      // rev31.gp3 decides at once, whatever the archives are (a missing one is never opened).
      expect(await detectGame(dir, [...names, 'rev31.gp3', 'missing.hpi'])).toEqual({ game: 'ta', reason: 'found rev31.gp3' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
