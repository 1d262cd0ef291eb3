import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { decodeName, encodeName, trimNamePadding } from '../../../../electron/formats/pangya/names.js';
import { FormatError } from '../../../../shared/errors.js';
import { MemorySource } from '../../../../electron/io/byte-source.js';
import { pangyaEngine } from '../../../../electron/formats/pangya/index.js';
import type { PangyaEntry } from '../../../../electron/formats/pangya/table.js';
import { buildArchive, hex } from './fixtures.js';

describe('Pangya CP949 names', () => {
  it('encodes Korean to CP949 bytes and decodes them back', () => {
    const bytes = encodeName('data\\한글.txt');
    expect(hex(bytes)).toBe('646174615cc7d1b1db2e747874');
    expect(decodeName(bytes)).toEqual({ text: 'data\\한글.txt', cp949: true });
  });

  it('round-trips Hangul from the UHC extension (outside EUC-KR proper)', () => {
    const name = '똠방각하.txt';
    const bytes = encodeName(name);
    expect(decodeName(bytes).text).toBe(name);
  });

  it('refuses characters CP949 cannot store with a FormatError, rather than a silent "?"', () => {
    expect(() => encodeName('smile😀.txt')).toThrow(FormatError);
    expect(() => encodeName('smile😀.txt')).toThrow('smile😀.txt: the name has characters CP949 cannot store');
    expect(hex(encodeName('what?.txt'))).toBe(hex(new TextEncoder().encode('what?.txt')));
  });

  it('ASCII names (decoded without iconv-lite) read and write as CP949 does', () => {
    const every = Uint8Array.from({ length: 128 }, (_, i) => i);
    const viaCodec = iconv.decode(Buffer.from(every), 'cp949');
    expect(decodeName(every)).toEqual({ text: viaCodec, cp949: true });
    expect(hex(encodeName(viaCodec))).toBe(hex(iconv.encode(viaCodec, 'cp949')));
    // One byte past ASCII goes through the codec: a lone lead byte is not CP949.
    expect(decodeName(Uint8Array.of(0x61, 0x81))).toEqual({ text: iconv.decode(Buffer.of(0x61, 0x81), 'cp949'), cp949: false });
  });

  it('flags bytes that are not CP949', () => {
    expect(decodeName(Uint8Array.of(0x61, 0xc7)).cp949).toBe(false);
  });

  it('trims 0x00 and 0xCD padding, but keeps a 0xCD that ends a Hangul syllable', () => {
    expect(hex(trimNamePadding(Uint8Array.of(0x61, 0x62, 0x00, 0xcd, 0xcd, 0x00, 0xcd, 0xcd)))).toBe('6162');
    // 0xB0 0xCD is one syllable: trimming its trail byte would leave a dangling lead byte.
    const syllable = trimNamePadding(Uint8Array.of(0x61, 0xb0, 0xcd, 0x00, 0x00, 0x00, 0x00, 0x00));
    expect(hex(syllable)).toBe('61b0cd');
    expect(decodeName(syllable).cp949).toBe(true);
  });

  for (const cipher of ['xor', 'xtea'] as const) {
    it(`${cipher}: a Korean name survives the archive, stored with \\ and listed with /`, async () => {
      const files = [{ path: '그림/팡야 캐릭터/얼굴.bmp', bytes: new Uint8Array(100).fill(3) }];
      const archive = await pangyaEngine.open(new MemorySource(await buildArchive({ cipher }, files)));
      expect(archive.entries.map((e) => e.path)).toEqual(['그림', '그림/팡야 캐릭터', '그림/팡야 캐릭터/얼굴.bmp']);
      expect((archive.entries[2] as PangyaEntry).name).toBe('그림\\팡야 캐릭터\\얼굴.bmp');
      expect([...(await archive.read(archive.entries[2]!))]).toEqual([...files[0]!.bytes]);
    });
  }

  it('the writer refuses a name CP949 cannot store, naming it, before writing data', async () => {
    const err = await buildArchive({}, [
      { path: 'ok.txt', bytes: new Uint8Array(1) },
      { path: 'bad😀.txt', bytes: new Uint8Array(1) },
    ]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).message).toBe('bad😀.txt: the name has characters CP949 cannot store');
  });

  it('the writer refuses names longer than the entry can hold', async () => {
    const long = `${'a'.repeat(250)}.txt`;
    await expect(buildArchive({ cipher: 'xor' }, [{ path: long, bytes: new Uint8Array(1) }])).resolves.toBeInstanceOf(Uint8Array);
    await expect(buildArchive({ cipher: 'xor' }, [{ path: `${long}xx`, bytes: new Uint8Array(1) }])).rejects.toThrow(
      /takes 256 bytes, Pangya allows at most 255/,
    );
    await expect(buildArchive({ cipher: 'xtea' }, [{ path: long, bytes: new Uint8Array(1) }])).rejects.toThrow(
      /takes 254 bytes, Pangya allows at most 248/,
    );
  });
});
