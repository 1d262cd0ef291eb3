import { describe, expect, it } from 'vitest';
import { mutations, withAllocationLimit } from '../../../helpers/fuzz.js';
import { FormatError } from '../../../../shared/errors.js';
import type { AssetContext } from '../../../../shared/assets/registry.js';
import { bspDecoder, lmpDecoder, sprDecoder, walDecoder, wadLumpView } from '../../../../shared/assets/quake/views.js';
import { pcxDecoder } from '../../../../shared/assets/pcx.js';
import { encodeQpic } from '../../../../shared/assets/quake/qpic.js';
import { lumpBytes, readDirectory } from '../../formats/wad/wad-directory.js';
import { sample } from './reference.js';
import { daikatanaWal, hlFont, hlQpic, ibsp, pixels, quakeSprite, rawPcx } from './craft.js';

/**
 * Every Quake-family decoder, through its AssetDecoder, on mutants of a valid file: each ends in a view or a
 * FormatError, never another exception, never a hang, never an allocation the file cannot justify.
 */

const context: AssetContext = {
  palette: async () => ({ name: 'test', rgba: new Uint8Array(1024).fill(255) }),
  readFile: async () => null,
  list: async () => [],
};

const hlWad = sample('quake-assets', 'halflife', 'hl.wad');
const q1Wad = sample('quake-assets', 'quake', 'cr8_czg.wad');
const firstLump = (wad: Uint8Array) => lumpBytes(wad, readDirectory(wad).lumps[0]!);

const seeds: [string, Uint8Array, (bytes: Uint8Array) => Promise<unknown>][] = [
  ['palette.lmp', sample('quake-assets', 'quake', 'gfx', 'palette.lmp'), (b) => lmpDecoder.view('gfx/palette.lmp', b, context)],
  ['a qpic .lmp', encodeQpic(24, 10, pixels(240, 1)), (b) => lmpDecoder.view('gfx/pic.lmp', b, context)],
  ['a WAD2 miptex', firstLump(q1Wad), (b) => wadLumpView('cr8', b, 2, 'miptex', context)],
  ['a WAD3 miptex', firstLump(hlWad), (b) => wadLumpView('hl', b, 3, 'miptex', context)],
  ['a WAD2 lump of unknown type', firstLump(q1Wad), (b) => wadLumpView('x', b, 2, null, context)],
  ['a WAD3 qpic', hlQpic(10, 4, pixels(40, 1), new Uint8Array(768)), (b) => wadLumpView('logo', b, 3, 'qpic', context)],
  ['a WAD3 font', hlFont(4, pixels(1024, 1), new Uint8Array(768)), (b) => wadLumpView('font', b, 3, 'font', context)],
  ['a Quake 2 WAL', sample('quake-assets', 'quake2', 'textures', 'lavatest.wal'), (b) => walDecoder.view('lavatest.wal', b, context)],
  [
    'a Daikatana WAL',
    daikatanaWal('dk', 16, 16, new Uint8Array(768), { anim: '', flags: 0, contents: 0, value: 0 }).bytes,
    (b) => walDecoder.view('dk.wal', b, context),
  ],
  [
    'a sprite',
    quakeSprite([
      { width: 4, height: 4, indices: pixels(16, 1) },
      {
        group: [
          { width: 2, height: 2, indices: pixels(4, 2) },
          { width: 3, height: 2, indices: pixels(6, 3) },
        ],
        intervals: [0.1, 0.2],
      },
    ]),
    (b) => sprDecoder.view('s.spr', b, context),
  ],
  [
    'colormap.pcx',
    sample('quake-assets', 'quake2', 'pics', 'colormap.pcx').subarray(0, 128 + 4000),
    (b) => pcxDecoder.view('pics/colormap.pcx', b, context),
  ],
  [
    'a 4-plane EGA PCX',
    rawPcx(20, 6, 1, 4, (x, y, p) => ((x + y) >> p) & 1, new Uint8Array(48)),
    (b) => pcxDecoder.view('e.pcx', b, context),
  ],
  ['hl.bsp', sample('quake-assets', 'halflife', 'hl.bsp'), (b) => bspDecoder.view('hl.bsp', b, context)],
  ['cube.bsp', sample('quake-assets', 'quake', 'cube.bsp'), (b) => bspDecoder.view('cube.bsp', b, context)],
  ['an IBSP 38', ibsp(38, '{\n"classname" "worldspawn"\n}\n', ['a/b', 'c/d']), (b) => bspDecoder.view('q2.bsp', b, context)],
];

describe.each(seeds)('fuzzing %s', (label, original, decode) => {
  it('300 mutants end in a view or a FormatError, fast, within the allocation limit', async () => {
    let ok = 0;
    let rejected = 0;
    const limit = 4 * 1024 * 1024 + 64 * original.length;
    for (const m of mutations(original, 300, 41)) {
      const started = Date.now();
      try {
        await withAllocationLimit(limit, () => decode(m.bytes));
        ok++;
      } catch (err) {
        if (!(err instanceof FormatError))
          throw new Error(`${m.label}: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`, { cause: err });
        rejected++;
      }
      expect(Date.now() - started, m.label).toBeLessThan(1000);
    }
    expect(ok + rejected).toBe(300);
    // A lump of unknown type never fails: what is not a picture is said in the view's warnings.
    if (!label.includes('unknown type')) expect(rejected).toBeGreaterThan(0);
  });
});
