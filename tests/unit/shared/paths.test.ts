import { describe, expect, it } from 'vitest';
import { normalizeArchivePath, pathKey, safeRelativePath } from '../../../shared/paths.js';

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
