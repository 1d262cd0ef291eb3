import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../shared/errors.js';
import { encodeName as hpiName } from '../../../electron/formats/hpi/names.js';
import { encodeName as pakName, QUAKE_LAYOUT } from '../../../electron/formats/pak/layout.js';
import { encodeName as pangyaName } from '../../../electron/formats/pangya/names.js';

/** One way to fail a name encode in every writer: a FormatError with code 'bad-name' that names the name. */
function badName(encode: () => unknown): FormatError {
  try {
    encode();
  } catch (err) {
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).code).toBe('bad-name');
    return err as FormatError;
  }
  throw new Error('the name was accepted');
}

describe('name encoding fails one way', () => {
  it('HPI, PAK and Pangya writers refuse a name they cannot store with FormatError bad-name', () => {
    expect(badName(() => hpiName('карта.fbi')).message).toContain('карта.fbi');
    expect(badName(() => pakName('карта.bsp', QUAKE_LAYOUT)).message).toContain('карта.bsp');
    expect(badName(() => pakName('x'.repeat(56), QUAKE_LAYOUT)).message).toContain('56 bytes long');
    expect(badName(() => pakName('', QUAKE_LAYOUT)).message).toContain('empty');
    expect(badName(() => pangyaName('smile😀.txt')).message).toContain('smile😀.txt');
  });

  it('and gives the bytes of a name it can store', () => {
    expect([...pakName('maps/e1m1.bsp', QUAKE_LAYOUT)]).toEqual([...new TextEncoder().encode('maps/e1m1.bsp')]);
    expect([...hpiName('Café.txt')]).toEqual([0x43, 0x61, 0x66, 0xe9, 0x2e, 0x74, 0x78, 0x74]);
  });
});
