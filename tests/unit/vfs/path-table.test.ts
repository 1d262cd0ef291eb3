import { describe, expect, it } from 'vitest';
import { PathTable } from '../../../electron/vfs/path-table.js';
import { normalizeArchivePath, pathKey } from '../../../shared/paths.js';

describe('PathTable', () => {
  const paths = ['units/ARMCOM.fbi', 'Units/corak.FBI', 'features/urban/cars.tdf', 'gamedata/x.tdf', 'sounds/é.wav', 'a', ''];
  const keys = paths.map(pathKey);
  const table = new PathTable(keys);

  it('finds every key in any case and spelling, and reports whether the query was canonical', () => {
    keys.forEach((key, n) => {
      expect(table.findKey(key)).toBe(n);
      expect(table.find(paths[n]!)).toBe(n);
      expect(table.find(paths[n]!.toLowerCase())).toBe(n);
    });
    expect(table.find('UNITS/armcom.FBI')).toBe(0);
    expect(table.lastQueryCanonical).toBe(true);
    expect(table.find('units\\ARMCOM.fbi')).toBe(0);
    expect(table.lastQueryCanonical).toBe(false);
    expect(table.find('/units//ARMCOM.fbi/')).toBe(0);
    expect(table.lastQueryCanonical).toBe(false);
    expect(table.find('sounds/É.wav')).toBe(-1); // only ASCII letters fold, as TA compares names
  });

  it('sends each kind of non-canonical spelling the general way, and still finds the path', () => {
    for (const spelling of ['/units/ARMCOM.fbi', 'units/ARMCOM.fbi/', 'units//ARMCOM.fbi', 'units\\ARMCOM.fbi', '\\units\\armcom.FBI']) {
      expect(table.find(spelling), spelling).toBe(0);
      expect(table.lastQueryCanonical, spelling).toBe(false);
    }
  });

  it('never mistakes a unit above 127 for the ASCII character of its low bits', () => {
    // U+00AF and U+00D5 share their low seven bits with '/' and 'U'; U+0161 folds to nothing in ASCII.
    expect(table.find('units\u00afARMCOM.fbi')).toBe(-1);
    expect(table.find('\u00d5nits/ARMCOM.fbi')).toBe(-1);
    expect(table.find('units/ARMCOM.fb\u0161')).toBe(-1);
  });

  it('answers -1 for paths it does not hold, including near misses', () => {
    for (const miss of ['units/ARMCOM.fb', 'units/ARMCOM.fbix', 'units', 'units/', 'xunits/ARMCOM.fbi', 'b']) expect(table.find(miss), miss).toBe(-1);
  });

  it('stays correct when many keys share hash slots (a full, colliding table)', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `DIR${i % 7}/FILE${i}.TDF`);
    const t = new PathTable(many);
    many.forEach((k, n) => expect(t.find(k.toLowerCase())).toBe(n));
    expect(t.find('dir0/file5000.tdf')).toBe(-1);
  });

  it('holds keys beyond Latin-1 (Pangya names decoded from CP949) next to ASCII ones', () => {
    const wide = ['DATA/한글.DAT', 'DATA/PLAIN.DAT', 'DATA/한.DAT'];
    const t = new PathTable(wide);
    expect(t.find('data/한글.dat')).toBe(0);
    expect(t.lastQueryCanonical).toBe(false); // non-ASCII takes the general route
    expect(t.find('data/plain.dat')).toBe(1);
    expect(t.lastQueryCanonical).toBe(true);
    expect(t.find('data\\한.dat')).toBe(2);
    expect(t.find('data/한글글.dat')).toBe(-1);
    expect(t.find('data/plain.da')).toBe(-1);
  });

  it('finds the empty key and tells a key from its prefixes and extensions', () => {
    const t = new PathTable(['', 'A', 'AB', 'ABC']);
    expect(t.find('')).toBe(0);
    expect(t.find('a')).toBe(1);
    expect(t.find('ab')).toBe(2);
    expect(t.find('abc')).toBe(3);
    expect(t.find('abcd')).toBe(-1);
  });

  it('tells keys apart that differ only by trailing NULs, in every length around a word boundary', () => {
    const keys = Array.from({ length: 13 }, (_, n) => 'A'.repeat(n)).flatMap((k) => [k, `${k}\0`, `${k}\0\0\0`]);
    const distinct = [...new Set(keys)];
    const t = new PathTable(distinct);
    distinct.forEach((k, n) => {
      expect(t.findKey(k), JSON.stringify(k)).toBe(n);
      expect(t.find(k.toLowerCase()), JSON.stringify(k)).toBe(n);
    });
  });

  it('keeps keys distinct whose units above 127 could be mistaken for bytes of another key', () => {
    // U+00E9 is stored as three bytes; a key made of the three units with those byte values must differ.
    const keys = ['\u00e9', '\u00e0\u0083\u00a9', '\u00c3\u00a9', '\uffff', '\ud83d\ude00', '\ud83d', 'X\u00e9Y'];
    const t = new PathTable(keys);
    keys.forEach((k, n) => expect(t.findKey(k), JSON.stringify(k)).toBe(n));
    expect(t.findKey('\u00ea')).toBe(-1);
    expect(t.find('x\u00e9y')).toBe(6);
  });

  it('answers queries longer than every key without a buffer their size, and still folds their slashes', () => {
    const t = new PathTable(['UNITS/ARMCOM.FBI']);
    expect(t.find(`${'units/'.repeat(100_000)}armcom.fbi`)).toBe(-1);
    expect(t.lastQueryCanonical).toBe(true); // a canonical miss, answered without the general route
    expect(t.find(`${'/'.repeat(100_000)}units${'/'.repeat(100_000)}armcom.fbi`)).toBe(0);
    expect(t.lastQueryCanonical).toBe(false);
    expect(t.findKey(`${'UNITS/'.repeat(100_000)}ARMCOM.FBI`)).toBe(-1);
    expect((t as unknown as { query: Int32Array }).query.length).toBe(4);
    expect(new PathTable([]).find('anything')).toBe(-1);
  });

  it('looks up long keys, and misses near them exactly', () => {
    const long = `${'DEEP/'.repeat(300)}FILE.TDF`;
    const t = new PathTable(['SHORT', long]);
    expect(t.find(long.toLowerCase())).toBe(1);
    expect(t.find(`${long.slice(0, -1)}x`)).toBe(-1);
    expect(t.find('short')).toBe(0); // the grown buffer still serves short queries
    expect(t.findKey(long)).toBe(1);
  });

  it('folds exactly a–z, in every position of a packed word (not the neighbours @ [ ` {)', () => {
    const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).filter((c) => c !== '/' && c !== '\\');
    const queries = [0, 1, 2, 3].flatMap((offset) => printable.map((c) => `${'q'.repeat(offset)}${c}z`));
    const keys = [...new Set(queries.map(pathKey))];
    const t = new PathTable(keys);
    for (const q of queries) {
      expect(t.find(q), q).toBe(keys.indexOf(pathKey(q)));
      expect(t.lastQueryCanonical).toBe(true);
    }
    expect(keys.indexOf('`Z')).not.toBe(keys.indexOf('@Z'));
  });

  it('agrees with a Map over pathKey on random keys and spellings (ASCII, NUL, slashes, non-ASCII)', () => {
    let seed = 7;
    const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    const alphabet = ['a', 'B', 'z', '_', '.', '/', '\\', '\0', '@', '[', '`', '{', '\u00e9', '\u00c9', '\ud55c', '\ud83d', '\u00e0'];
    const word = () => Array.from({ length: 1 + next(12) }, () => alphabet[next(alphabet.length)]).join('');
    const raws = Array.from({ length: 3000 }, word);
    const keys = [...new Set(raws.map(pathKey))];
    const reference = new Map(keys.map((k, n) => [k, n]));
    const t = new PathTable(keys);
    const respell = (raw: string) =>
      [...raw].map((c) => (c === '/' && next(3) === 0 ? '\\/' : next(2) ? c.toLowerCase() : c.toUpperCase())).join('');
    for (const query of [...raws, ...raws.map(respell), ...Array.from({ length: 3000 }, word)]) {
      expect(t.find(query), JSON.stringify(query)).toBe(reference.get(pathKey(query)) ?? -1);
      // Reported back as it came only when that is its canonical spelling; for ASCII, exactly then.
      const canonical = normalizeArchivePath(query) === query;
      if ([...query].every((c) => c.charCodeAt(0) < 0x80)) expect(t.lastQueryCanonical, JSON.stringify(query)).toBe(canonical);
      else if (t.lastQueryCanonical) expect(canonical, JSON.stringify(query)).toBe(true);
    }
    keys.forEach((k, n) => expect(t.findKey(k)).toBe(n));
  });

  it('compares lengths, not only words, when a key and its NUL-padded twin share a slot and tag', () => {
    // Two-key tables have 16 slots: about one pair in 4,096 lands on the same slot with the same tag,
    // and then only the stored length tells "K" from "K\0" (both pack to the same words).
    for (let i = 0; i < 20_000; i++) {
      const key = `K${i}`;
      const t = new PathTable([`${key}\0`, key]);
      if (t.find(key.toLowerCase()) !== 1) expect.fail(`${key} was mistaken for its NUL-padded twin`);
      if (t.findKey(key) !== 1) expect.fail(`findKey(${key}) was mistaken for its NUL-padded twin`);
    }
  });
});
