import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { samplesDir } from '../../helpers/run-cli.js';
import { paletteFromFile } from '../../../shared/assets/palettes.js';
import { FormatError } from '../../../shared/errors.js';
import { assetContext, openAsset, type AssetInstall } from '../../../electron/services/asset-service.js';

const sample = (...parts: string[]) => new Uint8Array(readFileSync(join(samplesDir, ...parts)));

describe('palettes from the files that carry them', () => {
  it("reads TA's PALETTE.PAL (R, G, B, unused) with every colour opaque", () => {
    const bytes = sample('ta', 'palettes', 'PALETTE.PAL');
    const palette = paletteFromFile('PALETTE.PAL', bytes);
    for (const i of [0, 1, 100, 255]) {
      expect([...palette.rgba.subarray(i * 4, i * 4 + 3)]).toEqual([...bytes.subarray(i * 4, i * 4 + 3)]);
      expect(palette.rgba[i * 4 + 3]).toBe(255);
    }
  });

  it("reads Quake's palette.lmp and the palette at the end of Quake 2's colormap.pcx", () => {
    const lmp = sample('quake-assets', 'quake', 'gfx', 'palette.lmp');
    expect([...paletteFromFile('palette.lmp', lmp).rgba.subarray(4 * 37, 4 * 37 + 4)]).toEqual([...lmp.subarray(3 * 37, 3 * 37 + 3), 255]);
    const pcx = sample('quake-assets', 'quake2', 'pics', 'colormap.pcx');
    const tail = pcx.subarray(pcx.length - 768);
    expect(pcx[pcx.length - 769]).toBe(0x0c);
    expect([...paletteFromFile('colormap.pcx', pcx).rgba.subarray(4 * 200, 4 * 200 + 3)]).toEqual([...tail.subarray(600, 603)]);
  });

  it('refuses a file that is no palette, saying the sizes it knows', () => {
    expect(() => paletteFromFile('x.pal', new Uint8Array(1000))).toThrow(/1024 bytes.*768.*1000/);
  });
});

describe('the asset context', () => {
  const pal = sample('ta', 'palettes', 'PALETTE.PAL');
  const fakeInstall = (files: Record<string, { archive: string | null; bytes: Uint8Array }>): AssetInstall => ({
    resolve: (path) => ({ winner: files[path] ? { archive: files[path]!.archive } : null }),
    read: async (path) => files[path]!.bytes,
    tree: () => ({ paths: Object.keys(files) }),
  });

  it("takes the install's winning palette and names the archive it came from", async () => {
    const context = assetContext(fakeInstall({ 'palettes/PALETTE.PAL': { archive: 'totala1.hpi', bytes: pal } }));
    const palette = await context.palette('ta');
    expect(palette.name).toBe('palettes/PALETTE.PAL from totala1.hpi');
    expect(palette.rgba[4]).toBe(pal[4]);
  });

  it('says which file is missing when neither the install nor a built-in copy has the palette', async () => {
    const context = assetContext(fakeInstall({}));
    await expect(context.palette('quake')).rejects.toThrow(/gfx\/palette\.lmp.*--palette/);
  });

  it('lists winners by a case-insensitive glob and reads sister files', async () => {
    const context = assetContext(
      fakeInstall({
        'textures/ArmImp.GAF': { archive: 'a.ufo', bytes: Uint8Array.of(1) },
        'units/X.fbi': { archive: null, bytes: Uint8Array.of(2) },
      }),
    );
    expect(await context.list('textures/*.gaf')).toEqual(['textures/ArmImp.GAF']);
    expect(await context.readFile('units/X.fbi')).toEqual(Uint8Array.of(2));
    expect(await context.readFile('units/missing.fbi')).toBeNull();
  });
});

describe('openAsset', () => {
  it('reads an entry inside an archive (gfx/conback.lmp inside a Quake PAK)', async () => {
    const pak = join(samplesDir, 'pak', 'quake', 'quakespasm-0.95.1.pak');
    const asset = await openAsset(pak, { entry: 'gfx/conback.lmp' });
    // A qpic is its width and height, then one byte a pixel: the sizes must account for every byte.
    const view = new DataView(asset.bytes.buffer, asset.bytes.byteOffset);
    expect(8 + view.getUint32(0, true) * view.getUint32(4, true)).toBe(asset.bytes.length);
    expect(asset.name).toBe('conback.lmp');
    expect(asset.origin).toBe('gfx/conback.lmp in quakespasm-0.95.1.pak');
  });

  it('takes a --palette file over everything else', async () => {
    const asset = await openAsset(join(samplesDir, 'ta', 'armimr', 'units', 'ARMIMR.fbi'), {
      palette: join(samplesDir, 'ta', 'palettes', 'PALETTE.PAL'),
    });
    expect((await asset.context.palette('quake')).name).toBe('PALETTE.PAL');
  });

  it('fails with a FormatError for a path the archive does not hold', async () => {
    const pak = join(samplesDir, 'pak', 'quake', 'quakespasm-0.95.1.pak');
    await expect(openAsset(pak, { entry: 'gfx/nothing.lmp' })).rejects.toThrow(FormatError);
  });
});
