import { describe, expect, it } from 'vitest';
import { lz77Decode, LZ77X_PAD } from '../../../../electron/formats/pangya/lz77.js';
import { lz77Encode } from '../../../../electron/formats/pangya/lz77-encode.js';
import { FormatError } from '../../../../shared/errors.js';
import { withAllocationLimit } from '../../../helpers/fuzz.js';
import { prng } from '../../../helpers/prng.js';
import { fixtureFiles } from './fixtures.js';

const ascii = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
/** The pads exactly as formats.md lists them, kept apart from the codec's own table. */
const SPEC_PAD = [0xff21, 0x834f, 0x675f, 0x0034, 0xf237, 0x815f, 0x4765, 0x0233];

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof FormatError) return `${err.code}: ${err.message}`;
    throw err;
  }
  return 'no error';
}

/** Walk an encoded stream's tokens (types 1 and 3) and return its matches, to check encoder invariants. */
function matchesOf(stream: Uint8Array, type: 1 | 3): { distance: number; length: number }[] {
  const out: { distance: number; length: number }[] = [];
  let ip = 0;
  while (ip < stream.length) {
    const raw = stream[ip++]!;
    const flags = type === 3 ? raw ^ 0xc8 : raw;
    const pad = type === 3 ? SPEC_PAD[(raw >> 3) & 7]! : 0;
    for (let bit = 0; bit < 8 && ip < stream.length; bit++) {
      if (flags & (1 << bit)) {
        const v = (stream[ip]! | (stream[ip + 1]! << 8)) ^ pad;
        out.push({ distance: v & 0xfff, length: (v >> 12) + 2 });
        ip += 2;
      } else ip++;
    }
  }
  return out;
}

describe('Pangya LZ77 decoding, hand-built streams', () => {
  it('type 1: flag bits LSB first, an overlapping match copied byte by byte', () => {
    // flags 0x08: a, b, c literals, then match v=0x4003 (distance 3, length 6), then literal X.
    const stream = Uint8Array.of(0x08, 0x61, 0x62, 0x63, 0x03, 0x40, 0x58);
    expect(text(lz77Decode(stream, 10, 1))).toBe('abcabcabcX');
  });

  it('type 3: flags are raw ^ 0xC8 and the match word is XORed with PAD[(raw >> 3) & 7]', () => {
    // Same tokens: effective 0x08 → raw 0xC0 → pad index 0 (0xFF21); 0x4003 ^ 0xFF21 = 0xBF22.
    const stream = Uint8Array.of(0xc0, 0x61, 0x62, 0x63, 0x22, 0xbf, 0x58);
    expect(text(lz77Decode(stream, 10, 3))).toBe('abcabcabcX');
    // Read as type 1 the same bytes mean something else entirely.
    expect(codeOf(() => lz77Decode(stream, 10, 1))).toMatch(/^bad-stream|^size-mismatch/);
  });

  it('type 3: two groups, the second with pad index 1', () => {
    // Group 1: raw 0xC8 = effective 0, eight literals. Group 2: effective 0x01 → raw 0xC9 → pad 0x834F;
    // match distance 8 length 8 = 0x6008, stored 0x6008 ^ 0x834F = 0xE347.
    const stream = Uint8Array.of(0xc8, ...ascii('ABCDEFGH'), 0xc9, 0x47, 0xe3);
    expect(text(lz77Decode(stream, 16, 3))).toBe('ABCDEFGHABCDEFGH');
  });

  it('type 3: every one of the eight pads, each picked by its raw flag byte', () => {
    for (let k = 0; k < 8; k++) {
      const raw = (k << 3) | 0x01 | 0x80;
      const effective = raw ^ 0xc8;
      const stream: number[] = [0xc8, ...ascii('01234567')];
      const expected = [...ascii('01234567')];
      stream.push(raw);
      for (let bit = 0; bit < 8; bit++) {
        if (effective & (1 << bit)) {
          // Match: distance 8, length 2, obfuscated with this group's pad.
          const v = ((2 - 2) << 12) | 8;
          const w = v ^ SPEC_PAD[k]!;
          stream.push(w & 0xff, w >> 8);
          expected.push(expected[expected.length - 8]!, expected[expected.length - 7]!);
        } else {
          stream.push(0x61 + bit);
          expected.push(0x61 + bit);
        }
      }
      expect([...lz77Decode(Uint8Array.from(stream), expected.length, 3)], `pad ${k}`).toEqual(expected);
    }
    expect([...LZ77X_PAD]).toEqual(SPEC_PAD);
  });

  it('long streams (whole groups decoded without per-token bound checks) behave the same', () => {
    // Outputs past 136 bytes take the whole-group path. Group 1: literal a, seven matches distance 1
    // length 17 (overlapping runs, v = 0xF001); group 2: eight such matches; group 3: eight literals.
    const run = [0x01, 0xf0];
    const stream = Uint8Array.of(0xfe, 0x61, ...Array(7).fill(run).flat(), 0xff, ...Array(8).fill(run).flat(), 0x00, ...ascii('12345678'));
    expect(text(lz77Decode(stream, 1 + 7 * 17 + 8 * 17 + 8, 1))).toBe(`${'a'.repeat(256)}12345678`);
    // The same shape with a match reaching before the start, followed by enough bytes for a whole group.
    const bad = Uint8Array.of(0x00, ...ascii('ABCDEFGH'), 0x01, 0x09, 0x00, ...ascii('ijklmnopqrstuvwxyz'));
    expect(codeOf(() => lz77Decode(bad, 200, 1))).toMatch(/^bad-stream: .*match at output 8 reaches back 9 bytes, before the start/);
  });

  it('accepts a trailing flag byte with no tokens after it', () => {
    expect(text(lz77Decode(Uint8Array.of(0x00, 0x61, 0x62), 2, 1))).toBe('ab');
    expect(text(lz77Decode(Uint8Array.of(0x00, 0x61, 0x62, 0x61, 0x62, 0x61, 0x62, 0x61, 0x62, 0xff), 8, 1))).toBe('abababab');
  });
});

describe('Pangya LZ77 decoding, corrupt streams', () => {
  it('a match before the start of the output', () => {
    expect(codeOf(() => lz77Decode(Uint8Array.of(0x01, 0x01, 0x00), 2, 1))).toMatch(
      /^bad-stream: .*reaches back 1 bytes, before the start/,
    );
  });
  it('a zero distance', () => {
    expect(codeOf(() => lz77Decode(Uint8Array.of(0x02, 0x61, 0x00, 0x00), 3, 1))).toMatch(/^bad-stream: .*reaches back 0 bytes/);
  });
  it('a match cut short by the end of the stream', () => {
    expect(codeOf(() => lz77Decode(Uint8Array.of(0x02, 0x61, 0x01), 3, 1))).toMatch(/^bad-stream: .*cut short/);
  });
  it('more output than declared', () => {
    expect(codeOf(() => lz77Decode(Uint8Array.of(0x08, 0x61, 0x62, 0x63, 0x03, 0x40, 0x58), 8, 1))).toMatch(
      /^bad-stream: .*runs past the declared 8/,
    );
    expect(codeOf(() => lz77Decode(Uint8Array.of(0x00, 0x61, 0x62, 0x63), 2, 1))).toMatch(/^bad-stream: .*more data than the declared 2/);
  });
  it('less output than declared', () => {
    expect(codeOf(() => lz77Decode(Uint8Array.of(0x00, 0x61, 0x62), 3, 1))).toMatch(
      /^size-mismatch: .*decodes to 2 bytes, the entry declares 3/,
    );
  });
  it('a declared size no stream of that length can reach, refused before allocating it', async () => {
    const message = await withAllocationLimit(1 << 20, async () => codeOf(() => lz77Decode(new Uint8Array(10), 0xfffffff0, 1)));
    expect(message).toMatch(/^size-mismatch: .*4294967280 bytes cannot come from 10 packed bytes/);
    // Up to 8x the packed size is plausible and gets as far as decoding.
    expect(codeOf(() => lz77Decode(new Uint8Array(10), 80, 1))).not.toMatch(/cannot come from/);
  });
});

describe('Pangya LZ77 encoding', () => {
  const rand = prng(11);
  const inputs: [string, Uint8Array][] = [
    ['empty', new Uint8Array(0)],
    ['one byte', Uint8Array.of(7)],
    ['zeros 4096', new Uint8Array(4096)],
    ['zeros 70000', new Uint8Array(70000)],
    ['noise 5000', Uint8Array.from({ length: 5000 }, () => (rand() * 256) | 0)],
    ['period 5000 (beyond the window)', Uint8Array.from({ length: 20000 }, (_, i) => ((i % 5000) * 7919) % 251)],
    ...fixtureFiles().map((f) => [f.path, f.bytes] as [string, Uint8Array]),
  ];

  for (const type of [1, 3] as const) {
    it(`type ${type}: decode(encode(x)) = x, no match longer than its distance or beyond 4095`, () => {
      for (const [label, input] of inputs) {
        const packed = lz77Encode(input, type);
        expect(Buffer.from(lz77Decode(packed, input.length, type)).equals(Buffer.from(input)), label).toBe(true);
        for (const m of matchesOf(packed, type)) {
          expect(m.length, label).toBeLessThanOrEqual(m.distance);
          expect(m.distance, label).toBeGreaterThanOrEqual(1);
          expect(m.distance, label).toBeLessThanOrEqual(4095);
        }
      }
    });
  }

  it('compresses runs and text, and never grows input by more than one flag byte per eight', () => {
    const zeros = lz77Encode(new Uint8Array(4096), 1);
    // Without overlap a run doubles its match length: 1, 1, 2, 4, 8, 16, then 17-byte matches.
    expect(zeros.length).toBeLessThan(600);
    const noise = inputs.find(([l]) => l === 'noise 5000')![1];
    expect(lz77Encode(noise, 3).length).toBeLessThanOrEqual(noise.length + Math.ceil(noise.length / 8));
  });

  it('type 3 output differs from type 1 output for the same tokens', () => {
    const input = fixtureFiles()[0]!.bytes;
    const one = lz77Encode(input, 1);
    const three = lz77Encode(input, 3);
    expect(three.length).toBe(one.length);
    expect(Buffer.from(three).equals(Buffer.from(one))).toBe(false);
    expect(matchesOf(three, 3)).toEqual(matchesOf(one, 1));
  });
});
