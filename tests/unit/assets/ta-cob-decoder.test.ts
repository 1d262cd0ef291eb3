import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { samplesDir } from '../../helpers/run-cli.js';
import { mutations, withAllocationLimit } from '../../helpers/fuzz.js';
import { FormatError } from '../../../shared/errors.js';
import { assetDecoderFor, type AssetContext } from '../../../shared/assets/registry.js';
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
    const pieces = /^piece\s+([^;]+);/m
      .exec(bos)![1]!
      .split(',')
      .map((s) => s.trim());
    expect(fact('Pieces')).toBe(`${pieces.length}: ${pieces.join(', ')}`);
    expect(fact('Scripts')).toMatch(/^10: /);
    expect(fact('Static variables')).toBe('2');
    expect(fact('Version')).toBe('4 (TA)');
    expect(Buffer.from(await compileBos(view.text)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('falls back to a disassembly, with the reason, for code no compiler writes', async () => {
    const odd = writeCob({
      version: 4,
      scripts: [{ name: 'Create', code: [0x10021001, 5, 0x12345678, 0x10065000] }],
      pieces: ['base'],
      staticVars: 0,
      sounds: [],
    });
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
  const armimr3do = new Uint8Array(readFileSync(join(samplesDir, 'ta', 'armimr', 'objects3d', 'ARMIMR.3do')));
  /** A 3DO of bare objects written here from the format description: a root with the others as its children. */
  const model3do = (names: string[]): Uint8Array => {
    const header = 52;
    const namesAt = header * names.length;
    const out = Buffer.alloc(namesAt + names.reduce((n, s) => n + s.length + 1, 0));
    let nameAt = namesAt;
    names.forEach((name, i) => {
      const at = i * header;
      out.writeUInt32LE(1, at);
      out.writeUInt32LE(nameAt, at + 28);
      out.writeUInt32LE(i > 0 && i + 1 < names.length ? (i + 1) * header : 0, at + 44);
      out.writeUInt32LE(i === 0 && names.length > 1 ? header : 0, at + 48);
      out.write(name, nameAt, 'latin1');
      nameAt += name.length + 1;
    });
    return new Uint8Array(out);
  };
  const withModel = (model: Uint8Array | null): AssetContext => ({
    ...noContext,
    readFile: async (path) => (path === 'objects3d/ARMIMR.3do' ? model : null),
  });
  const viewWith = async (model: Uint8Array | null) => assetDecoderFor('ARMIMR.cob', bytes)!.view('ARMIMR.cob', bytes, withModel(model));
  const fact = (view: { facts: { label: string; value: string }[] }, label: string) => view.facts.find((f) => f.label === label)?.value;
  const bosPieces = /^piece\s+([^;]+);/m
    .exec(readFileSync(cobPath.replace('.cob', '.bos'), 'latin1'))![1]!
    .split(',')
    .map((s) => s.trim());

  it("ARMIMR's real model has every piece of the BOS piece line: named, no warning", async () => {
    const view = await viewWith(armimr3do);
    // The real 3DO's object count, walked here: every header's first-child (+48) and sibling (+44) link.
    const objects = (() => {
      const b = Buffer.from(armimr3do);
      let n = 0;
      for (const stack = [0]; stack.length; n++) {
        const at = stack.pop()!;
        for (const link of [b.readUInt32LE(at + 44), b.readUInt32LE(at + 48)]) if (link) stack.push(link);
      }
      return n;
    })();
    expect(fact(view, 'Model')).toBe(
      `objects3d/ARMIMR.3do: ${bosPieces.length} of ${bosPieces.length} pieces found, ${objects - bosPieces.length} of its ${objects} objects not animated`,
    );
    expect(fact(view, 'Pieces in the model')).toBe(bosPieces.join(', '));
    expect(fact(view, 'Pieces missing from the model')).toBe('none');
    expect(view.warnings).toEqual([]);
  });

  it('all pieces found in a model with one more object: a fact, no warning', async () => {
    const view = await viewWith(model3do(['base', 'body', 'bars', 'smoke1', 'smoke2', 'smoke3', 'smoke4', 'extra']));
    expect(fact(view, 'Model')).toBe('objects3d/ARMIMR.3do: 7 of 7 pieces found, 1 of its 8 objects not animated');
    expect(view.warnings).toEqual([]);
  });

  it('a piece the model lacks is named, and a warning (case ignored, as the engine does)', async () => {
    const view = await viewWith(model3do(['BASE', 'body', 'bars', 'smoke1', 'smoke2', 'smoke3']));
    expect(fact(view, 'Pieces in the model')).toBe('base, body, bars, smoke1, smoke2, smoke3');
    expect(fact(view, 'Pieces missing from the model')).toBe('smoke4');
    expect(view.warnings).toEqual(['piece smoke4 is not in objects3d/ARMIMR.3do']);
  });

  it('no model in the install: no check; an unreadable model: said as a warning', async () => {
    expect((await viewWith(null)).facts.some((f) => f.label === 'Model')).toBe(false);
    const broken = armimr3do.slice(0, 40);
    expect((await viewWith(broken)).warnings).toEqual([
      'pieces not checked: objects3d/ARMIMR.3do: 40 bytes is shorter than one 52-byte object header',
    ]);
  });
});
