import { describe, expect, it } from 'vitest';
import { xteaDecipher, xteaEncipher, xteaDecipherWords, xteaEncipherWords, XTEA_CYCLES } from '../../../../electron/formats/pangya/xtea.js';
import { REGION_KEYS, REGIONS } from '../../../../electron/formats/pangya/regions.js';
import { prng } from '../../../helpers/prng.js';
import { hex } from './fixtures.js';

describe('Pangya XTEA', () => {
  it('enciphers 8 zero bytes with the US key to the known vector (16 cycles)', () => {
    expect(XTEA_CYCLES).toBe(16);
    expect(hex(xteaEncipher(new Uint8Array(8), REGION_KEYS.us))).toBe('55238ecd5e56e5c7');
  });

  it('deciphers the vector back to zeros, block by block in place', () => {
    const data = Uint8Array.from([0x55, 0x23, 0x8e, 0xcd, 0x5e, 0x56, 0xe5, 0xc7, 0x55, 0x23, 0x8e, 0xcd, 0x5e, 0x56, 0xe5, 0xc7]);
    const same = xteaDecipher(data, REGION_KEYS.us);
    expect(same).toBe(data);
    expect(hex(data)).toBe('00'.repeat(16));
  });

  it('uses little-endian words: the word API agrees with the byte API', () => {
    expect(xteaEncipherWords(0, 0, REGION_KEYS.us)).toEqual([0xcd8e2355, 0xc7e5565e]);
  });

  it('round-trips random blocks with every region key, and the keys differ', () => {
    const rand = prng(3);
    const outputs = new Set<string>();
    for (const region of REGIONS) {
      const key = REGION_KEYS[region];
      for (let i = 0; i < 50; i++) {
        const v0 = (rand() * 2 ** 32) >>> 0;
        const v1 = (rand() * 2 ** 32) >>> 0;
        const [c0, c1] = xteaEncipherWords(v0, v1, key);
        expect(xteaDecipherWords(c0, c1, key)).toEqual([v0, v1]);
      }
      outputs.add(hex(xteaEncipher(new Uint8Array(8), key)));
    }
    expect(outputs.size).toBe(6);
  });

  it('refuses data that is not whole blocks', () => {
    expect(() => xteaEncipher(new Uint8Array(7), REGION_KEYS.us)).toThrow(/8-byte blocks/);
  });
});
