import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { samplesDir } from '../../../helpers/run-cli.js';
import { mutations, withAllocationLimit } from '../../../helpers/fuzz.js';
import { buildGaf, type FixtureLayer } from '../../../helpers/gaf-fixture.js';
import { readGaf, layerCount } from '../../../../shared/assets/ta/gaf.js';
import { renderGafFrame } from '../../../../shared/assets/ta/gaf-pixels.js';
import { gafDecoder } from '../../../../shared/assets/ta/gaf-view.js';
import { builtInTaPalette } from '../../../../shared/assets/ta/palette.js';
import { FormatError } from '../../../../shared/errors.js';
import { headerFacts, referenceFrame } from '../../../helpers/gaf-reference.js';

const SAMPLES = ['gaf/Alien.gaf', 'armimr/textures/ArmImp.gaf', 'armimr/anims/ARMIMR_gadget.gaf', 'gaf/ta3d_truecolour_cortl_gadget.gaf'];
const read = (name: string) => new Uint8Array(readFileSync(join(samplesDir, 'ta', name)));
const palette = builtInTaPalette();

function frames(bytes: Uint8Array, name = 'test.gaf') {
  const gaf = readGaf(bytes, name);
  return gaf.sequences.flatMap((s) => s.frames.map((frame) => renderGafFrame(bytes, gaf.variant, frame, palette)));
}

describe('GAF structure against each file header', () => {
  for (const name of SAMPLES) {
    it(name, () => {
      const bytes = read(name);
      const known = headerFacts(bytes);
      const gaf = readGaf(bytes, name);
      expect(gaf.version).toBe(known.version);
      expect(gaf.sequences.map((s) => s.name)).toEqual(known.entries.map((e) => e.name));
      gaf.sequences.forEach((s, e) => {
        expect(s.frames.map((f) => [f.width, f.height, f.xOffset, f.yOffset, f.duration, layerCount(f)])).toEqual(
          known.entries[e]!.frames.map((f) => [f.width, f.height, f.xOffset, f.yOffset, f.duration, Math.max(1, f.subs)]),
        );
      });
    });
  }

  it('names what the samples are', () => {
    expect(readGaf(read('gaf/Alien.gaf')).variant).toBe('ta');
    expect(readGaf(read('gaf/ta3d_truecolour_cortl_gadget.gaf')).variant).toBe('ta3d-truecolour');
    const gadget = readGaf(read('armimr/anims/ARMIMR_gadget.gaf'));
    expect(gadget.sequences.map((s) => [s.name, s.frames.length])).toEqual([['ARMIMR', 3]]);
  });
});

describe('GAF pixels against a decode written from the format description', () => {
  for (const name of SAMPLES.slice(0, 3)) {
    it(name, () => {
      const bytes = read(name);
      const known = headerFacts(bytes);
      const got = frames(bytes);
      const recs = known.entries.flatMap((e) => e.frames.map((f) => f.rec));
      expect(got.length).toBe(recs.length);
      got.forEach((image, i) =>
        expect(Buffer.from(image.rgba).equals(Buffer.from(referenceFrame(bytes, recs[i]!, palette))), `frame ${i}`).toBe(true),
      );
    });
  }

  it('Alien.gaf has both raw and RLE frames', () => {
    const all = readGaf(read('gaf/Alien.gaf')).sequences.flatMap((s) => s.frames);
    expect(new Set(all.map((f) => f.encoding))).toEqual(new Set([0, 1]));
  });

  it("TA3D's truecolour frame is the zlib stream's R, G, B, A", () => {
    const bytes = read('gaf/ta3d_truecolour_cortl_gadget.gaf');
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    const rec = headerFacts(bytes).entries[0]!.frames[0]!.rec;
    const data = dv.getUint32(rec + 16, true);
    const expected = inflateSync(bytes.subarray(data + 4, data + 4 + dv.getUint32(data, true)));
    const [image] = frames(bytes);
    expect([image!.width, image!.height]).toEqual([64, 64]);
    expect(Buffer.from(image!.rgba).equals(expected)).toBe(true);
  });
});

const checker = (w: number, h: number, f: (x: number, y: number) => number) =>
  Uint8Array.from({ length: w * h }, (_, i) => f(i % w, Math.floor(i / w)));

describe('layered sub-frames (fixtures from code)', () => {
  // A 6 × 5 canvas at offset (3, 2); sub A's top-left lands at (3 - 3, 2 - 2) = (0, 0), sub B's at
  // (3 - 1, 2 - 0) = (2, 2), drawn after A, its transparency index (7) skipped, its right column clipped.
  const subA: FixtureLayer = {
    width: 4,
    height: 3,
    xOffset: 3,
    yOffset: 2,
    transparency: 9,
    pixels: checker(4, 3, (x) => (x === 3 ? 9 : 40)),
  };
  const subB: FixtureLayer = {
    width: 5,
    height: 3,
    xOffset: 1,
    yOffset: 0,
    transparency: 7,
    rle: true,
    pixels: checker(5, 3, (x, y) => (x === 0 && y === 0 ? 7 : 80 + y)),
  };
  const gafBytes = buildGaf([
    {
      name: 'layered',
      frames: [{ width: 6, height: 5, xOffset: 3, yOffset: 2, pixels: new Uint8Array(0), duration: 3, subFrames: [subA, subB] }],
    },
  ]);
  const colour = (i: number) => [...palette.rgba.subarray(i * 4, i * 4 + 4)];
  const at = (img: { width: number; rgba: Uint8Array }, x: number, y: number) => [
    ...img.rgba.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4),
  ];

  it('composites each sub-frame at frame offset − sub offset, in order', () => {
    const gaf = readGaf(gafBytes);
    const frame = gaf.sequences[0]!.frames[0]!;
    expect(frame.subFrames.length).toBe(2);
    expect(layerCount(frame)).toBe(2);
    expect(frame.duration).toBe(3);
    const image = renderGafFrame(gafBytes, gaf.variant, frame, palette);
    expect(at(image, 0, 0)).toEqual(colour(40)); // A only
    expect(at(image, 3, 0)).toEqual([0, 0, 0, 0]); // A's transparent column, B not there
    expect(at(image, 2, 2)).toEqual(colour(40)); // B's (0,0) is its transparency index 7: A shows through
    expect(at(image, 3, 2)).toEqual(colour(80)); // B over A
    expect(at(image, 5, 4)).toEqual(colour(82)); // B's last visible column; its 5th column is clipped
    expect(at(image, 0, 4)).toEqual([0, 0, 0, 0]); // nothing drawn
    expect(
      Buffer.from(image.rgba).equals(Buffer.from(referenceFrame(gafBytes, headerFacts(gafBytes).entries[0]!.frames[0]!.rec, palette))),
    ).toBe(true);
  });

  it('version 0 (terrain.gaf) reads like 0x00010100', () => {
    const bytes = buildGaf(
      [{ name: 'tile', frames: [{ width: 3, height: 4, xOffset: 0, yOffset: 0, pixels: checker(3, 4, (x, y) => x + y * 3) }] }],
      0,
    );
    const gaf = readGaf(bytes);
    expect(gaf.variant).toBe('ta-terrain');
    const [image] = frames(bytes);
    expect(at(image!, 2, 1)).toEqual(colour(5));
    expect(at(image!, 0, 3)).toEqual([0, 0, 0, 0]); // index 9, the raw frame's transparency index
  });

  it('RLE rows: skips, repeats, literals and pixels past the width dropped', () => {
    const pixels = checker(70, 2, (x, y) => (x < 5 ? 9 : x < 40 ? 100 : (x * 7 + y) & 0xff));
    const bytes = buildGaf([{ name: 'rle', frames: [{ width: 70, height: 2, xOffset: 0, yOffset: 0, rle: true, pixels }] }]);
    const got = frames(bytes)[0]!;
    expect(Buffer.from(got.rgba).equals(Buffer.from(referenceFrame(bytes, headerFacts(bytes).entries[0]!.frames[0]!.rec, palette)))).toBe(
      true,
    );
    expect(at(got, 4, 0)[3]).toBe(0);
    expect(at(got, 69, 1)).toEqual(colour((69 * 7 + 1) & 0xff));
  });
});

describe('refusals', () => {
  const one = () => buildGaf([{ name: 'a', frames: [{ width: 2, height: 2, xOffset: 0, yOffset: 0, pixels: new Uint8Array(4) }] }]);

  it('TA:K TAF is said by name', () => {
    const bytes = one();
    bytes[buildGafRecordAt(bytes) + 9] = 5; // ARGB 1555
    expect(() => readGaf(bytes, 'x.gaf')).toThrow(/TA:K TAF: not supported yet/);
    expect(() => readGaf(one(), 'units.taf')).toThrow(expect.objectContaining({ code: 'unsupported' }));
  });

  it('an unknown version, a count past the end, a frame past the end', () => {
    const bad = one();
    bad[0] = 0x42;
    expect(() => readGaf(bad)).toThrow(expect.objectContaining({ code: 'bad-magic' }));
    const many = one();
    new DataView(many.buffer).setUint32(4, 1_000_000, true);
    expect(() => readGaf(many)).toThrow(/entry pointers .* overflows/);
    const cut = one().subarray(0, one().length - 2);
    expect(() => frames(cut)).toThrow(/raw pixels overflows its bounds: \d+ \+ 4 > \d+/);
  });

  it('the asset view: one group per sequence, palette named, durations in ms', async () => {
    const bytes = read('gaf/Alien.gaf');
    const view = await gafDecoder.view('Alien.gaf', bytes, {
      palette: async () => palette,
      readFile: async () => null,
      list: async () => [],
    });
    if (view.kind !== 'images') throw new Error(view.kind);
    expect(view.groups.map((g) => g.name)).toEqual(headerFacts(bytes).entries.map((e) => e.name));
    expect(view.palette).toBe('built-in TA palette');
    const ticks = headerFacts(bytes).entries[0]!.frames[0]!.duration;
    expect(view.groups[0]!.frames[0]!.durationMs).toBe(Math.round((ticks * 1000) / 30));
  });
});

function buildGafRecordAt(bytes: Uint8Array): number {
  return headerFacts(bytes).entries[0]!.frames[0]!.rec;
}

describe('fuzz', () => {
  const cases: [string, Uint8Array][] = [
    ...SAMPLES.map((name): [string, Uint8Array] => [name, read(name)]),
    [
      'layered fixture',
      buildGaf([
        {
          name: 'l',
          frames: [
            {
              width: 8,
              height: 8,
              xOffset: 4,
              yOffset: 4,
              pixels: new Uint8Array(0),
              subFrames: [
                { width: 4, height: 4, xOffset: 2, yOffset: 2, rle: true, pixels: checker(4, 4, (x, y) => x * y) },
                { width: 8, height: 2, xOffset: 0, yOffset: 0, pixels: checker(8, 2, (x) => x + 20) },
              ],
            },
          ],
        },
      ]),
    ],
  ];
  for (const [name, original] of cases) {
    it(`${name}: mutants decode or fail with a FormatError, within the allocation guard`, async () => {
      const limit = 16 * 1024 * 1024 + 64 * original.length;
      for (const m of mutations(original, 150, 3)) {
        try {
          await withAllocationLimit(limit, async () => frames(m.bytes));
        } catch (err) {
          if (!(err instanceof FormatError)) throw new Error(`${m.label}: ${String(err)}`, { cause: err });
        }
      }
    });
  }
});
