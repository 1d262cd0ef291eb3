import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { decodePng } from '../../../shared/assets/png.js';
import { exampleTntSpec, writeOta, writeTnt, type TntSpec } from '../../../electron/demo/tnt-map.js';
import { feature, sectionsTdf } from '../../../electron/demo/content.js';
import { generateDemoInstall, writeHpi } from '../../../electron/demo/index.js';

let work: string;
const spec: TntSpec = exampleTntSpec(6, 5, { seed: 21, features: ['Tree1', 'Rock03', 'Nowhere'] });
const starts = [
  { x: 40, z: 50 },
  { x: 150, z: 120 },
];

/** A palette file (R, G, B, unused) where index i is (i, 255 - i, i * 3): every index its own colour. */
const palFile = new Uint8Array(1024).map((_, k) => [k >> 2, 255 - (k >> 2), ((k >> 2) * 3) & 255, 0][k & 3]!);
const colour = (i: number) => [i, 255 - i, (i * 3) & 255, 255];

/** What the writer put at map pixel (x, y), through the palette: the known answer for every render. */
function expectedRender(width: number, height: number, mapWidth: number, mapHeight: number): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const mx = Math.min(mapWidth - 1, Math.floor(((x + 0.5) * mapWidth) / width));
      const my = Math.min(mapHeight - 1, Math.floor(((y + 0.5) * mapHeight) / height));
      const tile = spec.grid[(my >> 5) * spec.tileColumns + (mx >> 5)]!;
      out.set(colour(spec.tiles[tile]![(my & 31) * 32 + (mx & 31)]!), (y * width + x) * 4);
    }
  }
  return out;
}

const png = async (path: string) => decodePng(new Uint8Array(await readFile(path)));
const pixel = (image: { width: number; rgba: Uint8Array }, x: number, y: number) => [
  ...image.rgba.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4),
];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'tnt-cli-'));
  await writeFile(join(work, 'Gen.tnt'), writeTnt(spec));
  await writeFile(join(work, 'Gen.ota'), writeOta('Generated', starts));
  await writeFile(join(work, 'PALETTE.PAL'), palFile);
  await writeFile(join(work, 'Kingdoms.tnt'), writeTnt({ ...spec, version: 0x4000 }));
  await writeFile(join(work, 'junk.tnt'), new Uint8Array(100).fill(7));
  await writeFile(
    join(work, 'Blank.tnt'),
    writeTnt({ ...spec, minimap: { width: 0, height: 0, pixels: new Uint8Array(0), storedWidth: 4, storedHeight: 4 } }),
  );
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('modpak tnt on files on disk', () => {
  it("info --json: the writer's numbers and the .ota beside the map", async () => {
    const run = await runCli(['tnt', 'info', join(work, 'Gen.tnt'), '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const info = JSON.parse(run.stdout);
    const cells = [...spec.cellFeatures!];
    expect(info).toMatchObject({
      version: 0x2000,
      width: 12,
      height: 10,
      tileColumns: 6,
      tileRows: 5,
      pixelWidth: 192,
      pixelHeight: 160,
      seaLevel: 40,
      tiles: spec.tiles.length,
      voidCells: 1,
      minimap: { width: 6, height: 5, storedWidth: 252, storedHeight: 252 },
      ota: { path: join(work, 'Gen.ota'), missionName: 'Generated', schema: 'Schema 0' },
      startPositions: [
        { player: 1, x: 40, z: 50 },
        { player: 2, x: 150, z: 120 },
      ],
      warnings: [],
    });
    expect(info.features).toEqual(
      ['Tree1', 'Rock03', 'Nowhere'].map((name, index) => ({ index, name, cells: cells.filter((c) => c === index).length })),
    );
  });

  it('info prints the same facts as text', async () => {
    const run = await runCli(['tnt', 'info', join(work, 'Gen.tnt')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^size +6 × 5 tiles \(12 × 10 cells, 192 × 160 pixels\)$/m);
    expect(run.stdout).toMatch(/^sea level +40$/m);
    expect(run.stdout).toMatch(/^start positions +1: 40, 50 {3}2: 150, 120$/m);
    expect(run.stdout).toMatch(/^ +0 {2}Tree1 /m);
  });

  it('render: every pixel from the tiles through the palette, at 1 and at --scale 1/2', async () => {
    const out = join(work, 'out', 'render.png');
    const run = await runCli(['tnt', 'render', join(work, 'Gen.tnt'), '--target', out, '--palette', join(work, 'PALETTE.PAL')]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/render\.png: 192 × 160 \(palette: PALETTE\.PAL\)\n$/);
    const image = await png(out);
    expect([image.width, image.height]).toEqual([192, 160]);
    expect(Buffer.from(image.rgba).equals(Buffer.from(expectedRender(192, 160, 192, 160)))).toBe(true);

    const half = join(work, 'half.png');
    expect(
      (await runCli(['tnt', 'render', join(work, 'Gen.tnt'), '-t', half, '--scale', '1/2', '--palette', join(work, 'PALETTE.PAL')])).code,
    ).toBe(0);
    const small = await png(half);
    expect([small.width, small.height]).toEqual([96, 80]);
    expect(Buffer.from(small.rgba).equals(Buffer.from(expectedRender(96, 80, 192, 160)))).toBe(true);
    // Only the PNGs: the temporary files were renamed into place.
    expect((await readdir(join(work, 'out'))).sort()).toEqual(['render.png']);
  });

  it('render --markers draws the .ota start positions in the player colours', async () => {
    const out = join(work, 'marked.png');
    expect(
      (await runCli(['tnt', 'render', join(work, 'Gen.tnt'), '-t', out, '--markers', '--palette', join(work, 'PALETTE.PAL')])).code,
    ).toBe(0);
    const image = await png(out);
    expect(pixel(image, 40 - 9, 50)).toEqual([0, 80, 255, 255]);
    expect(pixel(image, 150 - 9, 120)).toEqual([255, 32, 32, 255]);
  });

  it('minimap: the trimmed picture through the palette', async () => {
    const out = join(work, 'mini.png');
    const run = await runCli(['tnt', 'minimap', join(work, 'Gen.tnt'), '--target', out, '--palette', join(work, 'PALETTE.PAL')]);
    expect(run.code).toBe(0);
    const image = await png(out);
    expect([image.width, image.height]).toEqual([6, 5]);
    for (let i = 0; i < 30; i++) expect(pixel(image, i % 6, Math.floor(i / 6))).toEqual(colour(spec.minimap!.pixels[i]!));
  });

  it('bad input is one line and exit 1; a bad --scale is a usage error', async () => {
    const tak = await runCli(['tnt', 'info', join(work, 'Kingdoms.tnt')]);
    expect(tak.code).toBe(1);
    expect(tak.stderr).toBe(`modpak: ${join(work, 'Kingdoms.tnt')}: TA:K map (0x4000): TA can't load this\n`);
    const junk = await runCli(['tnt', 'render', join(work, 'junk.tnt'), '-t', join(work, 'j.png')]);
    expect(junk.code).toBe(1);
    expect(junk.stderr).toBe(`modpak: ${join(work, 'junk.tnt')}: not a TNT map (version 0x7070707, TA's is 0x2000)\n`);
    const blank = await runCli([
      'tnt',
      'minimap',
      join(work, 'Blank.tnt'),
      '-t',
      join(work, 'b.png'),
      '--palette',
      join(work, 'PALETTE.PAL'),
    ]);
    expect(blank.code).toBe(1);
    expect(blank.stderr).toMatch(/^modpak: .*Blank\.tnt: the minimap is empty \(its 4 × 4 pixels are all padding\)\n$/);
    const missing = await runCli(['tnt', 'info', join(work, 'Nope.tnt')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`modpak: ${join(work, 'Nope.tnt')}: no such file or folder\n`);
    const scale = await runCli(['tnt', 'render', join(work, 'Gen.tnt'), '-t', join(work, 's.png'), '--scale', '100']);
    expect(scale.code).toBe(2);
    expect((await readdir(work)).filter((f) => f.endsWith('.png')).sort()).toEqual(['half.png', 'marked.png', 'mini.png']);
  });
});

describe('modpak tnt --install', () => {
  let root: string;
  beforeAll(async () => {
    root = join(work, 'TA');
    await writeHpi(join(root, 'totala1.hpi'), [
      { path: 'palettes/PALETTE.PAL', data: palFile },
      { path: 'maps/Gen.tnt', data: writeTnt(spec) },
      { path: 'maps/Gen.ota', data: writeOta('From the install', [{ x: 10, z: 20 }]) },
      { path: 'features/trees.tdf', data: sectionsTdf({ Tree1: feature('green', 'Pine') }) },
    ]);
    await writeHpi(join(root, 'totala2.hpi'), [
      { path: 'features/forest.tdf', data: sectionsTdf({ Tree1: feature('green', 'Fir'), Rock03: feature('all worlds', 'Rock') }) },
    ]);
  });

  it('info --json: each feature with the definition winner that `mount defs` names', async () => {
    const defs = JSON.parse((await runCli(['mount', 'defs', root, 'features', '--game', 'ta', '--json'])).stdout) as {
      name: string;
      file: string;
      archive: string | null;
      shadowed: unknown[];
    }[];
    const run = await runCli(['tnt', 'info', 'MAPS/gen.tnt', '--install', root, '--game', 'ta', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const info = JSON.parse(run.stdout);
    const winner = (name: string) => defs.find((d) => d.name.toUpperCase() === name.toUpperCase());
    expect(winner('Tree1')!.shadowed).toHaveLength(1);
    for (const f of info.features) {
      const w = winner(f.name);
      expect(f.definition).toEqual(w ? { file: w.file, archive: w.archive, shadowed: w.shadowed } : null);
    }
    expect(info.features[2].definition).toBeNull();
    expect(info.ota).toMatchObject({ path: 'MAPS/gen.ota', missionName: 'From the install' });
    expect(info.startPositions).toEqual([{ player: 1, x: 10, z: 20 }]);
  });

  it("info text names the winners; render uses the install's palette", async () => {
    const text = await runCli(['tnt', 'info', 'maps/Gen.tnt', '--install', root, '--game', 'ta']);
    expect(text.stdout).toMatch(/^map +maps\/Gen\.tnt from totala1\.hpi$/m);
    expect(text.stdout).toMatch(/Tree1 .* features\/\w+\.tdf \(totala\d\.hpi\), hides 1$/m);
    expect(text.stdout).toMatch(/Nowhere .* not defined in the install$/m);
    const out = join(work, 'install-render.png');
    const run = await runCli(['tnt', 'render', 'maps/Gen.tnt', '--install', root, '--game', 'ta', '-t', out]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/palette: palettes\/PALETTE\.PAL from totala1\.hpi/);
    expect(Buffer.from((await png(out)).rgba).equals(Buffer.from(expectedRender(192, 160, 192, 160)))).toBe(true);
    const missing = await runCli(['tnt', 'info', 'maps/Nope.tnt', '--install', root, '--game', 'ta']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('modpak: maps/Nope.tnt: no such file in the install\n');
  });
});

describe('modpak tnt on the demo install', () => {
  it('Great Divide: four start positions, features linked to the definitions `mount defs` names', async () => {
    const root = await generateDemoInstall(join(work, 'demo'));
    const defs = JSON.parse((await runCli(['mount', 'defs', root, 'features', '--game', 'ta', '--json'])).stdout) as {
      name: string;
      file: string;
      archive: string | null;
    }[];
    const run = await runCli(['tnt', 'info', 'maps/Great Divide.tnt', '--install', root, '--game', 'ta', '--json']);
    expect(run.code).toBe(0);
    const info = JSON.parse(run.stdout);
    expect(info).toMatchObject({ tileColumns: 16, tileRows: 12, seaLevel: 60, minimap: { width: 252, height: 189 }, voidCells: 9 });
    expect(info.startPositions.map((s: { player: number }) => s.player)).toEqual([1, 2, 3, 4]);
    const byName = new Map(defs.map((d) => [d.name.toUpperCase(), d]));
    expect(
      info.features.map((f: { name: string; definition: { file: string; archive: string | null } | null }) => [
        f.name,
        f.definition && [f.definition.file, f.definition.archive],
      ]),
    ).toEqual(
      ['Tree1', 'Tree2', 'CarScar05', 'Rock1', 'Boulder9'].map((n) => [
        n,
        byName.has(n.toUpperCase()) ? [byName.get(n.toUpperCase())!.file, byName.get(n.toUpperCase())!.archive] : null,
      ]),
    );
    expect(info.features[2].definition.file).toBe('features/urban/cars2.tdf');
    expect(info.features[4].definition).toBeNull();
    expect(info.features.every((f: { cells: number }) => f.cells > 0)).toBe(true);
  });
});
