import { describe, expect, it } from 'vitest';
import { exampleTntSpec, writeOta, writeTnt } from '../../../../electron/demo/tnt-map.js';
import { hostTntDecoder, loadTnt, loadedTntView, sisterOtaPath, tntInfo } from '../../../../electron/services/tnt-service.js';
import type { AssetContext } from '../../../../shared/assets/registry.js';
import type { Palette } from '../../../../shared/assets/image.js';

const palette: Palette = { name: 'built-in TA palette', rgba: new Uint8Array(1024).fill(255) };

function context(files: Record<string, Uint8Array>): AssetContext & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    palette: async () => palette,
    readFile: async (path) => {
      asked.push(path);
      return files[path] ?? null;
    },
    list: async () => Object.keys(files),
  };
}

describe("TNT with its .ota and the install's feature definitions", () => {
  const spec = exampleTntSpec(8, 6, { features: ['Tree1', 'CarScar05', 'Nowhere'] });
  const bytes = writeTnt(spec);
  const ota = writeOta('Gen', [
    { x: 64, z: 80 },
    { x: 200, z: 150 },
  ]);

  it("names the sister .ota in the extension's case", () => {
    expect(sisterOtaPath('maps/Coast.tnt')).toBe('maps/Coast.ota');
    expect(sisterOtaPath('MAPS/COAST.TNT')).toBe('MAPS/COAST.OTA');
    expect(sisterOtaPath('maps/noext')).toBe('maps/noext.ota');
    expect(sisterOtaPath('maps/odd.map')).toBe('maps/odd.ota');
  });

  it('reports the info JSON: sizes, sea level, tiles, features with cells and definitions, start positions', async () => {
    const defs = [
      {
        name: 'TREE1',
        file: 'features/trees.tdf',
        archive: 'totala1.hpi',
        shadowed: [{ file: 'features/forest.tdf', archive: 'totala2.hpi', hiddenBy: 'name' as const }],
      },
      { name: 'CarScar05', file: 'features/urban/cars2.tdf', archive: null, shadowed: [] },
    ];
    const loaded = await loadTnt('maps/Gen.tnt', bytes, context({ 'maps/Gen.ota': ota }), defs);
    const info = tntInfo(loaded);
    const cells = [...spec.cellFeatures!];
    expect(info).toMatchObject({
      version: 0x2000,
      width: 16,
      height: 12,
      tileColumns: 8,
      tileRows: 6,
      pixelWidth: 256,
      pixelHeight: 192,
      seaLevel: 40,
      tiles: 24,
      voidCells: 1,
      minimap: { width: 8, height: 6, storedWidth: 252, storedHeight: 252 },
      ota: { path: 'maps/Gen.ota', missionName: 'Gen', planet: 'Green Planet', schema: 'Schema 0' },
      startPositions: [
        { player: 1, x: 64, z: 80 },
        { player: 2, x: 200, z: 150 },
      ],
      warnings: [],
    });
    expect(info.heights).toEqual({ min: Math.min(...spec.heights!), max: Math.max(...spec.heights!) });
    expect(info.features).toEqual([
      {
        index: 0,
        name: 'Tree1',
        cells: cells.filter((c) => c === 0).length,
        definition: {
          file: 'features/trees.tdf',
          archive: 'totala1.hpi',
          shadowed: [{ file: 'features/forest.tdf', archive: 'totala2.hpi', hiddenBy: 'name' as const }],
        },
      },
      {
        index: 1,
        name: 'CarScar05',
        cells: cells.filter((c) => c === 1).length,
        definition: { file: 'features/urban/cars2.tdf', archive: null, shadowed: [] },
      },
      { index: 2, name: 'Nowhere', cells: cells.filter((c) => c === 2).length, definition: null },
    ]);
    const view = await loadedTntView(loaded);
    const facts = Object.fromEntries(view.facts.map((f) => [f.label, f.value]));
    expect(facts['Start positions']).toBe('2 (maps/Gen.ota)');
    expect(facts['Feature 1']).toMatch(/features\/urban\/cars2\.tdf \(loose file\)$/);
  });

  it('without an install, features carry no definition; without an .ota, no start positions', async () => {
    const ctx = context({});
    const info = tntInfo(await loadTnt('maps/Gen.TNT', bytes, ctx));
    expect(info.features[0]).toEqual({ index: 0, name: 'Tree1', cells: expect.any(Number) });
    expect('definition' in info.features[0]!).toBe(false);
    expect(info.ota).toBeNull();
    expect(info.startPositions).toEqual([]);
    expect(ctx.asked).toEqual(['maps/Gen.OTA', 'maps/Gen.ota']);
  });

  it("finds an .ota whose extension case differs from the map's, and passes on its problems", async () => {
    const broken = new TextEncoder().encode('[GlobalHeader]{[Schema 0]{[specials]{[special0]{specialwhat=StartPos1;XPos=x;ZPos=1;}}}}');
    const info = tntInfo(await loadTnt('Gen.TNT', bytes, context({ 'Gen.ota': broken })));
    expect(info.ota?.path).toBe('Gen.OTA');
    expect(info.warnings).toEqual(['Gen.OTA: line 1: [special0] StartPos1 has no numeric XPos/ZPos']);
  });

  it('the host decoder gives the studio the same view: start positions and definitions beside the map', async () => {
    const defs = [{ name: 'tree1', file: 'features/trees.tdf', archive: 'totala1.hpi', shadowed: [] }];
    const decoder = hostTntDecoder(async () => defs);
    expect(decoder.accepts('maps/Gen.tnt', bytes.subarray(0, 64))).toBe(true);
    const view = await decoder.view('maps/Gen.tnt', bytes, context({ 'maps/Gen.ota': ota }));
    const facts = Object.fromEntries(view.facts.map((f) => [f.label, f.value]));
    expect(facts['Start 2']).toBe('200, 150');
    expect(facts['Feature 0']).toMatch(/features\/trees\.tdf \(totala1\.hpi\)$/);
    expect(facts['Feature 2']).toMatch(/not defined in the install$/);
    const plain = await hostTntDecoder().view('maps/Gen.tnt', bytes, context({}));
    expect(plain.facts.some((f) => f.label.startsWith('Start'))).toBe(false);
  });
});
