import { describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../helpers/run-cli.js';
import { decodePng, encodePng } from '../../../../shared/assets/png.js';
import { pcxDecoder } from '../../../../shared/assets/pcx.js';
import { sprDecoder, wadLumpDecoder, walDecoder } from '../../../../shared/assets/quake/views.js';
import { expand, expectSamePixels, miptexRef, quakeAssets, sample } from './reference.js';
import { daikatanaWal, hlFont, hlQpic, hlSprite, pixels, quakeSprite, rawPcx, wad2 } from './craft.js';
import { lumpBytes, readDirectory } from '../../formats/wad/wad-directory.js';

/** Formats the samples lack, built here from their descriptions: sprites, Daikatana WALs, conchars, PCX depths; and PNG → WAD. */

const quakePalette = sample('quake-assets', 'quake', 'gfx', 'palette.lmp');
const palettePath = quakeAssets('quake', 'gfx', 'palette.lmp');

async function withTemp<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'modpak-qcraft-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function exportPng(dir: string, args: string[]) {
  const target = join(dir, `out-${Math.random().toString(36).slice(2)}.png`);
  const run = await runCli(['image', 'export', ...args, '--target', target]);
  expect(run.code, run.stderr).toBe(0);
  return decodePng(new Uint8Array(await readFile(target)));
}

const quakeContext = {
  palette: async () => ({
    name: 'palette.lmp',
    rgba: Uint8Array.from({ length: 1024 }, (_, i) => (i % 4 === 3 ? 255 : quakePalette[Math.floor(i / 4) * 3 + (i % 4)]!)),
  }),
  readFile: async () => null,
  list: async () => [],
};

describe('Quake sprites', () => {
  const a = { width: 4, height: 2, indices: new Uint8Array([1, 2, 255, 4, 5, 255, 7, 8]) };
  const b = { width: 2, height: 3, indices: pixels(6, 2) };
  const c = { width: 3, height: 1, indices: new Uint8Array([255, 9, 10]) };
  const bytes = quakeSprite([a, { group: [b, c], intervals: [0.1, 0.3] }]);

  it('exports every frame, counted across groups, with index 255 transparent', async () => {
    await withTemp(async (dir) => {
      await writeFile(join(dir, 's.spr'), bytes);
      for (const [n, f] of [a, b, c].entries()) {
        const png = await exportPng(dir, [join(dir, 's.spr'), '--frame', String(n), '--palette', palettePath]);
        expect([png.width, png.height]).toEqual([f.width, f.height]);
        expectSamePixels(png.rgba, expand(f.indices, quakePalette, 255), png.width);
      }
      const run = await runCli([
        'image',
        'export',
        join(dir, 's.spr'),
        '--frame',
        '3',
        '--palette',
        palettePath,
        '--target',
        join(dir, 'x.png'),
      ]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/frames 0 to 2/);
    });
  });

  it('the view: a group per frame or group, group frames timed from the cumulative intervals', async () => {
    const view = await sprDecoder.view('s.spr', bytes, quakeContext);
    if (view.kind !== 'images') throw new Error('images');
    expect(view.groups.map((g) => [g.name, g.frames.length])).toEqual([
      ['frame 0', 1],
      ['group 1', 2],
    ]);
    expect(view.groups[1]!.frames.map((f) => f.durationMs)).toEqual([100, 200]);
    expect(view.palette).toBe('palette.lmp');
  });
});

describe('Half-Life sprites', () => {
  it.each([
    [3, 255],
    [0, -1],
  ])('texture format %i: its own palette, index 255 transparent only for alpha test (3)', async (texFormat, transparent) => {
    const palette = Uint8Array.from({ length: 768 }, (_, i) => (i * 7 + 3) % 256);
    const frame = { width: 5, height: 3, indices: pixels(15, 6).map((v, i) => (i % 4 === 0 ? 255 : v)) };
    await withTemp(async (dir) => {
      await writeFile(join(dir, 'hl.spr'), hlSprite([frame, frame], palette, texFormat));
      const png = await exportPng(dir, [join(dir, 'hl.spr'), '--frame', '1']);
      expect([png.width, png.height]).toEqual([5, 3]);
      expectSamePixels(png.rgba, expand(frame.indices, palette, transparent), 5);
    });
  });
});

describe('Daikatana WAL', () => {
  const palette = Uint8Array.from({ length: 768 }, (_, i) => (i * 5) % 256);
  const { bytes, mips, levels } = daikatanaWal('e1/dkwall', 32, 16, palette, { anim: 'e1/dkwall2', flags: 0x18, contents: 1, value: 300 });

  it('exports each of its levels with its own palette, index 255 transparent', async () => {
    expect(levels).toBe(5);
    await withTemp(async (dir) => {
      await writeFile(join(dir, 'dk.wal'), bytes);
      for (const level of [0, 4]) {
        const png = await exportPng(dir, [join(dir, 'dk.wal'), '--mip', String(level)]);
        expect([png.width, png.height]).toEqual([32 >> level, 16 >> level]);
        expectSamePixels(png.rgba, expand(mips[level]!, palette, 255), png.width);
      }
    });
    const view = await walDecoder.view('dk.wal', bytes, quakeContext);
    const facts = Object.fromEntries(view.facts.map((f) => [f.label, f.value]));
    expect(view.format).toBe('Daikatana WAL');
    expect(view.kind === 'images' && view.palette).toBe('palette of dk.wal');
    expect(facts).toMatchObject({
      Name: 'e1/dkwall',
      'Next frame': 'e1/dkwall2',
      Flags: '0x18 (warp, trans33)',
      Contents: '0x1 (solid)',
      Value: '300',
    });
  });
});

describe('conchars in a WAD2', () => {
  it('is 128 × 128 raw indices, index 0 transparent', async () => {
    const conchars = pixels(128 * 128, 3).map((v, i) => (i % 5 === 0 ? 0 : v));
    await withTemp(async (dir) => {
      await writeFile(join(dir, 'gfx.wad'), wad2([{ name: 'conchars', type: 0x44, bytes: conchars }]));
      const png = await exportPng(dir, [join(dir, 'gfx.wad'), '--entry', 'conchars', '--palette', palettePath]);
      expect([png.width, png.height]).toEqual([128, 128]);
      expectSamePixels(png.rgba, expand(conchars, quakePalette, 0), 128);
    });
  });
});

describe('WAD3 pictures and fonts with their own palettes', () => {
  it('a qpic (0x42) and a font (0x46) export with the palette after their pixels, index 255 transparent', async () => {
    const palette = Uint8Array.from({ length: 768 }, (_, i) => (i * 3 + 1) % 256);
    const pic = pixels(12 * 5, 4).map((v, i) => (i % 7 === 0 ? 255 : v));
    const font = pixels(256 * 9, 5).map((v, i) => (i % 4 === 0 ? 255 : v));
    await withTemp(async (dir) => {
      await writeFile(
        join(dir, 'hl.wad'),
        wad2(
          [
            { name: 'LOGO', type: 0x42, bytes: hlQpic(12, 5, pic, palette) },
            { name: 'FONT1', type: 0x46, bytes: hlFont(9, font, palette) },
          ],
          3,
        ),
      );
      const logo = await exportPng(dir, [join(dir, 'hl.wad'), '--entry', 'logo']);
      expect([logo.width, logo.height]).toEqual([12, 5]);
      expectSamePixels(logo.rgba, expand(pic, palette, 255), 12);
      const glyphs = await exportPng(dir, [join(dir, 'hl.wad'), '--entry', 'FONT1']);
      expect([glyphs.width, glyphs.height]).toEqual([256, 9]);
      expectSamePixels(glyphs.rgba, expand(font, palette, 255), 256);
      const list = JSON.parse((await runCli(['list', join(dir, 'hl.wad'), '--json'])).stdout);
      expect(list.map((e: { type: string }) => e.type)).toEqual(['qpic', 'font']);
      // What a host previewing a lump of the Archive screen uses: the listed type picks the reader.
      const view = await wadLumpDecoder(3, 'font').view('FONT1', hlFont(9, font, palette), quakeContext);
      expect(view).toMatchObject({ kind: 'images', format: 'Half-Life font', palette: 'palette of FONT1' });
    });
  });
});

describe('PCX at other depths', () => {
  const ega = Uint8Array.from({ length: 48 }, (_, i) => (i * 17) % 256);
  const index = (x: number, y: number) => (x * 3 + y * 5) % 16;

  it.each([
    [1, 4, 16],
    [4, 1, 16],
    [2, 1, 4],
    [1, 2, 4],
  ])('%i bit × %i planes: indices into the header palette', async (bits, planes, colours) => {
    const bytes = rawPcx(13, 5, bits, planes, (x, y, p) => (bits === 1 ? ((index(x, y) % colours) >> p) & 1 : index(x, y) % colours), ega);
    const view = await pcxDecoder.view('x.pcx', bytes, quakeContext);
    if (view.kind !== 'images') throw new Error('images');
    const image = view.groups[0]!.frames[0]!.image;
    const expected = new Uint8Array(13 * 5);
    for (let y = 0; y < 5; y++) for (let x = 0; x < 13; x++) expected[y * 13 + x] = index(x, y) % colours;
    expect([image.width, image.height]).toEqual([13, 5]);
    expectSamePixels(image.rgba, expand(expected, ega), 13);
  });

  it('1 bit × 1 plane is black and white; 8 bits × 4 planes is RGBA', async () => {
    const mono = rawPcx(9, 2, 1, 1, (x, y) => (x + y) & 1, ega);
    const monoView = await pcxDecoder.view('m.pcx', mono, quakeContext);
    if (monoView.kind !== 'images') throw new Error('images');
    const expected = Uint8Array.from({ length: 18 }, (_, i) => ((i % 9) + Math.floor(i / 9)) & 1);
    expectSamePixels(monoView.groups[0]!.frames[0]!.image.rgba, expand(expected, new Uint8Array([0, 0, 0, 255, 255, 255])), 9);
    const rgba = rawPcx(3, 2, 8, 4, (x, y, p) => (x * 40 + y * 90 + p * 20) % 256, ega);
    const rgbaView = await pcxDecoder.view('c.pcx', rgba, quakeContext);
    if (rgbaView.kind !== 'images') throw new Error('images');
    const got = rgbaView.groups[0]!.frames[0]!.image.rgba;
    for (let y = 0; y < 2; y++)
      for (let x = 0; x < 3; x++) for (let p = 0; p < 4; p++) expect(got[(y * 3 + x) * 4 + p]).toBe((x * 40 + y * 90 + p * 20) % 256);
  });
});

describe('pack: a folder of PNGs becomes miptex', () => {
  it('WAD3: each texture gets its own palette; exporting mip 0 gives the PNG back; `{` textures keep transparency', async () => {
    await withTemp(async (dir) => {
      const wad = sample('quake-assets', 'halflife', 'hl.wad');
      const lump = readDirectory(wad).lumps[0]!;
      const ref = miptexRef(lumpBytes(wad, lump));
      await mkdir(join(dir, 'in'));
      const original = await exportPng(dir, [quakeAssets('halflife', 'hl.wad'), '--entry', lump.name]);
      await writeFile(join(dir, 'in', `${lump.name}.png`), encodePng(original));
      const holes = {
        width: 16,
        height: 16,
        rgba: Uint8Array.from({ length: 16 * 16 * 4 }, (_, i) => (i % 4 === 3 ? ((i >> 2) % 3 === 0 ? 0 : 255) : (i * 11) % 256)),
      };
      await writeFile(join(dir, 'in', '{fence.png'), encodePng(holes));
      const run = await runCli(['pack', join(dir, 'in'), '--target', join(dir, 'out.wad'), '--format', 'wad3']);
      expect(run.code, run.stderr).toBe(0);
      const written = new Uint8Array(await readFile(join(dir, 'out.wad')));
      const lumps = readDirectory(written).lumps;
      expect(lumps.map((l) => [l.name, l.type])).toEqual([
        [lump.name, 0x43],
        ['{fence', 0x43],
      ]);
      const copy = miptexRef(lumpBytes(written, lumps[0]!));
      expect([copy.name, copy.width, copy.height]).toEqual([ref.name, ref.width, ref.height]);
      const back = await exportPng(dir, [join(dir, 'out.wad'), '--entry', lump.name]);
      expectSamePixels(back.rgba, original.rgba, back.width);
      const fence = await exportPng(dir, [join(dir, 'out.wad'), '--entry', '{fence']);
      for (let p = 0; p < 256; p++) expect(fence.rgba[p * 4 + 3], `pixel ${p}`).toBe(p % 3 === 0 ? 0 : 255);
      // Same folder, same bytes.
      expect((await runCli(['pack', join(dir, 'in'), '--target', join(dir, 'again.wad'), '--format', 'wad3'])).code).toBe(0);
      expect(new Uint8Array(await readFile(join(dir, 'again.wad')))).toEqual(written);
    });
  });

  it('WAD2: mapped to --palette, exact colours keep their index; without a palette, one line and exit 1', async () => {
    await withTemp(async (dir) => {
      const wad = sample('quake-assets', 'quake', 'cr8_czg.wad');
      const lump = readDirectory(wad).lumps[0]!;
      await mkdir(join(dir, 'in'));
      const original = await exportPng(dir, [quakeAssets('quake', 'cr8_czg.wad'), '--entry', lump.name, '--palette', palettePath]);
      await writeFile(join(dir, 'in', `${lump.name}.png`), encodePng(original));
      let run = await runCli(['pack', join(dir, 'in'), '--target', join(dir, 'out.wad'), '--format', 'wad2']);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/--palette/);
      run = await runCli(['pack', join(dir, 'in'), '--target', join(dir, 'out.wad'), '--format', 'wad2', '--palette', palettePath]);
      expect(run.code, run.stderr).toBe(0);
      const written = new Uint8Array(await readFile(join(dir, 'out.wad')));
      const copy = readDirectory(written).lumps[0]!;
      expect([copy.name, copy.type]).toEqual([lump.name, 0x44]);
      const before = miptexRef(lumpBytes(wad, lump));
      const after = miptexRef(lumpBytes(written, copy));
      // Every colour of a Quake texture is in Quake's palette; only a colour listed twice may change index.
      const rgbOf = (i: number) => [...quakePalette.subarray(i * 3, i * 3 + 3)].join();
      after.levels[0]!.indices.forEach((v, i) => expect(rgbOf(v)).toBe(rgbOf(before.levels[0]!.indices[i]!)));
    });
  });
});
