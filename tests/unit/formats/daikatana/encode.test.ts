import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dkDecompress } from '../../../../electron/formats/daikatana/codec.js';
import { dkCompress } from '../../../../electron/formats/daikatana/encode.js';
import { records } from './encoder-inputs.js';
import { samplesDir } from '../../../helpers/run-cli.js';

/**
 * The encoder's hash chains stand in for a search of the whole window: its streams must be as small as
 * those of the same greedy rule over an exhaustive search (below, within 0.5 %), on the real textures, BSPs and models
 * the Daikatana writer compresses, and on the data shapes its shortcuts could miss (records sharing 3
 * bytes, text).
 */
function exhaustiveGreedySize(data: Uint8Array): number {
  const n = data.length;
  let size = 1; // the end marker
  let literals = 0;
  const flush = () => {
    size += literals + Math.ceil(literals / 64);
    literals = 0;
  };
  for (let i = 0; i < n;) {
    const b = data[i]!;
    let run = 1;
    while (run < Math.min(65, n - i) && data[i + run] === b) run++;
    let length = 0;
    for (let d = 2; d <= Math.min(257, i); d++) {
      let len = 0;
      while (len < Math.min(63, d, n - i) && data[i - d + len] === data[i + len]) len++;
      if (len > length) length = len;
    }
    const pending = literals > 0;
    const zeroGain = b === 0 && run >= 2 ? run - 1 : 0;
    const runGain = run >= 3 || (run === 2 && !pending) ? run - 2 : -1;
    const matchGain = length >= 3 || (length === 2 && !pending) ? length - 2 : -1;
    let cost = 2;
    let cover = run;
    if (zeroGain > 0 && zeroGain >= runGain && zeroGain >= matchGain) cost = 1;
    else if (runGain < 0 || runGain < matchGain) {
      if (matchGain < 0) {
        literals++;
        i++;
        continue;
      }
      cover = length;
    }
    flush();
    size += cost;
    i += cover;
  }
  flush();
  return size;
}

const sample = (...path: string[]) => new Uint8Array(readFileSync(join(samplesDir, ...path)));

const inputs: [string, Uint8Array][] = [
  ['quake2/textures/b_pv_v1a1.wal', sample('quake-assets', 'quake2', 'textures', 'b_pv_v1a1.wal')],
  ['quake2/textures/lavatest.wal', sample('quake-assets', 'quake2', 'textures', 'lavatest.wal')],
  ['quake2/pics/colormap.pcx', sample('quake-assets', 'quake2', 'pics', 'colormap.pcx')],
  ['halflife/hl.bsp', sample('quake-assets', 'halflife', 'hl.bsp')],
  ['quake/cube.bsp', sample('quake-assets', 'quake', 'cube.bsp')],
  ['quake/cr8_czg.wad (first 64 KiB)', sample('quake-assets', 'quake', 'cr8_czg.wad').subarray(0, 65536)],
  ['records', records(6000, 3)],
  ['text', new TextEncoder().encode('[WEAPON]\r\n{\r\n\tdamage=120;\r\n\trange=700;\r\n}\r\n'.repeat(200))],
];

describe('dkCompress against an exhaustive search', () => {
  it.each(inputs)('%s: decodes back, within 0.5 % of the exhaustive greedy parse', (_name, data) => {
    const packed = dkCompress(data);
    expect(dkDecompress(packed, data.length)).toEqual(data);
    const reference = exhaustiveGreedySize(data);
    // Greedy longest-match is not the smallest parse, so a shorter match now and then may come out ahead.
    expect(packed.length).toBeLessThanOrEqual(Math.ceil(reference * 1.005));
  });

  it('gives the same stream whatever was compressed before (no stale table entry is followed)', () => {
    const wal = inputs[0]![1];
    const first = dkCompress(wal);
    for (const [, before] of inputs) {
      dkCompress(before);
      expect(dkCompress(wal)).toEqual(first);
    }
  });
});
