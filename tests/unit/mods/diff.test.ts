import { describe, expect, it } from 'vitest';
import { diffOverride, looksLikeText, sha256 } from '../../../electron/mods/diff.js';
import { describeTdfChange, tdfChanges } from '../../../electron/mods/tdf-diff.js';

const enc = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

const ARMCOM = ['[UNITINFO]', '{', '\tUnitName=ARMCOM;', '\tName=Commander;', '\tMaxDamage=3000;', '\tBuildTime=75000;', '}', ''].join(
  '\r\n',
);

const LASER = `[ARM_LASER]\r\n{\r\n\tname=Light Laser;\r\n\trange=300;\r\n\t[DAMAGE]\r\n\t{\r\n\t\tdefault=45;\r\n\t\tarmcom=10;\r\n\t}\r\n}\r\n`;

describe('tdfChanges', () => {
  it('reads a changed MaxDamage as that key of that section', () => {
    const changes = tdfChanges(ARMCOM, ARMCOM.replace('MaxDamage=3000', 'MaxDamage=4500'));
    expect(changes).toEqual([{ section: 'UNITINFO', key: 'MaxDamage', kind: 'changed', before: '3000', after: '4500' }]);
    expect(describeTdfChange(changes[0]!)).toBe('[UNITINFO] MaxDamage: 3000 → 4500');
  });

  it('ignores reformatting, comments and key case; names nested sections by path', () => {
    const reformatted = `// tweaked\n[arm_laser] { NAME=Light Laser; range=360; [damage] { default=45; armcom=10; core=5; } }`;
    expect(tdfChanges(LASER, reformatted)).toEqual([
      { section: 'arm_laser', key: 'range', kind: 'changed', before: '300', after: '360' },
      { section: 'arm_laser/damage', key: 'core', kind: 'added', after: '5' },
    ]);
  });

  it('lists added and removed sections and keys, keeping duplicate sibling names apart', () => {
    const before = '[A]{x=1;y=2;}[B]{z=1;}';
    const after = '[A]{x=1;}[C]{w=3;}[C]{w=4;}';
    expect(tdfChanges(before, after)).toEqual([
      { section: 'A', key: 'y', kind: 'removed', before: '2' },
      { section: 'C', key: null, kind: 'added' },
      { section: 'C', key: 'w', kind: 'added', after: '3' },
      { section: 'C#2', key: null, kind: 'added' },
      { section: 'C#2', key: 'w', kind: 'added', after: '4' },
      { section: 'B', key: null, kind: 'removed' },
    ]);
  });

  it('uses the first of duplicate keys in a section, as the game does', () => {
    expect(tdfChanges('[A]{x=1;x=2;}', '[A]{x=1;x=9;}')).toEqual([]);
  });
});

describe('diffOverride', () => {
  const base = { archive: 'totala1.hpi', entry: 'units/ARMCOM.FBI', bytes: enc(ARMCOM) };

  it('is same for identical bytes, with the shadowed archive and entry', () => {
    expect(diffOverride('units/ARMCOM.FBI', base, enc(ARMCOM))).toEqual({
      path: 'units/ARMCOM.FBI',
      status: 'same',
      base: { archive: 'totala1.hpi', entry: 'units/ARMCOM.FBI' },
      diff: null,
    });
  });

  it('gives a unified diff and the section/key diff for a modified FBI', () => {
    const d = diffOverride('units/ARMCOM.FBI', base, enc(ARMCOM.replace('3000', '4500')));
    expect(d.status).toBe('modified');
    expect(d.diff?.kind).toBe('text');
    if (d.diff?.kind !== 'text') throw new Error('not text');
    expect(d.diff.unified.startsWith('--- a/units/ARMCOM.FBI\ttotala1.hpi:units/ARMCOM.FBI\n')).toBe(true);
    expect(d.diff.unified).toContain('+++ b/units/ARMCOM.FBI\tworkspace');
    expect(d.diff.unified).toMatch(/^-\tMaxDamage=3000;\r?$/m);
    expect(d.diff.unified).toMatch(/^\+\tMaxDamage=4500;\r?$/m);
    expect(d.diff.tdf).toEqual([{ section: 'UNITINFO', key: 'MaxDamage', kind: 'changed', before: '3000', after: '4500' }]);
  });

  it('does not report a line change when only CRLF became LF', () => {
    const d = diffOverride('units/ARMCOM.FBI', base, enc(ARMCOM.replace(/\r\n/g, '\n')));
    expect(d.status).toBe('modified');
    if (d.diff?.kind !== 'text') throw new Error('not text');
    expect(d.diff.unified).not.toMatch(/^[-+]\t/m);
    expect(d.diff.unified).toContain('only the line endings');
    expect(d.diff.tdf).toEqual([]);
  });

  it('shows an added text file as all additions and has no base', () => {
    const d = diffOverride('docs/readme.txt', null, enc('hello\nworld\n'));
    expect(d).toMatchObject({ status: 'added', base: null, diff: { kind: 'text' } });
    if (d.diff?.kind !== 'text') throw new Error('not text');
    expect(d.diff.unified).toContain('+hello');
    expect(d.diff.tdf).toBeUndefined();
  });

  it('compares binary files by size and SHA-256', () => {
    const before = new Uint8Array([10, 5, 1, 8, 0, 0, 255, 3]);
    const after = new Uint8Array([10, 5, 1, 8, 0, 1, 255, 3, 7]);
    const d = diffOverride('anims/ARMCOM.GAF', { archive: null, entry: 'anims/armcom.gaf', bytes: before }, after);
    expect(d).toEqual({
      path: 'anims/ARMCOM.GAF',
      status: 'modified',
      base: { archive: null, entry: 'anims/armcom.gaf' },
      diff: { kind: 'binary', before: { size: 8, sha256: sha256(before) }, after: { size: 9, sha256: sha256(after) } },
    });
    expect(sha256(after)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells text from binary by extension, then by content', () => {
    expect(looksLikeText('x.fbi', new Uint8Array([0, 1, 2]))).toBe(true);
    expect(looksLikeText('x.pcx', new Uint8Array([10, 5, 1, 8, 0]))).toBe(false);
    expect(looksLikeText('x.unknown', enc('plain words\r\n'))).toBe(true);
    expect(looksLikeText('x.unknown', new Uint8Array([])).valueOf()).toBe(false);
  });
});
