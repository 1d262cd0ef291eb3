import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { positionCipherInPlace, positionCipherInto } from '../../../../electron/formats/hpi/cipher.js';
import { BlockNames, readName } from '../../../../electron/formats/hpi/names.js';
import { readV1Directory } from '../../../../electron/formats/hpi/v1-directory.js';
import { openArchive } from '../../../../electron/formats/index.js';
import { FormatError } from '../../../../shared/errors.js';
import { samplesDir } from '../../../helpers/run-cli.js';
import { openBytes, packFile, packToBytes, sampleBytes, sameBytes } from './fixtures.js';

/** Windows-1252's 0x80–0x9F, from the code page's published table (the five undefined bytes stay C1). */
const HIGH_1252 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const cp1252 = (bytes: Iterable<number>) =>
  Array.from(bytes, (b) => (b >= 0x80 && b < 0xa0 ? HIGH_1252[b - 0x80]! : String.fromCharCode(b))).join('');

/** The outcome of a name read: the name, or the FormatError's code and message. */
function outcome(read: () => string): string {
  try {
    return `name ${JSON.stringify(read())}`;
  } catch (err) {
    if (!(err instanceof FormatError)) throw err;
    return `${err.code}: ${err.message}`;
  }
}

describe('names read from a decoded directory block', () => {
  // Every byte value 1–255 in names of every length up to past the limit, with and without a NUL.
  const block = new Uint8Array(2000);
  for (let i = 0; i < block.length; i++) block[i] = 1 + ((i * 37) % 255);
  for (let i = 0; i < block.length; i += 1 + (i % 300)) block[i] = 0;
  block.fill(0x41, 1500, 1800); // one run of 300 non-NUL bytes: longer than the 255-byte limit

  it('gives the names of the Windows-1252 definition, and readName’s answers and errors, at every offset', () => {
    const names = new BlockNames(block);
    const got: string[] = [];
    const want: string[] = [];
    const defined: string[] = [];
    for (const end of [block.length, 1000]) {
      for (let at = -2; at <= end + 1; at++) {
        const answer = outcome(() => names.read(at, end, 'entry at', at + 20));
        got.push(answer);
        want.push(outcome(() => readName(block, at, end, 'entry at', at + 20)));
        if (answer.startsWith('name ')) defined.push(`name ${JSON.stringify(cp1252(block.subarray(at, block.indexOf(0, at))))}`);
      }
    }
    expect(got).toEqual(want);
    expect(got.filter((a) => a.startsWith('name '))).toEqual(defined);
    expect(defined.filter((n) => /[€ŸŽ‚]/.test(n)).length).toBeGreaterThan(10);
    expect(outcome(() => names.read(1500, block.length, 'entry at'))).toMatch(/^bad-name: .*longer than 255 bytes/);
    expect(outcome(() => names.read(1.5, block.length, 'entry at'))).toMatch(/^out-of-bounds: /);
  });

  it('a v1 archive of names with every Windows-1252 character reads back the same paths', async () => {
    const chars = [...HIGH_1252.replace(/[\u0081\u008d\u008f\u0090\u009d]/g, ''), 'é', 'ÿ', '~', ' '];
    const paths = chars.map((c, i) => `dir${c}/${c}name${i}${c}.txt`);
    const archive = await openBytes(
      await packToBytes(
        paths.map((p, i) => packFile(p, sampleBytes(i, 10))),
        { key: 0x7d },
      ),
    );
    expect(archive.entries.filter((e) => !e.dir).map((e) => e.path)).toEqual(paths);
    await archive.close();
  });

  it('the real samples list the paths their own directory bytes spell (decoded here byte by byte)', async () => {
    for (const name of ['ArmBani.ufo', 'ta3d.hpi']) {
      const path = join(samplesDir, 'hpi', name);
      const bytes = new Uint8Array(await readFile(path));
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      const end = view.getUint32(8, true);
      const headerKey = view.getUint32(12, true);
      const start = view.getUint32(16, true);
      const k = ((headerKey << 2) | (headerKey >>> 6)) & 0xff;
      const plain = bytes.slice(start, end).map((b, i) => (headerKey === 0 ? b : b ^ ((start + i) & 0xff) ^ k));
      const expected: string[] = [];
      const d = new DataView(plain.buffer);
      const walk = (dirAt: number, prefix: string) => {
        const count = d.getUint32(dirAt - start, true);
        const first = d.getUint32(dirAt - start + 4, true);
        for (let i = 0; i < count; i++) {
          const at = first + i * 9 - start;
          const nameAt = d.getUint32(at, true) - start;
          const full = prefix + cp1252(plain.subarray(nameAt, plain.indexOf(0, nameAt)));
          expected.push(full);
          if (plain[at + 8] !== 0) walk(d.getUint32(at + 4, true), `${full}/`);
        }
      };
      walk(start, '');
      const archive = await openArchive(path);
      expect(archive.entries.map((e) => e.path)).toEqual(expected);
      expect(readV1Directory(plain, start, end, bytes.length).map((e) => e.path)).toEqual(expected);
      await archive.close();
    }
  });
});

describe('positionCipherInto and positionCipherInPlace (in WebAssembly for long buffers)', () => {
  const source = sampleBytes(11, 70_000, 'noise');
  it('gives the bytes of the byte-by-byte definition at every length, offset, key and alignment', () => {
    for (const length of [0, 1, 255, 256, 257, 259, 1024, 1027, 65_555])
      for (const from of [0, 1, 3])
        for (const key of [0, 1, 0x9a, 0xff])
          for (const outOffset of [0, 1, 4]) {
            const raw = source.subarray(from, from + length);
            const filePos = 20 + from * 131 + length;
            const want = raw.map((b, i) => b ^ ((filePos + i) & 0xff) ^ key);
            const out = positionCipherInto(raw, filePos, key, new Uint8Array(length + 8).subarray(outOffset));
            const label = `length ${length}, from ${from}, key ${key}, out at ${outOffset}`;
            expect(out.length, label).toBe(length);
            expect(sameBytes(out, want), label).toBe('same');
            const inPlace = new Uint8Array(length + 8).subarray(outOffset, outOffset + length);
            inPlace.set(raw);
            positionCipherInPlace(inPlace, filePos, key);
            expect(sameBytes(inPlace, want), `${label}, in place`).toBe('same');
          }
  });
});
