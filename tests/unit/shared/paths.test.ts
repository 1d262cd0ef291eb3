import { describe, expect, it } from 'vitest';
import { normalizeArchivePath, pathKey, safeRelativePath } from '../../../shared/paths.js';
import { prng } from '../../helpers/prng.js';

describe('safeRelativePath', () => {
  it('keeps ordinary nested paths', () => {
    expect(safeRelativePath('units/ARMCOM.FBI')).toBe('units/ARMCOM.FBI');
    expect(safeRelativePath('data\\sub\\a.txt')).toBe('data/sub/a.txt');
    expect(safeRelativePath('./a/./b')).toBe('a/b');
  });
  it('refuses names that climb out of the target', () => {
    for (const bad of ['../evil', 'a/../../evil', '/etc/passwd', '\\evil', 'C:\\evil', 'c:evil', 'a\\..\\..\\evil', '..', '', 'a\0b']) {
      expect(safeRelativePath(bad), bad).toBeNull();
    }
  });
});

/** safeRelativePath as first written, before its shortcut for names already in form: split, filter, join. */
function reference(name: string): string | null {
  if (name.includes('\0')) return null;
  if (/^[a-zA-Z]:/.test(name)) return null;
  if (/^[\\/]/.test(name)) return null;
  const parts = name.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.length === 0) return null;
  if (parts.some((p) => p === '..')) return null;
  return parts.join('/');
}

describe('safeRelativePath against its definition', () => {
  it('gives the same answer for 200,000 names made of separators, dots, drive letters and NUL', () => {
    const rand = prng(15);
    const pieces = ['a', 'B', '.', '..', '...', '/', '//', '\\', '\0', ':', 'c:', 'x.y', ' ', 'é'];
    const wrong: string[] = [];
    for (let n = 0; n < 200_000; n++) {
      let name = '';
      const length = (rand() * 7) | 0;
      for (let i = 0; i < length; i++) name += pieces[(rand() * pieces.length) | 0];
      if (safeRelativePath(name) !== reference(name)) wrong.push(name);
    }
    expect(wrong).toEqual([]);
  });
});

describe('pathKey', () => {
  it('compares in upper-case ASCII and folds separators', () => {
    expect(pathKey('units\\armcom.fbi')).toBe('UNITS/ARMCOM.FBI');
    expect(pathKey('/a//b/')).toBe('A/B');
    expect(pathKey('é')).toBe('é');
  });
  it('normalizes stored names', () => {
    expect(normalizeArchivePath('\\a\\b\\')).toBe('a/b');
  });
});

describe('the plain-name shortcuts of safeRelativePath and pathKey', () => {
  // pathKey as first written: four replaces and an ASCII upper-casing.
  const referenceKey = (path: string): string =>
    normalizeArchivePath(path).replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32));

  it('give the rules’ answers for every name of up to five characters from a tricky alphabet', () => {
    const alphabet = ['a', 'Z', '.', '/', '\\', ':', '\0', 'é', ' ', '~'];
    let names = [''];
    let checked = 0;
    for (let length = 0; length <= 5; length++) {
      for (const name of names) {
        expect(safeRelativePath(name), JSON.stringify(name)).toBe(reference(name));
        expect(pathKey(name), JSON.stringify(name)).toBe(referenceKey(name));
        checked++;
      }
      names = names.flatMap((n) => alphabet.map((c) => n + c));
    }
    expect(checked).toBe(111_111);
    for (const name of ['maps/e1m1.bsp', 'c:/x', 'C:x', 'a/../b', 'a/.../b', '..a/b', 'units/ARMCOM.FBI', 'sound/ÿ.wav'])
      expect([safeRelativePath(name), pathKey(name)]).toEqual([reference(name), referenceKey(name)]);
  });
});
