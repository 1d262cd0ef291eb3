import { describe, expect, it } from 'vitest';
import { checkTdf, findSection, getValue, parseTdf } from '../../../shared/tdf/parse.js';

describe('parseTdf', () => {
  it('reads sections, nested sections and key=value pairs with their lines', () => {
    const doc = parseTdf('[UNITINFO]\n{\n  UnitName=ARMCOM;\n  Name=Commander;\n  [WEAPON1]\n  {\n    damage=50;\n  }\n}\n');
    expect(doc.problems).toEqual([]);
    expect(doc.sections).toHaveLength(1);
    const info = doc.sections[0]!;
    expect(info.name).toBe('UNITINFO');
    expect(info.line).toBe(1);
    expect(info.entries).toEqual([
      { key: 'UnitName', value: 'ARMCOM', line: 3 },
      { key: 'Name', value: 'Commander', line: 4 },
    ]);
    expect(info.sections[0]).toMatchObject({ name: 'WEAPON1', line: 5, entries: [{ key: 'damage', value: '50', line: 7 }] });
  });

  it('skips // and /* */ comments (multi-line ones too) and keeps line numbers right', () => {
    const doc = parseTdf('// header\n[A] // trailing\n{\n/* one\n two\n three */ x=1; // c\n y = two words ;\n}\n[B]{z=3;}');
    expect(doc.problems).toEqual([]);
    expect(doc.sections.map((s) => s.name)).toEqual(['A', 'B']);
    expect(doc.sections[0]!.entries).toEqual([
      { key: 'x', value: '1', line: 6 },
      { key: 'y', value: 'two words', line: 7 },
    ]);
    expect(doc.sections[1]!.entries).toEqual([{ key: 'z', value: '3', line: 9 }]);
  });

  it('treats CRLF like LF', () => {
    const lf = parseTdf('[A]\n{\nk=v;\n[S]\n{\nq=w;\n}\n}\n');
    const crlf = parseTdf('[A]\r\n{\r\nk=v;\r\n[S]\r\n{\r\nq=w;\r\n}\r\n}\r\n');
    expect(crlf).toEqual(lf);
    expect(crlf.sections[0]!.sections[0]!.entries[0]).toEqual({ key: 'q', value: 'w', line: 6 });
  });

  it('tolerates a missing ; and reports it with its line', () => {
    const doc = parseTdf('[A]\n{\nk=v\nm=n;\n}');
    expect(doc.sections[0]!.entries.map((e) => [e.key, e.value])).toEqual([
      ['k', 'v'],
      ['m', 'n'],
    ]);
    expect(doc.problems).toEqual([{ line: 3, severity: 'warning', message: "missing ';' after k=v" }]);
  });

  it('a value right before } is kept, with a warning', () => {
    const doc = parseTdf('[A]{k=v}');
    expect(doc.sections[0]!.entries).toEqual([{ key: 'k', value: 'v', line: 1 }]);
    expect(doc.problems.map((p) => p.severity)).toEqual(['warning']);
  });

  it('opens a section whose { is missing, and says so', () => {
    const doc = parseTdf('[A]\nk=v;\n}\n[B]\n{\n}\n');
    expect(doc.sections.map((s) => s.name)).toEqual(['A', 'B']);
    expect(doc.sections[0]!.entries).toEqual([{ key: 'k', value: 'v', line: 2 }]);
    expect(doc.problems).toEqual([{ line: 1, severity: 'warning', message: "missing '{' after [A] (a value follows on line 2)" }]);
  });

  it('reports an unclosed section, a stray }, a stray ; and text without =', () => {
    const doc = parseTdf('}\n[A]\n{\n;\nhello\nk=v;\n');
    expect(doc.sections[0]!.entries).toEqual([{ key: 'k', value: 'v', line: 6 }]);
    expect(doc.problems).toEqual([
      { line: 1, severity: 'error', message: "'}' without an open section" },
      { line: 4, severity: 'warning', message: "stray ';'" },
      { line: 5, severity: 'warning', message: 'text without \'=\' ignored: "hello"' },
      { line: 7, severity: 'error', message: 'section [A] opened on line 2 is never closed' },
    ]);
  });

  it('reports an unterminated comment and an unterminated header', () => {
    expect(parseTdf('[A]{k=v;}\n/* open\n').problems).toEqual([{ line: 2, severity: 'error', message: "comment '/*' is never closed" }]);
    const doc = parseTdf('[A\n{\nk=v;\n}');
    expect(doc.sections[0]!.name).toBe('A');
    expect(doc.problems).toEqual([{ line: 1, severity: 'error', message: "section header [A has no ']'" }]);
  });

  it('reports values outside any section as errors and drops them', () => {
    const doc = parseTdf('k=v;\n[A]{}');
    expect(doc.sections[0]!.entries).toEqual([]);
    expect(doc.problems).toEqual([{ line: 1, severity: 'error', message: 'k=v is outside any section' }]);
  });

  it('decodes 8-bit bytes as Windows-1252 and never throws on noise', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('[A]{name='), 0xe9, 0x80, ...new TextEncoder().encode(';}'), 0x1a, 0]);
    const doc = parseTdf(bytes);
    expect(doc.sections[0]!.entries[0]!.value).toBe('é€');
    expect(doc.problems).toEqual([]);
    let seed = 7;
    for (let n = 0; n < 300; n++) {
      const junk = Array.from({ length: 200 }, () => '[]{};=/*\n\r ab'.charAt((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 14)).join(
        '',
      );
      expect(() => parseTdf(junk)).not.toThrow();
    }
  });

  it('finds sections and values case-insensitively', () => {
    const doc = parseTdf('[UnitInfo]{UNITNAME=corcom;}');
    const info = findSection(doc.sections, 'UNITINFO')!;
    expect(getValue(info, 'UnitName')).toBe('corcom');
    expect(findSection(doc.sections, 'nope')).toBeUndefined();
  });

  it('checkTdf is ok with warnings only, not with errors', () => {
    expect(checkTdf('[A]{k=v}')).toMatchObject({ ok: true, problems: [{ severity: 'warning' }] });
    expect(checkTdf('[A]{k=v;')).toMatchObject({ ok: false });
  });
});
