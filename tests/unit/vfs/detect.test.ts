import { describe, expect, it } from 'vitest';
import { decideGame, type GameFacts } from '../../../electron/vfs/detect.js';

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
