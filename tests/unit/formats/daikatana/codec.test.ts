import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dkDecompress } from '../../../../electron/formats/daikatana/codec.js';
import { dkCompress } from '../../../../electron/formats/daikatana/encode.js';
import { FormatError } from '../../../../shared/errors.js';
import { prng } from '../../../helpers/prng.js';
import { samplesDir } from '../../../helpers/run-cli.js';
import { dkOps } from './dk-ops.js';

const bytes = (...b: number[]) => Uint8Array.from(b);
const text = (s: string) => new TextEncoder().encode(s);

function streamError(src: Uint8Array, length: number): FormatError {
  try {
    dkDecompress(src, length);
  } catch (err) {
    if (err instanceof FormatError) return err;
    throw err;
  }
  throw new Error('expected a FormatError');
}

describe('dkDecompress: every opcode', () => {
  it('copies x+1 literal bytes for 0x00..0x3F', () => {
    expect(dkDecompress(bytes(0x02, 0x61, 0x62, 0x63, 0xff), 3)).toEqual(text('abc'));
    const lit64 = Uint8Array.from({ length: 64 }, (_, i) => i + 1);
    expect(dkDecompress(bytes(0x3f, ...lit64, 0xff), 64)).toEqual(lit64);
  });

  it('writes x−62 zeros for 0x40..0x7F', () => {
    expect(dkDecompress(bytes(0x40, 0xff), 2)).toEqual(new Uint8Array(2));
    expect(dkDecompress(bytes(0x00, 0x07, 0x7f, 0xff), 66)).toEqual(bytes(7, ...new Uint8Array(65)));
  });

  it('repeats the next byte x−126 times for 0x80..0xBF', () => {
    expect(dkDecompress(bytes(0x80, 0x41, 0xff), 2)).toEqual(text('AA'));
    expect(dkDecompress(bytes(0xbf, 0x5a, 0xff), 65)).toEqual(new Uint8Array(65).fill(0x5a));
  });

  it('copies x−190 bytes from d+2 back for 0xC0..0xFD, byte by byte so an overlap repeats the pattern', () => {
    // "ab", then 6 bytes from 2 back: the source overlaps what is being written.
    expect(new TextDecoder().decode(dkDecompress(bytes(0x01, 0x61, 0x62, 0xc4, 0x00, 0xff), 8))).toBe('abababab');
    // The longest copy (63) from the farthest distance (257).
    const prefix = Uint8Array.from({ length: 257 }, (_, i) => i & 0xff);
    const src = [
      0x3f,
      ...prefix.subarray(0, 64),
      0x3f,
      ...prefix.subarray(64, 128),
      0x3f,
      ...prefix.subarray(128, 192),
      0x3f,
      ...prefix.subarray(192, 256),
      0x00,
      prefix[256]!,
      0xfd,
      0xff,
      0xff,
    ];
    const out = dkDecompress(Uint8Array.from(src), 257 + 63);
    expect(out.subarray(257)).toEqual(prefix.subarray(0, 63));
  });

  it('treats 0xFE as a one-byte no-op', () => {
    expect(dkDecompress(bytes(0xfe, 0x00, 0x41, 0xfe, 0xfe, 0x80, 0x42, 0xfe, 0xff), 3)).toEqual(text('ABB'));
  });

  it('stops at 0xFF and ignores what follows it', () => {
    expect(dkDecompress(bytes(0x00, 0x41, 0xff, 0x12, 0x34), 1)).toEqual(text('A'));
  });
});

describe('dkDecompress: corrupt streams are FormatErrors with the numbers', () => {
  it('a literal cut off by the end of the data', () => {
    const err = streamError(bytes(0x01, 0xaa), 2);
    expect(err.code).toBe('bad-stream');
    expect(err.message).toMatch(/literal of 2 bytes at 0 is cut off: only 1 bytes follow/);
  });

  it('a back-reference before the start of the output', () => {
    expect(streamError(bytes(0x00, 0x41, 0xc0, 0x00, 0xff), 3).message).toMatch(/reaches 1 bytes before the start/);
    expect(streamError(bytes(0xc0, 0x05, 0xff), 2).message).toMatch(/reaches 7 bytes before the start/);
  });

  it('output past the declared length', () => {
    expect(streamError(bytes(0x7f, 0xff), 10).message).toMatch(/writes 65 bytes at 0, past the declared length 10/);
    expect(streamError(bytes(0x00, 0x41, 0x00, 0x42, 0xff), 1).message).toMatch(/no 0xFF end marker after the declared 1 bytes/);
  });

  it('a missing end marker, an end marker too early, cut-off runs and references', () => {
    expect(streamError(bytes(0x00, 0x41), 1).message).toMatch(/ends without the 0xFF end marker after 1 of 1 bytes/);
    expect(streamError(bytes(), 0).message).toMatch(/without the 0xFF end marker/);
    const early = streamError(bytes(0x00, 0x41, 0xff), 2);
    expect(early.code).toBe('size-mismatch');
    expect(early.message).toMatch(/ends after 1 bytes, the entry declares 2/);
    expect(streamError(bytes(0x80), 2).message).toMatch(/run at 0 is cut off/);
    expect(streamError(bytes(0x01, 0x41, 0x42, 0xc0), 4).message).toMatch(/back-reference at 3 is cut off/);
  });
});

describe('dkCompress', () => {
  const corpus: [string, Uint8Array][] = (() => {
    const rand = prng(7);
    const noise = Uint8Array.from({ length: 5000 }, () => (rand() * 256) | 0);
    const runs = new Uint8Array(20000);
    for (let i = 0; i < runs.length;) {
      const len = 1 + Math.floor(rand() * 90);
      runs.fill(rand() < 0.3 ? 0 : (rand() * 256) | 0, i, i + len);
      i += len;
    }
    const textual = text('[UNITINFO]\r\n{\r\n\tUnitName=ARMCOM;\r\n\tMaxDamage=3000;\r\n}\r\n'.repeat(300));
    const palette = Uint8Array.from({ length: 9000 }, (_, i) => ((i * 7) % 23) + (i % 300 < 150 ? 0 : 100));
    return [
      ['empty', new Uint8Array(0)],
      ['one byte', bytes(9)],
      ['one zero', bytes(0)],
      ['noise', noise],
      ['runs', runs],
      ['text', textual],
      ['palette', palette],
      ['zeros', new Uint8Array(70_000)],
    ];
  })();

  it.each(corpus)('round-trips %s', (_name, data) => {
    const packed = dkCompress(data);
    expect(dkDecompress(packed, data.length)).toEqual(data);
    expect(packed.length).toBeLessThanOrEqual(data.length + Math.ceil(data.length / 64) + 1);
  });

  it('never emits a back-reference longer than its distance, and uses each opcode family', () => {
    const seen = new Set<string>();
    for (const [, data] of corpus) {
      for (const op of dkOps(dkCompress(data))) {
        seen.add(op.kind);
        if (op.kind === 'copy') expect(op.length, `copy at ${op.at}`).toBeLessThanOrEqual(op.distance);
      }
    }
    expect([...seen].sort()).toEqual(['copy', 'end', 'literal', 'run', 'zeros']);
  });

  it('shrinks what compresses: zeros to 1 byte per 65, text well below half', () => {
    expect(dkCompress(new Uint8Array(65 * 100)).length).toBe(101);
    const t = corpus.find(([n]) => n === 'text')![1];
    expect(dkCompress(t).length).toBeLessThan(t.length / 4);
  });

  it('is no larger than the original Ion Storm dkpak.exe streams for the same inputs', () => {
    // dkpak_exe_user.pak holds dkpak.exe's streams for these inputs (sizes from its directory: 30 and 17).
    const pak = new Uint8Array(readFileSync(join(samplesDir, 'pak/daikatana/dkpak_exe_user.pak')));
    const view = new DataView(pak.buffer, pak.byteOffset, pak.length);
    const dirOffset = view.getInt32(4, true);
    const dirLength = view.getInt32(8, true);
    const original = new Map<string, number>();
    for (let at = dirOffset; at < dirOffset + dirLength; at += 72) {
      const name = new TextDecoder().decode(pak.subarray(at, at + 56)).replace(/\0.*$/s, '');
      if (view.getInt32(at + 68, true) === 1) original.set(name.split('/').pop()!, view.getInt32(at + 64, true));
    }
    expect(original).toEqual(
      new Map([
        ['striped.tga', 30],
        ['zeros.bmp', 17],
      ]),
    );
    for (const [name, size] of original) {
      const input = new Uint8Array(readFileSync(join(samplesDir, 'pak/daikatana/dkpak_exe_user_inputs', name)));
      const mine = dkCompress(input);
      expect(dkDecompress(mine, input.length)).toEqual(input);
      expect(mine.length, name).toBeLessThanOrEqual(size);
    }
  });
});
