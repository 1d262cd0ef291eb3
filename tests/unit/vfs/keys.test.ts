import { describe, expect, it } from 'vitest';
import { pathKey } from '../../../shared/paths.js';
import { isCanonicalAscii, lookupKey, lookupKeys } from '../../../electron/vfs/keys.js';

describe('lookupKey', () => {
  it('is pathKey on canonical and non-canonical paths alike', () => {
    const cases = [
      'units/ARMCOM.fbi',
      'a',
      '',
      '/a',
      'a/',
      'a//b',
      'a\\b',
      'é/x',
      'ß',
      'units/Ärm.fbi',
      'x/y/z.TDF',
      '//',
      '\\',
      'a b/c~d_e',
    ];
    for (const c of cases) expect([c, lookupKey(c)]).toEqual([c, pathKey(c)]);
  });

  it('agrees with pathKey on random strings over the awkward characters', () => {
    const alphabet = 'aZz_/\\.é ß0';
    let seed = 99;
    for (let n = 0; n < 5000; n++) {
      let s = '';
      const len = (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % 12;
      for (let i = 0; i < len; i++) s += alphabet[(seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % alphabet.length];
      expect(lookupKey(s), JSON.stringify(s)).toBe(pathKey(s));
    }
  });

  it('only plain ASCII paths with single inner slashes take the fast route', () => {
    expect(['units/a.fbi', 'a'].map(isCanonicalAscii)).toEqual([true, true]);
    expect(['/a', 'a/', 'a//b', 'a\\b', 'é'].map(isCanonicalAscii)).toEqual([false, false, false, false, false]);
  });
});

describe('lookupKeys (a whole entry list at once)', () => {
  it('is pathKey of each path, for lists of canonical paths and lists with any awkward one among them', () => {
    const alphabet = 'aZz_/\\.é ß0\0';
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const word = () => {
      let s = '';
      for (let i = next() % 12; i > 0; i--) s += alphabet[next() % alphabet.length];
      return s;
    };
    const canonical = ['units/ARMCOM.fbi', 'a', 'x/y/z.TDF', 'a b/c~d_e', 'gamedata/sub10/x.tdf', ''];
    const lists: string[][] = [
      [],
      [''],
      ['', ''],
      canonical,
      [...canonical, '/a'],
      [...canonical, 'a/'],
      [...canonical, 'a\0b'],
      ['a\0', 'b'],
    ];
    for (let n = 0; n < 300; n++)
      lists.push(Array.from({ length: next() % 6 }, () => (next() % 3 === 0 ? word() : canonical[next() % canonical.length]!)));
    for (const list of lists) expect([list, lookupKeys(list)]).toEqual([list, list.map(pathKey)]);
  });
});
