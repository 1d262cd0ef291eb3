import { describe, expect, it } from 'vitest';
import { makePcx, rampPalette } from '../../../../electron/demo/media.js';
import { assetDecoderFor, type AssetContext } from '../../../../shared/assets/registry.js';
import { parseSp2 } from '../../../../shared/assets/quake/sp2.js';
import { FormatError } from '../../../../shared/errors.js';
import { fuzzDecoder } from '../../../helpers/fuzz-decoder.js';

/** A Quake 2 sprite written here from the format description: "IDS2", 2, count, then 80-byte frames. */
function sp2(frames: { width: number; height: number; originX: number; originY: number; path: string }[]): Uint8Array {
  const out = Buffer.alloc(12 + frames.length * 80);
  out.write('IDS2', 0, 'latin1');
  out.writeInt32LE(2, 4);
  out.writeInt32LE(frames.length, 8);
  frames.forEach((f, i) => {
    const at = 12 + i * 80;
    out.writeInt32LE(f.width, at);
    out.writeInt32LE(f.height, at + 4);
    out.writeInt32LE(f.originX, at + 8);
    out.writeInt32LE(f.originY, at + 12);
    out.write(f.path, at + 16, 'latin1');
  });
  return new Uint8Array(out);
}

const pixel = (k: number) => (x: number, y: number) => (x * 16 + y * 3 + k * 50) & 0xff;
const files = new Map<string, Uint8Array>([
  ['sprites/s_boom_0.pcx', makePcx(8, 6, pixel(0), rampPalette())],
  ['sprites/s_boom_1.pcx', makePcx(8, 6, pixel(1), rampPalette())],
]);
const context: AssetContext = {
  palette: () => Promise.reject(new Error('an SP2 frame carries its own palette')),
  readFile: async (path) => files.get(path) ?? null,
  list: async () => [...files.keys()],
};
const boom = sp2([
  { width: 8, height: 6, originX: 4, originY: 3, path: 'sprites/s_boom_0.pcx' },
  { width: 8, height: 6, originX: 4, originY: 3, path: 'sprites/s_boom_1.pcx' },
  { width: 8, height: 6, originX: 4, originY: 3, path: 'sprites/s_boom_2.pcx' },
]);

describe('Quake 2 sprites (.sp2)', () => {
  it('lists the frames with their sizes, origins and PCX names', () => {
    expect(parseSp2(boom).map((f) => [f.path, f.width, f.height, f.originX, f.originY])).toEqual([
      ['sprites/s_boom_0.pcx', 8, 6, 4, 3],
      ['sprites/s_boom_1.pcx', 8, 6, 4, 3],
      ['sprites/s_boom_2.pcx', 8, 6, 4, 3],
    ]);
  });

  it('shows each frame from its PCX through the mount, at 10 Hz; a missing PCX is named', async () => {
    const decoder = assetDecoderFor('sprites/s_boom.sp2', boom.subarray(0, 64));
    expect(decoder?.id).toBe('sp2');
    const view = await decoder!.view('sprites/s_boom.sp2', boom, context);
    if (view.kind !== 'images') throw new Error(view.kind);
    const frames = view.groups[0]!.frames;
    expect(frames.map((f) => f.label)).toEqual(['sprites/s_boom_0.pcx (origin 4, 3)', 'sprites/s_boom_1.pcx (origin 4, 3)']);
    expect(frames.every((f) => f.durationMs === 100)).toBe(true);
    // Pixel (7, 5) of each frame: the index the PCX was written with, coloured by the PCX's own (ramp) palette.
    const ramp = rampPalette();
    for (const [k, f] of frames.entries()) {
      const at = (5 * 8 + 7) * 4;
      const index = pixel(k)(7, 5);
      expect([...f.image.rgba.subarray(at, at + 3)]).toEqual([...ramp.subarray(index * 3, index * 3 + 3)]);
    }
    expect(view.warnings).toEqual(['frame 2: sprites/s_boom_2.pcx is not in the install']);
    expect(view.palette).toBe("each frame's own palette");
    expect(view.facts.find((f) => f.label === 'Frames')?.value).toBe('3');
  });

  it('refuses other magics, versions and frame tables past the end', () => {
    expect(() => parseSp2(Uint8Array.from([0x49, 0x44, 0x53, 0x50, 2, 0, 0, 0, 0, 0, 0, 0]))).toThrow(/IDS2/);
    const v3 = boom.slice();
    v3[4] = 3;
    expect(() => parseSp2(v3)).toThrow(/version 3/);
    expect(() => parseSp2(boom.subarray(0, 12 + 80 + 10))).toThrow(FormatError);
  });

  it('300 mutants: a view or a FormatError, no oversized allocation', async () => {
    const decoder = assetDecoderFor('s.sp2', boom)!;
    const outcome = await fuzzDecoder(boom, (b) => decoder.view('s.sp2', b, context), { count: 300 });
    expect(outcome.ok + outcome.rejected).toBe(300);
  });
});
