import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { samplesDir } from '../../helpers/run-cli.js';
import { mutations, withAllocationLimit } from '../../helpers/fuzz.js';
import { FormatError } from '../../../shared/errors.js';
import { assetDecoderFor, assetDecoders, type AssetContext, type AssetDecoder } from '../../../shared/assets/registry.js';
import type { ModelView } from '../../../shared/assets/view.js';
import { compileBos, writeCob } from '../../../shared/assets/ta/cob/index.js';

const cobPath = join(samplesDir, 'ta', 'armimr', 'scripts', 'ARMIMR.cob');
const bytes = new Uint8Array(readFileSync(cobPath));
const noContext: AssetContext = {
  palette: () => Promise.reject(new Error('no palette needed')),
  readFile: async () => null,
  list: async () => [],
};

describe('the COB asset decoder', () => {
  it('takes .cob files of version 4 or 6 only', () => {
    expect(assetDecoderFor('ARMIMR.cob', bytes.subarray(0, 64))?.id).toBe('cob');
    expect(assetDecoderFor('scripts/X.COB', Uint8Array.of(6, 0, 0, 0))?.id).toBe('cob');
    expect(assetDecoderFor('ARMIMR.bos', bytes.subarray(0, 64))).toBeNull();
    expect(assetDecoderFor('bad.cob', Uint8Array.of(5, 0, 0, 0))).toBeNull();
  });

  it('shows the decompiled BOS with its facts; the text compiles back to the file', async () => {
    const view = await assetDecoderFor('ARMIMR.cob', bytes)!.view('ARMIMR.cob', bytes, noContext);
    expect(view.kind).toBe('text');
    if (view.kind !== 'text') return;
    expect(view.language).toBe('bos');
    expect(view.warnings).toEqual([]);
    const fact = (label: string) => view.facts.find((f) => f.label === label)?.value;
    // From the BOS beside it: the piece line, and 7 functions plus the 3 its headers add.
    const bos = readFileSync(cobPath.replace('.cob', '.bos'), 'latin1');
    const pieces = /^piece\s+([^;]+);/m.exec(bos)![1]!.split(',').map((s) => s.trim());
    expect(fact('Pieces')).toBe(`${pieces.length}: ${pieces.join(', ')}`);
    expect(fact('Scripts')).toMatch(/^10: /);
    expect(fact('Static variables')).toBe('2');
    expect(fact('Version')).toBe('4 (TA)');
    expect(Buffer.from(await compileBos(view.text)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('falls back to a disassembly, with the reason, for code no compiler writes', async () => {
    const odd = writeCob({ version: 4, scripts: [{ name: 'Create', code: [0x10021001, 5, 0x12345678, 0x10065000] }], pieces: ['base'], staticVars: 0, sounds: [] });
    const view = await assetDecoderFor('odd.cob', odd)!.view('odd.cob', odd, noContext);
    if (view.kind !== 'text') throw new Error('not a text view');
    expect(view.warnings).toEqual(['shown as a disassembly: script Create: unknown opcode 0x12345678 at word 2']);
    expect(view.text).toContain('//       0  push-constant 5');
    expect(view.text).toContain('//       2  0x12345678');
  });

  it('shows version 6 sounds', async () => {
    const v6 = await compileBos('piece base;\nsound boom;\nCreate()\n{\n}\n');
    const view = await assetDecoderFor('k.cob', v6)!.view('k.cob', v6, noContext);
    expect(view.facts.find((f) => f.label === 'Sounds')?.value).toBe('1: boom');
    expect(view.format).toBe('COB script (version 6)');
  });

  it('survives 300 mutants with a view or a FormatError', async () => {
    const decoder = assetDecoderFor('ARMIMR.cob', bytes)!;
    let views = 0;
    for (const m of mutations(bytes, 300, 3)) {
      try {
        await withAllocationLimit(1 << 20, () => decoder.view('m.cob', m.bytes, noContext));
        views++;
      } catch (err) {
        if (!(err instanceof FormatError)) throw new Error(`${m.label}: ${String(err)}`, { cause: err });
      }
    }
    expect(views).toBeGreaterThan(50);
  });
});

describe('the COB view checks its pieces against the unit model', () => {
  /** A stand-in model decoder (the real 3DO decoder lives in another module): pieces named in the file, one per line. */
  const fakeModels: AssetDecoder = {
    id: 'fake-3do',
    accepts: (name) => name.endsWith('.3do'),
    async view(name, data) {
      const text = Buffer.from(data).toString('latin1');
      if (text === 'broken') throw new FormatError('bad-stream', `${name}: broken`);
      const pieces = text.split('\n').map((n) => ({ name: n, parent: null, offset: [0, 0, 0] as [number, number, number], primitives: [] }));
      const view: ModelView = { kind: 'model', format: 'fake', facts: [], warnings: [], mesh: { pieces, materials: [], up: 'y' }, missingTextures: [] };
      return view;
    },
  };
  const withModel = (model: string | null): AssetContext => ({
    ...noContext,
    readFile: async (path) => (path === 'objects3d/ARMIMR.3do' && model !== null ? new Uint8Array(Buffer.from(model, 'latin1')) : null),
  });
  const viewWith = async (model: string | null) => {
    assetDecoders.unshift(fakeModels);
    try {
      return await assetDecoderFor('ARMIMR.cob', bytes)!.view('ARMIMR.cob', bytes, withModel(model));
    } finally {
      assetDecoders.splice(assetDecoders.indexOf(fakeModels), 1);
    }
  };

  it('all pieces found: a fact, no warning', async () => {
    const view = await viewWith('base\nbody\nbars\nsmoke1\nsmoke2\nsmoke3\nsmoke4\nextra');
    expect(view.facts.find((f) => f.label === 'Model')?.value).toBe('objects3d/ARMIMR.3do: 7 of 7 pieces found, 1 of its 8 objects not animated');
    expect(view.warnings).toEqual([]);
  });

  it('a piece the model lacks is a warning naming it', async () => {
    const view = await viewWith('BASE\nbody\nbars\nsmoke1\nsmoke2\nsmoke3');
    expect(view.warnings).toEqual(['piece smoke4 is not in objects3d/ARMIMR.3do']);
  });

  it('no model in the install: no check; an unreadable model: said as a warning', async () => {
    expect((await viewWith(null)).facts.some((f) => f.label === 'Model')).toBe(false);
    expect((await viewWith('broken')).warnings).toEqual(['pieces not checked: objects3d/ARMIMR.3do: broken']);
  });
});
