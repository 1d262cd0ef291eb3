import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exerciseArchive, fuzzArchive, mutations } from '../../../helpers/fuzz.js';
import { runCli } from '../../../helpers/run-cli.js';
import { MemorySink } from '../../../../electron/io/byte-sink.js';
import { writeHpiV1 } from '../../../../electron/formats/hpi/v1-writer.js';
import { FormatError } from '../../../../shared/errors.js';
import { hpiEngine } from '../../../../electron/formats/hpi/index.js';
import { MemorySource } from '../../../../electron/io/byte-source.js';
import { packFile, packToBytes, sampleBytes } from './fixtures.js';

/** A v1 archive mixing the three storage kinds, enciphered: stored, LZ77 (two chunks) and zlib files. */
async function mixedV1(): Promise<Uint8Array> {
  const files = [
    packFile('units/ARMCOM.FBI', sampleBytes(1, 900)),
    packFile('anims/big.gaf', sampleBytes(2, 70_000, 'runs')),
    packFile('sounds/a.wav', sampleBytes(3, 1200, 'noise')),
    packFile('features/corpses/x.tdf', sampleBytes(4, 500)),
    packFile('empty.txt', new Uint8Array(0)),
  ];
  const methods: Record<string, 0 | 1 | 2> = {
    'units/ARMCOM.FBI': 1,
    'anims/big.gaf': 1,
    'sounds/a.wav': 0,
    'features/corpses/x.tdf': 2,
    'empty.txt': 2,
  };
  const sink = new MemorySink();
  await writeHpiV1(files, sink, { key: 0x7d }, { methodOf: (f) => methods[f.path]! });
  return sink.toBytes();
}

async function v2Archive(): Promise<Uint8Array> {
  const files = Array.from({ length: 40 }, (_, i) => packFile(`dir${i % 4}/sub/file${i}.txt`, sampleBytes(i, 300 + i * 20)));
  files.push(packFile('maps/big.tnt', sampleBytes(99, 70_000, 'runs')), packFile('noise.bin', sampleBytes(98, 500, 'noise')));
  return packToBytes(files, { version: 2 });
}

describe('HPI fuzzing', () => {
  it('v1 (stored + LZ77 + zlib, enciphered): 400 mutants end in success or a FormatError', async () => {
    const original = await mixedV1();
    const archive = await hpiEngine.open(new MemorySource(original));
    expect(archive.entries.filter((e) => !e.dir).map((e) => e.method)).toEqual(['lz77', 'lz77', 'stored', 'zlib', 'zlib']);
    await exerciseArchive(original);
    const outcome = await fuzzArchive(original, { count: 400, seed: 7 });
    expect(outcome.ok + outcome.rejected).toBe(400);
    expect(outcome.rejected).toBeGreaterThan(100);
  });

  it('v2 (compressed blocks, multi-chunk payloads): 400 mutants end in success or a FormatError', async () => {
    const original = await v2Archive();
    await exerciseArchive(original);
    const outcome = await fuzzArchive(original, { count: 400, seed: 8 });
    expect(outcome.ok + outcome.rejected).toBe(400);
    expect(outcome.rejected).toBeGreaterThan(100);
  });

  it('through the CLI, a corrupt archive exits 1 with one "modpak: FILE: ..." line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hpi-fuzz-'));
    try {
      let checked = 0;
      for (const [name, original] of [
        ['v1.ufo', await mixedV1()],
        ['v2.hpi', await v2Archive()],
      ] as const) {
        for (const m of mutations(original, 60, 11)) {
          const failure = await exerciseArchive(m.bytes).then(
            () => null,
            (err: unknown) => err,
          );
          if (!(failure instanceof FormatError)) continue;
          const file = join(dir, name);
          await writeFile(file, m.bytes);
          const r = await runCli(['extract', file, '-t', join(dir, 'out')]);
          expect(r.code, m.label).toBe(1);
          const lines = r.stderr
            .trim()
            .split('\n')
            .filter((l) => !l.startsWith('modpak: warning:'));
          expect(lines, m.label).toHaveLength(1);
          expect(lines[0]!.startsWith(`modpak: ${file}: `), lines[0]).toBe(true);
          if (++checked % 8 === 0) break;
        }
      }
      expect(checked).toBe(16);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
