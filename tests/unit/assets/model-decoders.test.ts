import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { samplesDir } from '../../helpers/run-cli.js';
import { assetDecoderFor, type AssetContext } from '../../../shared/assets/registry.js';
import { paletteFromRgb } from '../../../shared/assets/image.js';
import type { ModelView } from '../../../shared/assets/view.js';
import { parse3do, threeDoInfo } from '../../../shared/assets/ta/3do.js';
import { decode3do, installTextureLookup, type GafTextureReader } from '../../../shared/assets/ta/3do-asset.js';
import { FormatError } from '../../../shared/errors.js';
import { installSkinLoader } from '../../../shared/assets/quake/model-asset.js';
import type { RgbaImage } from '../../../shared/assets/image.js';

const read = (p: string) => new Uint8Array(readFileSync(join(samplesDir, p)));
const taPal = read('ta/palettes/PALETTE.PAL');
const context: AssetContext = {
  palette: async (game) => {
    if (game !== 'ta') throw new Error('only TA here');
    // PALETTE.PAL: 256 × (R, G, B, unused).
    const rgb = new Uint8Array(768);
    for (let i = 0; i < 256; i++) rgb.set(taPal.subarray(i * 4, i * 4 + 3), i * 3);
    return paletteFromRgb('palettes/PALETTE.PAL', rgb);
  },
  readFile: async () => null,
  list: async () => [],
};

describe('model asset decoders', () => {
  it('a .3do is taken by the 3DO decoder: a model view with its pieces, colours from the palette, missing textures named', async () => {
    const bytes = read('ta/armimr/objects3d/ARMIMR.3do');
    const decoder = assetDecoderFor('objects3d/ARMIMR.3do', bytes.subarray(0, 64));
    expect(decoder?.id).toBe('3do');
    const view = (await decoder!.view('ARMIMR.3do', bytes, context)) as ModelView;
    expect(view.kind).toBe('model');
    const info = threeDoInfo(parse3do(bytes));
    expect(view.mesh.pieces.map((p) => p.name)).toEqual(info.pieces.map((p) => p.name));
    expect(view.missingTextures).toEqual(info.textures);
    expect(view.facts.find((f) => f.label === 'Pieces')?.value).toBe(String(info.pieces.length));
    expect(view.facts.find((f) => f.label === 'Palette')?.value).toBe('palettes/PALETTE.PAL');
    const flat = view.mesh.materials.find((m) => m.name.startsWith('colour '));
    if (flat) {
      const index = Number(flat.name.slice(7));
      expect(flat.color).toEqual([taPal[index * 4], taPal[index * 4 + 1], taPal[index * 4 + 2], 255]);
    }
    expect(view.mesh.up).toBe('y');
  });

  it.each([
    ['quake-assets/quake2/cube.md2', 'md2'],
    ['quake-assets/daikatana/cube.dkm', 'dkm'],
  ])('%s is taken by its signature (%s), whatever its name', async (path, id) => {
    const bytes = read(path);
    const decoder = assetDecoderFor('renamed.bin', bytes.subarray(0, 64));
    expect(decoder?.id).toBe(id);
    const view = (await decoder!.view(path, bytes, context)) as ModelView;
    expect(view.kind).toBe('model');
    expect(view.mesh.up).toBe('z');
    expect(view.facts.find((f) => f.label === 'Vertices')?.value).toBe('1');
  });

  it('a file with no model signature is not taken', () => {
    expect(assetDecoderFor('x.3do', new Uint8Array(64))).toBeNull();
    expect(assetDecoderFor('x.mdl', new TextEncoder().encode('IDPX'.padEnd(64)))).toBeNull();
  });
});

describe('3DO textures from the install', () => {
  it('index every textures/*.gaf by sequence name, case-insensitively; a bad GAF is skipped, the first GAF wins a name', async () => {
    const red: RgbaImage = { width: 1, height: 1, rgba: new Uint8Array([255, 0, 0, 255]) };
    const blue: RgbaImage = { width: 1, height: 1, rgba: new Uint8Array([0, 0, 255, 255]) };
    const files: Record<string, Uint8Array> = {
      'textures/a.gaf': new Uint8Array([1]),
      'textures/b.gaf': new Uint8Array([2]),
      'textures/bad.gaf': new Uint8Array([3]),
    };
    const installContext: AssetContext = {
      ...context,
      list: async (glob) => (glob === 'textures/*.gaf' ? Object.keys(files) : []),
      readFile: async (p) => files[p] ?? null,
    };
    // A stand-in GAF reader: file 1 holds "Metal3A", file 2 "metal3a" and "glow", file 3 is damaged.
    const reader: GafTextureReader = (bytes) => {
      if (bytes[0] === 3) throw new FormatError('truncated', 'damaged');
      return bytes[0] === 1
        ? new Map([['Metal3A', red]])
        : new Map([
            ['metal3a', blue],
            ['glow', blue],
          ]);
    };
    const lookup = installTextureLookup(installContext, reader);
    expect(await lookup('metal3a')).toBe(red);
    expect(await lookup('GLOW')).toBe(blue);
    expect(await lookup('tex1')).toBeNull();
    const bytes = read('ta/armimr/objects3d/ARMIMR.3do');
    const { result } = await decode3do('ARMIMR.3do', bytes, installContext, lookup);
    expect(result.missingTextures).not.toContain('metal3a');
    expect(result.missingTextures).not.toContain('glow');
    expect(result.missingTextures).toContain('tex1');
    expect(result.mesh.materials.find((m) => m.name === 'metal3a')?.image).toBe(red);
  });
});

describe('MD2/DKM skins from the install', () => {
  it('a DKM naming skin.bmp gets the skin.wal beside it (mip 0 through the Quake 2 palette); a PCX path is read as PCX', async () => {
    const walName = readdirSync(join(samplesDir, 'quake-assets/quake2/textures')).find((n) => n.endsWith('.wal'))!;
    const wal = read(`quake-assets/quake2/textures/${walName}`);
    const view = new DataView(wal.buffer, wal.byteOffset);
    const [width, height, mip0] = [view.getUint32(32, true), view.getUint32(36, true), view.getUint32(40, true)];
    const rgba = new Uint8Array(1024);
    for (let i = 0; i < 256; i++) rgba.set([i, 255 - i, 3, 255], i * 4);
    const files: Record<string, Uint8Array> = { 'models/a/skin.wal': wal };
    const install: AssetContext = {
      palette: async () => ({ name: 'colormap', rgba }),
      readFile: async (p) => files[p] ?? null,
      list: async () => [],
    };
    const image = await installSkinLoader(install)('models/a/skin.bmp');
    expect(image && [image.width, image.height]).toEqual([width, height]);
    const index = wal[mip0]!;
    expect(Array.from(image!.rgba.subarray(0, 4))).toEqual([index, 255 - index, 3, 255]);
    expect(await installSkinLoader(install)('models/a/none.pcx')).toBeNull();
  });
});
