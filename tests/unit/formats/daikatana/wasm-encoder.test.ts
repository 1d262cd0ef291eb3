import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dkDecompress } from '../../../../electron/formats/daikatana/codec.js';
import {
  DK_ENCODER_KEPT_BYTES,
  dkCompress,
  dkCompressBound,
  dkCompressInto,
  dkEncoderIn,
  type DkEncodeExports,
} from '../../../../electron/formats/daikatana/encode.js';
import { wasmInstances } from '../../../../electron/formats/common/wasm.js';
import { WASM_BASE64 } from '../../../../electron/formats/daikatana/wasm/encode.wasm.js';
import { prng } from '../../../helpers/prng.js';
import { records } from './encoder-inputs.js';
import { samplesDir } from '../../../helpers/run-cli.js';
import { referenceDkCompress } from './reference-encoder.js';

/**
 * The WebAssembly encoder against the same parse and search written plainly (reference-encoder.ts): the
 * same stream byte for byte, on real files and on the shapes its shortcuts meet (runs of every length,
 * records sharing 3 bytes, text, noise, the last bytes of an input), and whatever came before it.
 */
const sample = (...path: string[]) => new Uint8Array(readFileSync(join(samplesDir, 'quake-assets', ...path)));

/** Runs of every length from 1 to 140, of zeros and of other bytes, between short literal stretches. */
function runs(): Uint8Array {
  const parts: number[] = [];
  for (let length = 1; length <= 140; length++) {
    parts.push(...new Array<number>(length).fill(length % 3 === 0 ? 0 : length & 0xff));
    parts.push(length, 255 - length, 7);
  }
  return Uint8Array.from(parts);
}

/** A few colours in noisy rows (a texture's shape): short copies everywhere, 2- and 3-byte ones among them. */
function palettedNoise(size: number, colours: number, seed: number): Uint8Array {
  const rand = prng(seed);
  return Uint8Array.from({ length: size }, () => 16 + Math.floor(rand() * colours));
}

const inputs: [string, Uint8Array][] = [
  ['quake2/textures/b_pv_v1a1.wal', sample('quake2', 'textures', 'b_pv_v1a1.wal')],
  ['quake2/pics/colormap.pcx', sample('quake2', 'pics', 'colormap.pcx')],
  ['halflife/hl.bsp', sample('halflife', 'hl.bsp')],
  ['quake/cr8_czg.wad (first 96 KiB)', sample('quake', 'cr8_czg.wad').subarray(0, 96 << 10)],
  ['records', records(5000, 3)],
  ['runs of every length', runs()],
  ['text', new TextEncoder().encode('[WEAPON]\r\n{\r\n\tdamage=120;\r\n\trange=700;\r\n}\r\n'.repeat(150))],
  ['4 colours', palettedNoise(20000, 4, 5)],
  ['40 colours', palettedNoise(20000, 40, 6)],
  ['noise', palettedNoise(5000, 256, 7)],
];

describe('the WebAssembly Daikatana encoder', () => {
  it.each(inputs)('%s: the reference stream, decoding back', (_name, data) => {
    const packed = dkCompress(data);
    expect(packed).toEqual(referenceDkCompress(data));
    expect(dkDecompress(packed, data.length)).toEqual(data);
  });

  it('matches the reference on every input of 0 to 12 bytes from a small alphabet, and on the tails of a texture', () => {
    const rand = prng(11);
    for (let n = 0; n <= 12; n++) {
      for (let k = 0; k < 40; k++) {
        const data = Uint8Array.from({ length: n }, () => Math.floor(rand() * 3));
        expect(dkCompress(data)).toEqual(referenceDkCompress(data));
      }
    }
    const wal = inputs[0]![1];
    for (let cut = 1; cut <= 70; cut++)
      expect(dkCompress(wal.subarray(0, 4000 + cut))).toEqual(referenceDkCompress(wal.subarray(0, 4000 + cut)));
  });

  it('writes into the array it is given when that holds the bound, and into a new one otherwise', () => {
    const data = inputs[4]![1];
    const into = new Uint8Array(dkCompressBound(data.length));
    const laid = dkCompressInto(data, into);
    expect(laid.buffer).toBe(into.buffer);
    expect(laid).toEqual(referenceDkCompress(data));
    const small = new Uint8Array(16);
    expect(dkCompressInto(data, small).buffer).not.toBe(small.buffer);
  });

  it('gives an input over the kept instance its own (the same stream)', () => {
    // 9 MiB: beyond the 8 MiB the thread's instance is kept for; records repeat, so the reference is quick.
    const data = new Uint8Array(9 << 20);
    const tile = records(4096, 9);
    for (let at = 0; at < data.length; at += tile.length) data.set(tile.subarray(0, Math.min(tile.length, data.length - at)), at);
    const packed = dkCompress(data);
    // Compared as Buffers: a deep comparison of megabytes element by element takes minutes.
    expect(Buffer.from(dkDecompress(packed, data.length)).equals(data)).toBe(true);
    expect(Buffer.from(packed).equals(referenceDkCompress(data))).toBe(true);
  });

  it('clears its tables when positions near 2^30, and gives the same streams on either side', () => {
    // Instances of its own, driven by encode.ts's encoder, with the kept one's next position moved near the limit.
    const workspace = wasmInstances<DkEncodeExports & { next: WebAssembly.Global }>(WASM_BASE64, DK_ENCODER_KEPT_BYTES);
    const encode = dkEncoderIn(workspace);
    const { exports } = workspace(0);
    const [wal, records, text] = [inputs[0]![1], inputs[4]![1], inputs[6]![1]];
    const want = referenceDkCompress(wal);
    expect(encode(wal)).toEqual(want);
    // Just short of the limit: positions run up to 2^30 without a reset, after a record table hashed the same prefixes.
    exports.next.value = 2 ** 30 - 1024 - records.length - 512 - wal.length;
    expect(encode(records)).toEqual(referenceDkCompress(records));
    expect(encode(wal)).toEqual(want);
    expect(exports.next.value).toBe(2 ** 30 - 512);
    // The next input does not fit: the tables are cleared and positions start again.
    expect(encode(text)).toEqual(referenceDkCompress(text));
    expect(exports.next.value).toBe(512 + text.length + 512);
    expect(encode(wal)).toEqual(want);
  });
});
