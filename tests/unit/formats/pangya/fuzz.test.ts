import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzArchive } from '../../../helpers/fuzz.js';
import { runCli } from '../../../helpers/run-cli.js';
import { MemorySource } from '../../../../electron/io/byte-source.js';
import { pangyaEngine } from '../../../../electron/formats/pangya/index.js';
import type { PangyaEntry } from '../../../../electron/formats/pangya/table.js';
import { buildArchive } from './fixtures.js';

describe('Pangya fuzz: every mutant opens and reads, or fails with a FormatError', () => {
  const cases = [
    { label: 'XOR, LZ77 type 1', options: { cipher: 'xor' as const, method: 'lz77' as const } },
    { label: 'XTEA kr, LZ77 type 3', options: { cipher: 'xtea' as const, region: 'kr' as const, method: 'lz77x' as const } },
    { label: 'XTEA jp, stored', options: { cipher: 'xtea' as const, region: 'jp' as const, method: 'none' as const } },
  ];
  for (const { label, options } of cases) {
    it(`${label}: 400 mutants`, async () => {
      const original = await buildArchive(options);
      const outcome = await fuzzArchive(original, { count: 400, seed: 17 });
      expect(outcome.ok + outcome.rejected).toBe(400);
      // Both outcomes must occur: mutants that land in data read fine or fail, tables and trailers fail.
      expect(outcome.rejected).toBeGreaterThan(50);
      expect(outcome.ok).toBeGreaterThan(0);
    });
  }
});

describe('Pangya corrupt archives through the CLI: exit 1 and one line naming the file', () => {
  let dir: string;
  let xor: Uint8Array;
  let xtea: Uint8Array;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pangya-bad-'));
    xor = await buildArchive({ cipher: 'xor', method: 'lz77' });
    xtea = await buildArchive({ cipher: 'xtea', region: 'th', method: 'lz77x' });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function expectOneLine(args: string[], file: string, pattern: RegExp): Promise<void> {
    const run = await runCli(args);
    expect(run.code, run.stderr).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines.length, run.stderr).toBe(1);
    expect(lines[0]!.startsWith(`modpak: ${file}: `), lines[0]).toBe(true);
    expect(lines[0]).toMatch(pattern);
  }

  async function mutant(name: string, bytes: Uint8Array): Promise<string> {
    const file = join(dir, name);
    await writeFile(file, bytes);
    return file;
  }

  const setU32 = (bytes: Uint8Array, at: number, value: number) => {
    const copy = bytes.slice();
    new DataView(copy.buffer).setUint32(at, value, true);
    return copy;
  };

  it('a huge entry count', async () => {
    for (const [name, bytes] of [
      ['count-xor.pak', xor],
      ['count-xtea.pak', xtea],
    ] as const) {
      const file = await mutant(name, setU32(bytes, bytes.length - 5, 0x7fffffff));
      await expectOneLine(['list', file], file, /not a recognised archive/);
    }
  });

  it('a table offset past the end, opened as Pangya by content', async () => {
    const file = await mutant('offset.pak', setU32(xtea, xtea.length - 9, 0xfffffff0));
    await expectOneLine(['info', file], file, /not a recognised archive/);
  });

  it('a truncated file', async () => {
    const file = await mutant('cut.pak', xor.subarray(0, xor.length - 3));
    await expectOneLine(['extract', file, '--target', join(dir, 'cut-out')], file, /not a recognised archive/);
  });

  it('a corrupt LZ77 stream: extract, cat and verify name the entry', async () => {
    for (const [name, bytes, first] of [
      ['lz-xor.pak', xor, 0x01],
      ['lz-xtea.pak', xtea, 0x01 ^ 0xc8],
    ] as const) {
      const archive = await pangyaEngine.open(new MemorySource(bytes));
      const readme = archive.entries.find((e) => e.path === 'data/readme.txt') as PangyaEntry;
      const broken = bytes.slice();
      // The stream now opens with a match, which can only reach back before the start.
      broken[readme.offset] = first;
      const file = await mutant(name, broken);
      await expectOneLine(
        ['extract', file, '--target', join(dir, `${name}-out`)],
        file,
        /data\/readme\.txt: LZ77 stream: match at output 0 .* before the start/,
      );
      await expectOneLine(['cat', file, 'data/readme.txt'], file, /data\/readme\.txt: LZ77 stream/);
      await expectOneLine(['verify', file], file, /1 of \d+ files failed to verify/);
    }
  });
});
