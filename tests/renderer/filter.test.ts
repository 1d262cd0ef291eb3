// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { filterPaths, indexPaths } from '../../renderer/lib/glob';
import { globMatcher, isGlob, pathMatcher } from '../../shared/globs';
import { ancestorKeys, buildTreeModel, filesUnder, matchRows, visibleRows } from '../../renderer/lib/tree-model';

const paths = [
  'units/ARMCOM.FBI',
  'units/CORCOM.FBI',
  'unitpics/ARMCOM.PCX',
  'Units/extra/ARMFLASH.FBI',
  'readme.txt',
  'maps/Coast to Coast.ota',
  'sounds/boom.wav',
];

describe('globs (one matcher for the CLI and the studio)', () => {
  const cases: [string, string, boolean][] = [
    ['*.fbi', 'ARMCOM.FBI', true],
    // Without a slash a glob matches the file name in any folder.
    ['*.fbi', 'units/ARMCOM.FBI', true],
    ['units/*.fbi', 'units/ARMCOM.FBI', true],
    ['units/*.fbi', 'units/extra/ARMFLASH.FBI', false],
    ['units/**/*.fbi', 'units/extra/ARMFLASH.FBI', true],
    ['units/**/*.fbi', 'units/ARMCOM.FBI', true],
    ['**/arm*', 'unitpics/ARMCOM.PCX', true],
    ['arm?om.*', 'ARMCOM.PCX', true],
    ['arm?om.*', 'ARMCCOM.PCX', false],
    ['[ac]*.fbi', 'CORCOM.FBI', true],
    ['[!c]*.fbi', 'CORCOM.FBI', false],
    ['*.{fbi,pcx}', 'ARMCOM.PCX', true],
    ['*.{fbi,pcx}', 'boom.wav', false],
    ['coast (1).ota', 'coast (1).ota', true],
    ['a+b.txt', 'aab.txt', false],
    // The patterns the studio's own matcher once read differently from the CLI's, with bash's answers.
    ['units/**', 'units/extra/ARMFLASH.FBI', true],
    ['units/**', 'unitpics/ARMCOM.PCX', false],
    ['*(a|b).txt', 'abba.txt', true],
    ['*(a|b).txt', 'c.txt', false],
    ['!(*.fbi)', 'ARMCOM.PCX', true],
    ['!(*.fbi)', 'ARMCOM.FBI', false],
    ['{a,b', '{a,b', true],
    ['{a,b', 'a', false],
    ['[]]', ']', true],
    ['[]]', 'a', false],
  ];
  for (const [glob, subject, expected] of cases) {
    it(`${glob} ${expected ? 'matches' : 'does not match'} ${subject}`, () => {
      expect(globMatcher(glob)(subject)).toBe(expected);
      // The host's filter (`modpak list -p`, `mount ls`) is the same function.
      expect(pathMatcher([glob])(subject)).toBe(expected);
    });
  }

  it('tells globs from plain text', () => {
    expect(isGlob('*.fbi')).toBe(true);
    expect(isGlob('armcom')).toBe(false);
  });
});

describe('filterPaths', () => {
  const index = indexPaths(paths);
  const names = (q: string) => filterPaths(index, q)?.map((i) => paths[i]) ?? null;

  it('gives null (everything) for an empty query', () => {
    expect(names('  ')).toBeNull();
  });

  it('matches a plain query as a case-insensitive substring of the path, sorted by path', () => {
    expect(names('armcom')).toEqual(['unitpics/ARMCOM.PCX', 'units/ARMCOM.FBI']);
    expect(names('UNITS/')).toEqual(['units/ARMCOM.FBI', 'units/CORCOM.FBI', 'Units/extra/ARMFLASH.FBI']);
  });

  it('matches a glob without a slash against file names, with one against whole paths', () => {
    expect(names('*.fbi')).toEqual(['units/ARMCOM.FBI', 'units/CORCOM.FBI', 'Units/extra/ARMFLASH.FBI']);
    expect(names('units/*.fbi')).toEqual(['units/ARMCOM.FBI', 'units/CORCOM.FBI']);
    expect(names('readme.*')).toEqual(['readme.txt']);
    expect(names('*.zzz')).toEqual([]);
  });

  it('filters 60,000 paths to the right ones', () => {
    const many: string[] = [];
    for (let i = 0; i < 60_000; i++)
      many.push(`${['units', 'anims', 'maps', 'sounds'][i % 4]}/file${i}.${['fbi', 'gaf', 'ota', 'wav'][i % 4]}`);
    const big = indexPaths(many);
    const fbi = filterPaths(big, '*.fbi')!;
    expect(fbi.length).toBe(15_000);
    expect(fbi.every((i) => many[i]!.endsWith('.fbi'))).toBe(true);
    const found = filterPaths(big, 'FILE5999')!.map((i) => many[i]!);
    expect(found.length).toBe(11); // file5999 and file59990..59999
    expect(found.every((p) => p.includes('file5999'))).toBe(true);
    expect(found).toEqual([...found].sort());
  });
});

describe('tree model', () => {
  const model = buildTreeModel(paths);

  it('groups folders case-insensitively, folders first, sorted', () => {
    const rows = visibleRows(model, new Set());
    expect(rows.map((r) => `${r.kind}:${r.name}:${r.count}`)).toEqual([
      'dir:maps:1',
      'dir:sounds:1',
      'dir:unitpics:1',
      'dir:units:3',
      'file:readme.txt:0',
    ]);
  });

  it('shows the children of expanded folders, one level deeper', () => {
    const rows = visibleRows(model, new Set(['units', 'units/extra']));
    const names = rows.map((r) => `${'  '.repeat(r.depth)}${r.name}`);
    expect(names).toEqual([
      'maps',
      'sounds',
      'unitpics',
      'units',
      '  extra',
      '    ARMFLASH.FBI',
      '  ARMCOM.FBI',
      '  CORCOM.FBI',
      'readme.txt',
    ]);
    expect(rows.find((r) => r.name === 'units')!.expanded).toBe(true);
  });

  it('lists every file below a folder and the folders above a path', () => {
    expect(
      filesUnder(model, 'units')
        .map((i) => paths[i])
        .sort(),
    ).toEqual(['Units/extra/ARMFLASH.FBI', 'units/ARMCOM.FBI', 'units/CORCOM.FBI']);
    expect(ancestorKeys('Units/extra/ARMFLASH.FBI')).toEqual(['units', 'units/extra']);
  });

  it('turns matches into full-path rows', () => {
    expect(matchRows(model, [4, 0]).map((r) => [r.id, r.name])).toEqual([
      ['f:4', 'readme.txt'],
      ['f:0', 'units/ARMCOM.FBI'],
    ]);
  });
});
