import { describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, samplesDir } from '../../../helpers/run-cli.js';
import { decodePng } from '../../../../shared/assets/png.js';
import {
  cstr,
  countedPalette,
  expand,
  expectSamePixels,
  i32,
  miptexRef,
  pakFile,
  pcx8Ref,
  pcxTailPalette,
  quakeAssets,
  sample,
} from './reference.js';
import { readDirectory, lumpBytes } from '../../formats/wad/wad-directory.js';

/**
 * `modpak image export` on the real samples: every PNG compared pixel for pixel with a decode written here
 * from the format description, dimensions and names taken from the files' own header bytes.
 */

const quakePalette = sample('quake-assets', 'quake', 'gfx', 'palette.lmp');
const q2Colormap = sample('quake-assets', 'quake2', 'pics', 'colormap.pcx');
const quakespasmPak = join(samplesDir, 'pak', 'quake', 'quakespasm-0.95.1.pak');

async function withTemp<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'modpak-qimg-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Export with the given arguments and decode the PNG written. */
async function exported(args: string[]): Promise<{ width: number; height: number; rgba: Uint8Array; stderr: string }> {
  return withTemp(async (dir) => {
    const target = join(dir, 'out.png');
    const run = await runCli(['image', 'export', ...args, '--target', target]);
    expect(run.code, run.stderr).toBe(0);
    return { ...decodePng(new Uint8Array(await readFile(target))), stderr: run.stderr };
  });
}

describe('Quake qpic: gfx/conback.lmp inside the quakespasm PAK', () => {
  const lmp = pakFile(sample('pak', 'quake', 'quakespasm-0.95.1.pak'), 'gfx/conback.lmp');
  const width = i32(lmp, 0);
  const height = i32(lmp, 4);

  it('exports at the size its header states, index 255 transparent, with the palette given', async () => {
    expect(lmp.length).toBe(8 + width * height);
    const png = await exported([quakespasmPak, '--entry', 'gfx/conback.lmp', '--palette', quakeAssets('quake', 'gfx', 'palette.lmp')]);
    expect([png.width, png.height]).toEqual([width, height]);
    expectSamePixels(png.rgba, expand(lmp.subarray(8), quakePalette, 255), png.width);
    expect(png.stderr).toMatch(/palette palette\.lmp/);
  });

  it('takes the palette from the install, where a later pak wins over the loose file', async () => {
    await withTemp(async (root) => {
      await copyFile(quakespasmPak, join(root, 'pak0.pak'));
      await mkdir(join(root, 'gfx'));
      await writeFile(join(root, 'gfx', 'palette.lmp'), quakePalette);
      let png = await exported(['gfx/conback.lmp', '--install', root, '--game', 'quake']);
      expectSamePixels(png.rgba, expand(lmp.subarray(8), quakePalette, 255), png.width);
      expect(png.stderr).toMatch(/gfx\/palette\.lmp from a loose file/);

      // A pak1.pak with its own (inverted) palette.lmp: the engine reads that one.
      const inverted = quakePalette.map((v) => 255 - v);
      await mkdir(join(root, 'mod', 'gfx'), { recursive: true });
      await writeFile(join(root, 'mod', 'gfx', 'palette.lmp'), inverted);
      expect((await runCli(['pack', join(root, 'mod'), '--target', join(root, 'pak1.pak')])).code).toBe(0);
      png = await exported(['gfx/conback.lmp', '--install', root, '--game', 'quake']);
      expectSamePixels(png.rgba, expand(lmp.subarray(8), inverted, 255), png.width);
      expect(png.stderr).toMatch(/gfx\/palette\.lmp from pak1\.pak/);
    });
  });

  it('says which palette is missing when there is none', async () => {
    await withTemp(async (dir) => {
      const run = await runCli(['image', 'export', quakespasmPak, '--entry', 'gfx/conback.lmp', '--target', join(dir, 'x.png')]);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/gfx\/palette\.lmp.*--palette/);
    });
  });
});

describe('palette.lmp', () => {
  it('shows its 256 colours as 8-pixel swatches, row by row', async () => {
    const png = await exported([quakeAssets('quake', 'gfx', 'palette.lmp')]);
    expect([png.width, png.height]).toEqual([128, 128]);
    for (const index of [0, 15, 16, 200, 255]) {
      const x = (index % 16) * 8 + 3;
      const y = Math.floor(index / 16) * 8 + 5;
      const p = (y * 128 + x) * 4;
      expect([...png.rgba.subarray(p, p + 4)]).toEqual([...quakePalette.subarray(index * 3, index * 3 + 3), 255]);
    }
  });
});

describe('WAD2 miptex: cr8_czg.wad', () => {
  const wad = sample('quake-assets', 'quake', 'cr8_czg.wad');
  const lumps = readDirectory(wad).lumps;

  it.each([0, 1, 2, 3])('every lump exports mip %i as the miptex header and the palette say', async (mip) => {
    for (const lump of lumps.slice(0, 4)) {
      const ref = miptexRef(lumpBytes(wad, lump));
      expect(ref.name).toBe(lump.name);
      const level = ref.levels[mip]!;
      const png = await exported([
        quakeAssets('quake', 'cr8_czg.wad'),
        '--entry',
        lump.name,
        '--mip',
        String(mip),
        '--palette',
        quakeAssets('quake', 'gfx', 'palette.lmp'),
      ]);
      expect([png.width, png.height], lump.name).toEqual([level.width, level.height]);
      expectSamePixels(png.rgba, expand(level.indices, quakePalette, ref.name.startsWith('{') ? 255 : -1), png.width);
    }
  });

  it('refuses a mip level the texture does not have', async () => {
    await withTemp(async (dir) => {
      const run = await runCli([
        'image',
        'export',
        quakeAssets('quake', 'cr8_czg.wad'),
        '--entry',
        lumps[0]!.name,
        '--mip',
        '4',
        '--palette',
        quakeAssets('quake', 'gfx', 'palette.lmp'),
        '--target',
        join(dir, 'x.png'),
      ]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/mip levels 0 to 3/);
    });
  });
});

describe('WAD3 miptex with their own palettes: hl.wad', () => {
  const wad = sample('quake-assets', 'halflife', 'hl.wad');

  it('exports each texture and level with the palette after its last level', async () => {
    for (const lump of readDirectory(wad).lumps) {
      const bytes = lumpBytes(wad, lump);
      const ref = miptexRef(bytes);
      const palette = countedPalette(bytes, ref.paletteAt);
      for (const mip of [0, 3]) {
        const png = await exported([quakeAssets('halflife', 'hl.wad'), '--entry', lump.name, '--mip', String(mip)]);
        expect([png.width, png.height]).toEqual([ref.levels[mip]!.width, ref.levels[mip]!.height]);
        expectSamePixels(png.rgba, expand(ref.levels[mip]!.indices, palette, ref.name.startsWith('{') ? 255 : -1), png.width);
        expect(png.stderr).toMatch(new RegExp(`palette palette of ${lump.name}`));
      }
    }
  });
});

describe('Quake 2 WAL', () => {
  const palette = pcxTailPalette(q2Colormap);

  it.each(['lavatest.wal', 'b_pv_v1a1.wal'])('%s: header fields and all four levels, with colormap.pcx', async (name) => {
    const wal = sample('quake-assets', 'quake2', 'textures', name);
    const width = i32(wal, 32);
    const height = i32(wal, 36);
    const offsets = [0, 1, 2, 3].map((k) => i32(wal, 40 + k * 4));
    for (let mip = 0; mip < 4; mip++) {
      const w = width >> mip;
      const h = height >> mip;
      const png = await exported([
        quakeAssets('quake2', 'textures', name),
        '--mip',
        String(mip),
        '--palette',
        quakeAssets('quake2', 'pics', 'colormap.pcx'),
      ]);
      expect([png.width, png.height]).toEqual([w, h]);
      // Quake 2 draws walls opaque: every pixel has alpha 255.
      expectSamePixels(png.rgba, expand(wal.subarray(offsets[mip]!, offsets[mip]! + w * h), palette), png.width);
    }
    const { walDecoder } = await import('../../../../shared/assets/quake/views.js');
    const view = await walDecoder.view(name, wal, {
      palette: async () => ({ name: 'test', rgba: new Uint8Array(1024) }),
      readFile: async () => null,
      list: async () => [],
    });
    const facts = Object.fromEntries(view.facts.map((f) => [f.label, f.value]));
    expect(facts.Name).toBe(cstr(wal, 0, 32));
    expect(facts['Next frame']).toBe(cstr(wal, 56, 32) || '(none)');
    expect(facts.Flags).toMatch(new RegExp(`^0x${(i32(wal, 88) >>> 0).toString(16)}`));
    expect(facts.Contents).toMatch(new RegExp(`^0x${(i32(wal, 92) >>> 0).toString(16)}`));
    expect(facts.Value).toBe(String(i32(wal, 96)));
  });
});

describe('PCX: Quake 2 colormap.pcx', () => {
  it('exports at its header size with its own palette', async () => {
    const ref = pcx8Ref(q2Colormap);
    const png = await exported([quakeAssets('quake2', 'pics', 'colormap.pcx')]);
    expect([png.width, png.height]).toEqual([ref.width, ref.height]);
    expectSamePixels(png.rgba, expand(ref.indices, pcxTailPalette(q2Colormap)), png.width);
  });

  it('as a Quake 2 pic (pics/*.pcx other than the colormap), index 255 is transparent', async () => {
    const ref = pcx8Ref(q2Colormap);
    await withTemp(async (dir) => {
      await mkdir(join(dir, 'pics'));
      await writeFile(join(dir, 'pics', 'inventory.pcx'), q2Colormap);
      expect((await runCli(['pack', dir, '--target', join(dir, 'pak0.pak')])).code).toBe(0);
      const png = await exported([join(dir, 'pak0.pak'), '--entry', 'pics/inventory.pcx']);
      expect(ref.indices.includes(255)).toBe(true);
      expectSamePixels(png.rgba, expand(ref.indices, pcxTailPalette(q2Colormap), 255), png.width);
    });
  });
});
