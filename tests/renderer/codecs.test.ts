// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { decodePcx, readPcxHeader } from '../../shared/assets/pcx';
import { parseWavHeader } from '../../shared/assets/wav';
import { tokenizeTdf } from '../../shared/tdf/tokens';
import { FormatError } from '../../shared/errors';
import { encodePcx24, encodePcx8, encodeWav, testPalette } from './pcx-fixture';

function pixel(rgba: Uint8Array, width: number, x: number, y: number): number[] {
  const o = (y * width + x) * 4;
  return Array.from(rgba.subarray(o, o + 4));
}

describe('PCX decoder', () => {
  it('decodes an 8-bit paletted RLE image through its palette', () => {
    // 5 wide (odd: the line is padded to 6), 3 high; a long run and literals ≥ 0xC0 that need escaping.
    const pixels = new Uint8Array([1, 1, 1, 1, 1, 2, 0xc5, 0xff, 0, 2, 9, 9, 9, 9, 9]);
    const image = decodePcx(encodePcx8(5, 3, pixels, testPalette()));
    expect([image.width, image.height]).toEqual([5, 3]);
    expect(image.rgba.length).toBe(5 * 3 * 4);
    expect(pixel(image.rgba, 5, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(pixel(image.rgba, 5, 0, 1)).toEqual([0, 255, 0, 255]);
    expect(pixel(image.rgba, 5, 1, 1)).toEqual([0xc5, 0xc5, 0xc5, 255]);
    expect(pixel(image.rgba, 5, 2, 1)).toEqual([0xff, 0xff, 0xff, 255]);
    expect(pixel(image.rgba, 5, 4, 2)).toEqual([9, 9, 9, 255]);
  });

  it('decodes an uncompressed (encoding 0) 8-bit image', () => {
    const image = decodePcx(encodePcx8(2, 2, new Uint8Array([1, 2, 2, 1]), testPalette(), { encoding: 0 }));
    expect(pixel(image.rgba, 2, 1, 0)).toEqual([0, 255, 0, 255]);
    expect(pixel(image.rgba, 2, 1, 1)).toEqual([255, 0, 0, 255]);
  });

  it('decodes a 24-bit image (three planes per scanline)', () => {
    const rgb = new Uint8Array([10, 20, 30, 40, 50, 60, 70, 80, 90, 200, 201, 202, 1, 2, 3, 255, 255, 255]);
    const image = decodePcx(encodePcx24(3, 2, rgb));
    expect(pixel(image.rgba, 3, 0, 0)).toEqual([10, 20, 30, 255]);
    expect(pixel(image.rgba, 3, 2, 0)).toEqual([70, 80, 90, 255]);
    expect(pixel(image.rgba, 3, 0, 1)).toEqual([200, 201, 202, 255]);
    expect(pixel(image.rgba, 3, 2, 1)).toEqual([255, 255, 255, 255]);
  });

  it('decodes a run that crosses a scanline end', () => {
    const file = encodePcx8(2, 2, new Uint8Array([7, 7, 7, 7]), testPalette());
    // Re-encode the pixel data as one run of 4 across both lines.
    const crafted = new Uint8Array([...file.subarray(0, 128), 0xc4, 7, 0x0c, ...testPalette()]);
    const image = decodePcx(crafted);
    expect(pixel(image.rgba, 2, 1, 1)).toEqual([7, 7, 7, 255]);
  });

  it('reads the header window', () => {
    expect(readPcxHeader(encodePcx8(5, 3, new Uint8Array(15), testPalette()))).toMatchObject({
      width: 5,
      height: 3,
      planes: 1,
      bytesPerLine: 6,
    });
  });

  const bad: [string, () => Uint8Array, RegExp][] = [
    ['a short header', () => new Uint8Array(40), /needs 128 bytes, file has 40/],
    [
      'a wrong first byte',
      () => {
        const f = encodePcx8(2, 2, new Uint8Array(4), testPalette());
        f[0] = 0x42;
        return f;
      },
      /first byte is 0x42/,
    ],
    [
      'no palette marker',
      () => {
        const f = encodePcx8(2, 2, new Uint8Array(4), testPalette());
        f[f.length - 769] = 0;
        return f;
      },
      /no 256-colour palette/,
    ],
    [
      'RLE data cut short',
      () => {
        const f = encodePcx8(
          40,
          40,
          new Uint8Array(1600).map((_, i) => i & 0x3f),
          testPalette(),
        );
        return new Uint8Array([...f.subarray(0, 200), 0x0c, ...testPalette()]);
      },
      /RLE data ends at byte/,
    ],
    [
      'a huge declared size',
      () => {
        const f = encodePcx8(2, 2, new Uint8Array(4), testPalette());
        f[8] = 0xff;
        f[9] = 0x3f;
        f[10] = 0xff;
        f[11] = 0x0f;
        f[66] = 0x00;
        f[67] = 0x40;
        return f;
      },
      /larger than|more than .* bytes of RLE data/,
    ],
    [
      'an inverted window',
      () => {
        const f = encodePcx8(2, 2, new Uint8Array(4), testPalette());
        f[4] = 9;
        return f;
      },
      /window is inverted/,
    ],
    [
      '3-bit pixels',
      () => {
        const f = encodePcx8(2, 2, new Uint8Array(4), testPalette());
        f[3] = 3;
        return f;
      },
      /3 bits per pixel .* not supported/,
    ],
    [
      'bytes per line below width',
      () => {
        const f = encodePcx8(4, 2, new Uint8Array(8), testPalette());
        f[66] = 2;
        return f;
      },
      /bytes per line 2 < width 4/,
    ],
  ];
  for (const [what, make, message] of bad) {
    it(`refuses ${what} with a FormatError`, () => {
      const bytes = make();
      expect(() => decodePcx(bytes)).toThrow(FormatError);
      expect(() => decodePcx(bytes)).toThrow(message);
    });
  }
});

describe('WAV header', () => {
  it('reads format, channels, rate and duration', () => {
    const info = parseWavHeader(encodeWav(22050, 22050, 1, 16));
    expect(info).toMatchObject({ format: 1, formatName: 'PCM', channels: 1, sampleRate: 22050, bitsPerSample: 16, dataBytes: 44100 });
    expect(info.durationSeconds).toBeCloseTo(1, 5);
  });

  it('skips unknown chunks, odd-sized ones with their pad byte', () => {
    const plain = encodeWav(100, 11025, 2, 8);
    const extra = new Uint8Array([...'LIST'].map((c) => c.charCodeAt(0)).concat([3, 0, 0, 0, 1, 2, 3, 0]));
    const withList = new Uint8Array([...plain.subarray(0, 36), ...extra, ...plain.subarray(36)]);
    expect(parseWavHeader(withList)).toMatchObject({ channels: 2, sampleRate: 11025, dataBytes: 200 });
  });

  it('refuses non-WAV and truncated headers', () => {
    expect(() => parseWavHeader(new TextEncoder().encode('RIFF0000AVI LIST'))).toThrow(/no RIFF\/WAVE signature/);
    expect(() => parseWavHeader(encodeWav(10).subarray(0, 30))).toThrow(/fmt chunk at byte 12 is 16 bytes/);
    expect(() => parseWavHeader(encodeWav(10).subarray(0, 36))).toThrow(/no data chunk/);
    expect(() => parseWavHeader(new Uint8Array(4))).toThrow(/needs 12 bytes/);
  });
});

describe('TDF tokens', () => {
  it('splits sections, keys, values and comments', () => {
    const lines = tokenizeTdf('[UNITINFO]\r\n{\n\tMaxDamage = 5000; // hp\n/* a\nb */ Name=Commander;\n}');
    const kinds = (n: number) => lines[n]!.filter((t) => t.kind !== 'text').map((t) => `${t.kind}:${t.text}`);
    expect(kinds(0)).toEqual(['section:[UNITINFO]']);
    expect(kinds(1)).toEqual(['brace:{']);
    expect(kinds(2)).toEqual(['key:MaxDamage', 'punct: = ', 'value:5000', 'punct:;', 'comment:// hp']);
    expect(kinds(3)).toEqual(['comment:/*', 'comment: a']);
    expect(kinds(4)).toEqual(['comment:b */', 'key:Name', 'punct:=', 'value:Commander', 'punct:;']);
    // Nothing is lost: the tokens put back together are the text.
    expect(lines.map((l) => l.map((t) => t.text).join('')).join('\n')).toBe(
      '[UNITINFO]\n{\n\tMaxDamage = 5000; // hp\n/* a\nb */ Name=Commander;\n}',
    );
  });

  it('keeps unrecognised text as text', () => {
    const lines = tokenizeTdf('garbage ] here');
    expect(lines[0]!.map((t) => t.text).join('')).toBe('garbage ] here');
    expect(lines[0]!.every((t) => t.kind === 'text')).toBe(true);
  });
});
