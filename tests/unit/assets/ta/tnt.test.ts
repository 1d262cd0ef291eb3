import { describe, expect, it } from 'vitest';
import { exampleTntSpec, patternTile, writeOta, writeTnt, type TntSpec } from '../../../../electron/demo/tnt-map.js';
import { readOta } from '../../../../electron/tdf/ota.js';
import { FormatError } from '../../../../shared/errors.js';
import type { Palette } from '../../../../shared/assets/image.js';
import { decodeTnt, FEATURE_VOID, placedFeatures, tntSummary } from '../../../../shared/assets/ta/tnt.js';
import { drawTntMarkers, renderTnt } from '../../../../shared/assets/ta/tnt-render.js';
import { fittingScale, tntView, viewTnt } from '../../../../shared/assets/ta/tnt-view.js';
import { assetDecoderFor } from '../../../../shared/assets/registry.js';
import { withAllocationLimit } from '../../../helpers/fuzz.js';

/** A palette where every index has its own colour: R = i, G = 255 - i, B = i * 7. */
const palette: Palette = {
  name: 'test palette',
  rgba: new Uint8Array(1024).map((_, k) => [k >> 2, 255 - (k >> 2), ((k >> 2) * 7) & 255, 255][k & 3]!),
};
const colour = (index: number) => [index, 255 - index, (index * 7) & 255, 255];

/** The pixel the spec puts at map pixel (x, y), straight from the writer's inputs. */
function specIndex(spec: TntSpec, x: number, y: number): number {
  const tile = spec.grid[(y >> 5) * spec.tileColumns + (x >> 5)]!;
  return spec.tiles[tile]![(y & 31) * 32 + (x & 31)]!;
}

function rgbaAt(image: { width: number; rgba: Uint8Array }, x: number, y: number): number[] {
  const o = (y * image.width + x) * 4;
  return [...image.rgba.subarray(o, o + 4)];
}

/** The first pixel where `image` differs from `want(x, y)`, or null. */
function firstDifference(
  image: { width: number; height: number; rgba: Uint8Array },
  want: (x: number, y: number) => number[],
): string | null {
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const got = rgbaAt(image, x, y);
      const expected = want(x, y);
      if (got.join() !== expected.join()) return `pixel ${x},${y}: ${got.join()} != ${expected.join()}`;
    }
  }
  return null;
}

describe('TNT decoding (generated maps with known contents)', () => {
  const spec = exampleTntSpec(6, 4, { seed: 3 });
  const bytes = writeTnt(spec);

  it('reads the header, the grid, the cells, the feature table and the sea level the writer put in', () => {
    const map = decodeTnt(bytes, 'gen.tnt');
    expect(map.header.version).toBe(0x2000);
    expect([map.width, map.height, map.tileColumns, map.tileRows]).toEqual([12, 8, 6, 4]);
    expect(map.seaLevel).toBe(40);
    expect(map.tileCount).toBe(spec.tiles.length);
    expect([...map.tileIndices]).toEqual([...spec.grid]);
    expect([...map.heights]).toEqual([...spec.heights!]);
    expect([...map.cellFeatures]).toEqual([...spec.cellFeatures!]);
    expect(map.features.map((f) => f.name)).toEqual(spec.features);
    expect(map.features.map((f) => f.index)).toEqual([0, 1, 2]);
    expect(map.tileGraphics.subarray(5 * 1024, 6 * 1024)).toEqual(spec.tiles[5]);
    expect(map.warnings).toEqual([]);
  });

  it('follows the offsets, not the order of the sections', () => {
    const a = decodeTnt(bytes);
    const b = decodeTnt(writeTnt({ ...spec, order: 'reversed' }));
    expect(b.header.minimapOffset).toBeLessThan(b.header.mapDataOffset);
    expect([...b.tileIndices]).toEqual([...a.tileIndices]);
    expect([...b.heights]).toEqual([...a.heights]);
    expect(b.features).toEqual(a.features);
    expect(b.minimap).toEqual(a.minimap);
  });

  it('counts placed features per kind and void cells, and lists placed features by cell', () => {
    const map = decodeTnt(bytes);
    const cells = [...spec.cellFeatures!];
    const summary = tntSummary(map);
    expect(summary.placed).toEqual(spec.features!.map((_, i) => cells.filter((c) => c === i).length));
    expect(summary.voidCells).toBe(cells.filter((c) => c === FEATURE_VOID).length);
    expect(summary.minHeight).toBe(Math.min(...(spec.heights as number[])));
    expect(summary.maxHeight).toBe(Math.max(...(spec.heights as number[])));
    const placed = placedFeatures(map);
    expect(placed.length).toBe(summary.placed.reduce((a, b) => a + b, 0));
    for (const p of placed) expect(cells[p.y * 12 + p.x]).toBe(p.feature);
  });

  it('trims the minimap padding the way the game does: along the first row and the first column', () => {
    const pixels = new Uint8Array(30 * 20).map((_, i) => (i % 7 === 3 ? 0x64 : 1 + (i % 50)));
    // Padding colour inside the picture (not at the end of the first row or column) is kept.
    pixels[0] = 9;
    pixels[29] = 9;
    pixels[19 * 30] = 9;
    const map = decodeTnt(writeTnt({ ...spec, minimap: { width: 30, height: 20, pixels } }));
    expect(map.minimap).toMatchObject({ width: 30, height: 20, storedWidth: 252, storedHeight: 252 });
    expect([...map.minimap.pixels]).toEqual([...pixels]);

    // A picture whose first row ends in the padding colour loses those columns, as in the game.
    const ragged = pixels.slice();
    ragged[28] = 0x64;
    ragged[29] = 0x64;
    const trimmed = decodeTnt(writeTnt({ ...spec, minimap: { width: 30, height: 20, pixels: ragged } })).minimap;
    expect([trimmed.width, trimmed.height]).toEqual([28, 20]);
    for (let y = 0; y < 20; y++)
      expect([...trimmed.pixels.subarray(y * 28, y * 28 + 28)]).toEqual([...ragged.subarray(y * 30, y * 30 + 28)]);

    // A minimap stored at its own size has nothing to trim; one that is all padding is empty.
    expect(
      decodeTnt(writeTnt({ ...spec, minimap: { width: 30, height: 20, pixels, storedWidth: 30, storedHeight: 20 } })).minimap.width,
    ).toBe(30);
    const empty = decodeTnt(
      writeTnt({ ...spec, minimap: { width: 0, height: 0, pixels: new Uint8Array(0), storedWidth: 8, storedHeight: 8 } }),
    );
    expect([empty.minimap.width, empty.minimap.height, empty.minimap.storedWidth]).toEqual([0, 0, 8]);
    expect(tntView(empty, palette).warnings.join()).toMatch(/minimap is empty \(its 8 × 8 pixels are all padding\)/);
  });

  it('refuses a TA:K map by name, other versions as not a map, and truncated tables with the numbers', () => {
    const tak = writeTnt({ ...spec, version: 0x4000 });
    expect(() => decodeTnt(tak, 'k.tnt')).toThrow("k.tnt: TA:K map (0x4000): TA can't load this");
    expect(() => decodeTnt(writeTnt({ ...spec, version: 0x1234 }), 'x.tnt')).toThrow(/x\.tnt: not a TNT map \(version 0x1234/);
    const cut = bytes.slice(0, bytes.length - 100);
    expect(() => decodeTnt(cut, 'cut.tnt')).toThrow(FormatError);
    expect(() => decodeTnt(cut, 'cut.tnt')).toThrow(/minimap \(252 × 252 pixels\) overflows its bounds/);
    expect(() => decodeTnt(bytes.slice(0, 40))).toThrow(/needs 64 bytes, found 40/);
  });

  it('refuses a map too large to draw before allocating anything for it', async () => {
    const huge = bytes.slice();
    new DataView(huge.buffer).setUint32(4, 100_000, true);
    new DataView(huge.buffer).setUint32(8, 100_000, true);
    const err = await withAllocationLimit(64 * 1024, async () => {
      try {
        decodeTnt(huge, 'huge.tnt');
      } catch (e) {
        return e;
      }
      return null;
    });
    expect(err).toBeInstanceOf(FormatError);
    expect(String((err as Error).message)).toMatch(/huge\.tnt: map of 50000 × 50000 tiles: 1600000 × 1600000 pixels is not a picture size/);
  });

  it('warns about grid places past the tile table and cells past the feature table, and draws those tiles black', () => {
    const grid = [...spec.grid];
    grid[7] = 999;
    const cells = [...spec.cellFeatures!];
    cells[3] = 0x0500;
    const map = decodeTnt(writeTnt({ ...spec, grid, cellFeatures: cells }));
    expect(map.warnings).toEqual([
      '1 grid place names a tile past the 24 tiles (first: column 1, row 1 names tile 999); drawn black',
      '1 cell names a feature past the 3 features (first: cell 3, 0 names 0x500); ignored',
    ]);
    const image = renderTnt(map, palette);
    expect(rgbaAt(image, 32 + 5, 32 + 9)).toEqual([0, 0, 0, 255]);
    expect(placedFeatures(map).some((p) => p.x === 3 && p.y === 0)).toBe(false);
  });
});

describe('TNT render', () => {
  const spec = exampleTntSpec(5, 3, { seed: 9 });
  const map = decodeTnt(writeTnt(spec));

  it('draws every pixel from its tile through the palette', () => {
    const image = renderTnt(map, palette);
    expect([image.width, image.height]).toEqual([160, 96]);
    expect(firstDifference(image, (x, y) => colour(specIndex(spec, x, y)))).toBeNull();
  });

  it.each([0.5, 2, 0.3])("scales by %s with the pixel nearest each output pixel's centre", (scale) => {
    const image = renderTnt(map, palette, scale);
    const w = Math.round(160 * scale);
    const h = Math.round(96 * scale);
    expect([image.width, image.height]).toEqual([w, h]);
    const nearest = (i: number, out: number, size: number) => Math.min(size - 1, Math.floor(((i + 0.5) * size) / out));
    expect(firstDifference(image, (x, y) => colour(specIndex(spec, nearest(x, w, 160), nearest(y, h, 96))))).toBeNull();
  });

  it('refuses scales outside 1/64–16', () => {
    expect(() => renderTnt(map, palette, 0)).toThrow(FormatError);
    expect(() => renderTnt(map, palette, 17)).toThrow(/render scale 17 is outside/);
    expect(() => renderTnt(map, palette, Number.NaN)).toThrow(FormatError);
  });

  it('marks start positions in the player colour and features in yellow, at any scale', () => {
    const image = renderTnt(map, palette);
    drawTntMarkers(image, map, {
      startPositions: [
        { player: 1, x: 40, z: 30 },
        { player: 2, x: 5000, z: 50 },
      ],
      features: true,
    });
    // Player 1 is blue, drawn as a disc around (40, 30); its number sits at the centre, so look beside it.
    expect(rgbaAt(image, 40 - 9, 30)).toEqual([0, 80, 255, 255]);
    // A position past the right edge lands on the edge.
    expect(rgbaAt(image, 159, 50 - 9)).toEqual([255, 32, 32, 255]);
    const first = placedFeatures(map).find((p) => p.x * 16 + 8 > 60)!;
    expect(rgbaAt(image, first.x * 16 + 8, first.y * 16 + 8)).toEqual([255, 200, 0, 255]);

    const half = renderTnt(map, palette, 0.5);
    drawTntMarkers(half, map, { startPositions: [{ player: 1, x: 40, z: 30 }] });
    expect(rgbaAt(half, 20 - 5, 15)).toEqual([0, 80, 255, 255]);
  });
});

describe('TNT view and decoder', () => {
  const spec = exampleTntSpec(4, 4);
  const bytes = writeTnt(spec);

  it('is the registered decoder for .tnt files and shows render and minimap with the facts', async () => {
    const decoder = assetDecoderFor('maps/Gen.TNT', bytes.subarray(0, 64));
    expect(decoder?.id).toBe('tnt');
    const view = await decoder!.view('maps/Gen.TNT', bytes, {
      palette: async () => palette,
      readFile: async () => null,
      list: async () => [],
    });
    if (view.kind !== 'images') throw new Error(view.kind);
    expect(view.groups.map((g) => g.name)).toEqual(['render', 'minimap', 'heights']);
    // The height field: one pixel a cell, grey at or above the sea level (40), blue-tinted below it.
    const heights = view.groups[2]!.frames[0]!.image;
    expect([heights.width, heights.height]).toEqual([8, 8]);
    for (let i = 0; i < 64; i++) {
      const h = spec.heights![i]!;
      expect(rgbaAt(heights, i % 8, Math.floor(i / 8))).toEqual(h >= 40 ? [h, h, h, 255] : [h >> 2, h >> 1, 128 + (h >> 1), 255]);
    }
    // The void cell (the last one) is hatched in the render: black where x + y is a multiple of 4.
    const render = view.groups[0]!.frames[0]!.image;
    expect(rgbaAt(render, 7 * 16 + 1, 7 * 16 + 3)).toEqual([0, 0, 0, 255]);
    expect(rgbaAt(render, 7 * 16 + 2, 7 * 16 + 3)).toEqual(colour(specIndex(spec, 7 * 16 + 2, 7 * 16 + 3)));
    expect(view.palette).toBe('test palette');
    const minimap = view.groups[1]!.frames[0]!.image;
    expect([minimap.width, minimap.height]).toEqual([4, 4]);
    expect(rgbaAt(minimap, 2, 1)).toEqual(colour(spec.minimap!.pixels[1 * 4 + 2]!));
    const facts = Object.fromEntries(view.facts.map((f) => [f.label, f.value]));
    expect(facts).toMatchObject({
      Size: '4 × 4 tiles, 8 × 8 cells, 128 × 128 pixels',
      'Sea level': '40',
      Tiles: '24',
      Minimap: '4 × 4 (stored 252 × 252)',
      'Void cells': '1',
    });
    expect(facts['Feature 0']).toMatch(/^TreeA, \d+ cells?$/);
  });

  it('takes start positions and feature definitions from the host', async () => {
    const defs = new Map([
      ['TREEA', { file: 'features/trees.tdf', archive: 'totala1.hpi', shadowed: 1 }],
      ['ROCK03', null],
    ]);
    const view = await viewTnt('Gen.tnt', bytes, palette, {
      startPositions: [{ player: 1, x: 20, z: 20 }],
      startSource: 'maps/Gen.ota',
      otaProblems: ['line 3: bad'],
      featureDefinitions: defs,
    });
    const facts = Object.fromEntries(view.facts.map((f) => [f.label, f.value]));
    expect(facts['Start positions']).toBe('1 (maps/Gen.ota)');
    expect(facts['Start 1']).toBe('20, 20');
    expect(facts['Feature 0']).toMatch(/features\/trees\.tdf \(totala1\.hpi\), hides 1$/);
    expect(facts['Feature 1']).toMatch(/not defined in the install$/);
    expect(view.warnings).toContain('maps/Gen.ota: line 3: bad');
    expect(rgbaAt(view.groups[0]!.frames[0]!.image, 20 - 9, 20)).toEqual([0, 80, 255, 255]);
  });

  it('shows maps larger than 4096 × 4096 pixels scaled down', () => {
    const big = { tileColumns: 200, tileRows: 150 } as Parameters<typeof fittingScale>[0];
    expect(fittingScale(big)).toBe(1 / 2);
    expect(fittingScale({ tileColumns: 128, tileRows: 128 } as typeof big)).toBe(1);
    expect(fittingScale({ tileColumns: 256, tileRows: 256 } as typeof big)).toBe(1 / 2);
  });

  it('a TA:K map fails in the view with the same message', async () => {
    await expect(viewTnt('k.tnt', writeTnt({ ...spec, version: 0x4000 }), palette)).rejects.toThrow(
      "TA:K map (0x4000): TA can't load this",
    );
  });
});

describe('.ota start positions', () => {
  it("reads the writer's start positions, mission name and planet", () => {
    const ota = readOta(
      writeOta('Coast', [
        { x: 100, z: 200 },
        { x: 1800, z: 900 },
        { x: 50, z: 60 },
      ]),
    );
    expect(ota).toEqual({
      missionName: 'Coast',
      planet: 'Green Planet',
      schema: 'Schema 0',
      problems: [],
      startPositions: [
        { player: 1, x: 100, z: 200 },
        { player: 2, x: 1800, z: 900 },
        { player: 3, x: 50, z: 60 },
      ],
    });
  });

  it('reads sloppy files the way the game would, and says what it skipped', () => {
    const text = [
      '[GLOBALHEADER]',
      '{',
      'MissionName=Hand made',
      '[schema 1]',
      '{',
      '[Specials]',
      '{',
      '[special3] { specialwhat=startpos2; xpos=300; zpos=400; }',
      '[special0] { SpecialWhat=StartPos1; XPos=10; ZPos=20; }',
      '[special1] { specialwhat=StartPos1; XPos=11; ZPos=21; }',
      '[special2] { specialwhat=StartPos3; XPos=abc; ZPos=1; }',
      '[special4] { specialwhat=metal; XPos=1; ZPos=1; }',
      '[special5] { specialwhat=StartPos4; XPos=; ZPos=1; }',
      '}',
      '}',
      '}',
    ].join('\n');
    const ota = readOta(new TextEncoder().encode(text));
    expect(ota.missionName).toBe('Hand made');
    expect(ota.schema).toBe('schema 1');
    expect(ota.startPositions).toEqual([
      { player: 1, x: 10, z: 20 },
      { player: 2, x: 300, z: 400 },
    ]);
    expect(ota.problems).toEqual([
      'line 10: [special1] repeats StartPos1 (the first is kept)',
      'line 11: [special2] StartPos3 has no numeric XPos/ZPos',
      'line 13: [special5] StartPos4 has no numeric XPos/ZPos',
    ]);
    expect(readOta(new TextEncoder().encode('[other]{a=1;}')).problems).toEqual(['no [GlobalHeader] section']);
  });
});

describe('TNT writer', () => {
  it('puts the tiles and the grid where the header says', () => {
    const tiles = [patternTile(0), patternTile(100)];
    const bytes = writeTnt({ tileColumns: 2, tileRows: 1, tiles, grid: [1, 0] });
    const view = new DataView(bytes.buffer);
    expect(view.getUint32(0, true)).toBe(0x2000);
    expect([view.getUint32(4, true), view.getUint32(8, true)]).toEqual([4, 2]);
    expect(view.getUint16(view.getUint32(12, true) + 0, true)).toBe(1);
    expect(bytes[view.getUint32(20, true) + 1024 + 33]).toBe((100 + 1 + 32) & 0xff);
  });
});
