import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { samplesDir } from '../../helpers/run-cli.js';
import { mutations, prng, withAllocationLimit } from '../../helpers/fuzz.js';
import { FormatError } from '../../../shared/errors.js';
import { compileBos, decompileCob, readCob } from '../../../shared/assets/ta/cob/index.js';

const scriptsDir = join(samplesDir, 'ta', 'scripts');
const samples = ['andaa', 'DEMR', 'anddragon'].map((n) => join(scriptsDir, `${n}.cob`));
samples.push(join(samplesDir, 'ta', 'armimr', 'scripts', 'ARMIMR.cob'));

function expectFormatError(err: unknown, label: string): void {
  if (!(err instanceof FormatError))
    throw new Error(`${label}: threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)} instead of a FormatError`);
}

describe('COB reader and decompiler under fuzzing', () => {
  it.each(samples.map((p) => [p.replace(/^.*\//, ''), p]))(
    '%s: 300 mutants read and decompile or fail with a FormatError',
    async (_, path) => {
      const original = new Uint8Array(readFileSync(path));
      let decompiled = 0;
      let rejected = 0;
      for (const m of mutations(original, 300, 7)) {
        const started = Date.now();
        try {
          await withAllocationLimit(1024 * 1024 + 64 * original.length, async () => {
            const cob = readCob(m.bytes, 'fuzz.cob');
            expect(cob.code.length * 4).toBeLessThanOrEqual(m.bytes.length);
            const bos = decompileCob(m.bytes, 'fuzz.cob');
            decompiled++;
            // What decompiles must parse back, or fail as bad BOS (a mutated name need not be an identifier).
            await compileBos(bos, { file: 'fuzz.bos' }).catch((e: unknown) => expectFormatError(e, `${m.label} recompiling`));
          });
        } catch (err) {
          expectFormatError(err, m.label);
          rejected++;
        }
        expect(Date.now() - started, m.label).toBeLessThan(2000);
      }
      expect(decompiled + rejected).toBe(300);
      expect(decompiled).toBeGreaterThan(20);
      expect(rejected).toBeGreaterThan(20);
    },
  );
});

/** Text mutants of a BOS: cut, duplicate, delete or insert characters, truncate. */
function* textMutations(source: string, count: number, seed: number): Generator<{ label: string; text: string }> {
  const rand = prng(seed);
  const pick = (n: number) => Math.floor(rand() * n);
  const junk = [
    '{',
    '}',
    '(',
    ')',
    ';',
    ',',
    '<',
    '>',
    '[',
    ']',
    '#',
    '#define X X X',
    '#include "x.h"',
    '#if',
    '#endif',
    '"',
    '/*',
    '*/',
    '-',
    '++',
    'if',
    'else',
    'while',
    'return',
    'var',
    'piece',
    'static-var',
    'get',
    '1.5',
    '0x',
    '99999999999',
    '\u00e9',
    '\\\n',
  ];
  for (let i = 0; i < count; i++) {
    const at = pick(source.length);
    const kind = i % 5;
    if (kind === 0) yield { label: `#${i} truncated at ${at}`, text: source.slice(0, at) };
    else if (kind === 1) {
      const len = 1 + pick(20);
      yield { label: `#${i} deleted ${len} at ${at}`, text: source.slice(0, at) + source.slice(at + len) };
    } else if (kind === 2) {
      const j = junk[pick(junk.length)]!;
      yield { label: `#${i} inserted ${JSON.stringify(j)} at ${at}`, text: source.slice(0, at) + j + source.slice(at) };
    } else if (kind === 3) {
      const len = 1 + pick(200);
      yield { label: `#${i} duplicated ${len} at ${at}`, text: source.slice(0, at + len) + source.slice(at) };
    } else {
      const j = junk[pick(junk.length)]!;
      const len = 1 + pick(5);
      yield { label: `#${i} replaced ${len} at ${at} by ${JSON.stringify(j)}`, text: source.slice(0, at) + j + source.slice(at + len) };
    }
  }
}

describe('BOS compiler under mutated source', () => {
  const sources = readdirSync(scriptsDir)
    .filter((f) => f.endsWith('.bos'))
    .slice(0, 4)
    .map((f) => [f, readFileSync(join(scriptsDir, f), 'latin1')] as const);
  it.each(sources)('%s: 200 mutants compile or fail with one line FILE:LINE: message', async (file, source) => {
    let failed = 0;
    for (const m of textMutations(source, 200, 11)) {
      const started = Date.now();
      try {
        await compileBos(m.text, { file });
      } catch (err) {
        expectFormatError(err, m.label);
        const message = (err as Error).message;
        expect(message, m.label).toMatch(new RegExp(`^${file.replace('.', '\\.')}:\\d+: [^\\n]+$`));
        const line = Number(/:(\d+):/.exec(message)![1]);
        expect(line, m.label).toBeGreaterThanOrEqual(1);
        expect(line, m.label).toBeLessThanOrEqual(m.text.split('\n').length);
        failed++;
      }
      expect(Date.now() - started, m.label).toBeLessThan(2000);
    }
    expect(failed).toBeGreaterThan(50);
  });
});
