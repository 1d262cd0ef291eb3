import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, samplesDir } from '../../helpers/run-cli.js';
import { filesUnder } from '../../helpers/files.js';
import { headerFacts, referenceFrame } from '../../helpers/gaf-reference.js';
import { buildGaf } from '../../helpers/gaf-fixture.js';
import { decodePng } from '../../../shared/assets/png.js';
import { builtInTaPalette } from '../../../shared/assets/ta/palette.js';
import { writeHpi } from '../../../electron/demo/index.js';
import type { Palette } from '../../../shared/assets/image.js';

let work: string;
const sample = (name: string) => join(samplesDir, 'ta', name);
const GAFS = ['gaf/Alien.gaf', 'armimr/textures/ArmImp.gaf', 'armimr/anims/ARMIMR_gadget.gaf', 'gaf/ta3d_truecolour_cortl_gadget.gaf'];

/** The standard palette with every colour inverted: a picture decoded with it is told apart at once. */
function invertedPalette(): { file: Uint8Array; palette: Palette } {
  const std = builtInTaPalette();
  const file = new Uint8Array(1024);
  const rgba = new Uint8Array(1024);
  for (let i = 0; i < 256; i++) {
    for (let c = 0; c < 3; c++) file[i * 4 + c] = rgba[i * 4 + c] = 255 - std.rgba[i * 4 + c]!;
    rgba[i * 4 + 3] = 255;
  }
  return { file, palette: { name: 'inverted', rgba } };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ta-assets-cli-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('modpak gaf list', () => {
  for (const name of GAFS) {
    it(`${name}: the JSON contract, every number from the file's own header`, async () => {
      const run = await runCli(['gaf', 'list', sample(name), '--json']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const known = headerFacts(new Uint8Array(await readFile(sample(name))));
      expect(JSON.parse(run.stdout)).toStrictEqual({
        sequences: known.entries.map((e) => ({
          name: e.name,
          frames: e.frames.map((f) => ({
            width: f.width,
            height: f.height,
            xOffset: f.xOffset,
            yOffset: f.yOffset,
            duration: f.duration,
            layers: Math.max(1, f.subs),
          })),
        })),
      });
    });
  }

  it('says the frames in words without --json', async () => {
    const run = await runCli(['gaf', 'list', sample('armimr/anims/ARMIMR_gadget.gaf')]);
    expect(run.stdout).toMatch(/^ARMIMR {2}\(3 frames\)\n {2}0: 64 × 64 at 0, 0 {2}0 ticks {2}1 layer\n/);
  });

  it('bad input: one line, exit 1', async () => {
    const bad = join(work, 'bad.gaf');
    await writeFile(bad, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]));
    const run = await runCli(['gaf', 'list', bad]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^modpak: .*bad\.gaf: .*not a GAF \(version 0x04030201/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    const missing = await runCli(['gaf', 'list', join(work, 'nope.gaf')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('modpak gaf export', () => {
  for (const name of GAFS.slice(0, 3)) {
    it(`${name}: DIR/<sequence>/<frame>.png, pixel for pixel the test's own decode`, async () => {
      const target = join(work, name.replace(/\W+/g, '_'));
      const run = await runCli(['gaf', 'export', sample(name), '-t', target]);
      expect(run.code).toBe(0);
      const bytes = new Uint8Array(await readFile(sample(name)));
      const known = headerFacts(bytes);
      const expected = known.entries.flatMap((e) => e.frames.map((f, i) => ({ path: `${e.name}/${i}.png`, rec: f.rec })));
      expect(await filesUnder(target)).toEqual(expected.map((e) => e.path).sort());
      for (const { path, rec } of expected) {
        const png = decodePng(new Uint8Array(await readFile(join(target, path))));
        expect(Buffer.from(png.rgba).equals(Buffer.from(referenceFrame(bytes, rec, builtInTaPalette()))), path).toBe(true);
      }
    });
  }

  it('a truecolour GAF exports its own colours', async () => {
    const target = join(work, 'truecolour');
    expect((await runCli(['gaf', 'export', sample('gaf/ta3d_truecolour_cortl_gadget.gaf'), '-t', target])).code).toBe(0);
    const png = decodePng(new Uint8Array(await readFile(join(target, 'cortl/0.png'))));
    expect([png.width, png.height]).toEqual([64, 64]);
  });

  it('--palette decodes with that palette; --apng writes one animated PNG per sequence', async () => {
    const { file, palette } = invertedPalette();
    const pal = join(work, 'inverted.pal');
    await writeFile(pal, file);
    const target = join(work, 'palette');
    expect((await runCli(['gaf', 'export', sample('armimr/anims/ARMIMR_gadget.gaf'), '-t', target, '--palette', pal])).code).toBe(0);
    const bytes = new Uint8Array(await readFile(sample('armimr/anims/ARMIMR_gadget.gaf')));
    const png = decodePng(new Uint8Array(await readFile(join(target, 'ARMIMR/1.png'))));
    expect(Buffer.from(png.rgba).equals(Buffer.from(referenceFrame(bytes, headerFacts(bytes).entries[0]!.frames[1]!.rec, palette)))).toBe(
      true,
    );

    const apng = join(work, 'apng');
    expect((await runCli(['gaf', 'export', sample('armimr/textures/ArmImp.gaf'), '-t', apng, '--apng'])).code).toBe(0);
    expect(await filesUnder(apng)).toEqual(['tex1.png']);
    const animated = await readFile(join(apng, 'tex1.png'));
    expect(animated.includes(Buffer.from('acTL'))).toBe(true);
  });

  it('refuses sequence names that would climb out of DIR and exports the rest', async () => {
    const frame = { width: 2, height: 2, xOffset: 0, yOffset: 0, pixels: new Uint8Array([1, 2, 3, 4]) };
    const file = join(work, 'climb.gaf');
    await writeFile(
      file,
      buildGaf([
        { name: '../escape', frames: [frame] },
        { name: '/abs', frames: [frame] },
        { name: 'fine', frames: [frame] },
      ]),
    );
    const target = join(work, 'climb', 'out');
    const run = await runCli(['gaf', 'export', file, '-t', target]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/refused to export sequence "\.\.\/escape"/);
    expect(run.stderr).toMatch(/refused to export sequence "\/abs"/);
    expect(await filesUnder(join(work, 'climb'))).toEqual(['out/fine/0.png']);
  });
});

describe('--install: FILE in the layered filesystem, the palette from the install', () => {
  let root: string;
  beforeAll(async () => {
    root = join(work, 'install');
    const gaf = new Uint8Array(await readFile(sample('armimr/anims/ARMIMR_gadget.gaf')));
    const alien = new Uint8Array(await readFile(sample('gaf/Alien.gaf')));
    await writeHpi(join(root, 'totala1.hpi'), [
      { path: 'palettes/PALETTE.PAL', data: invertedPalette().file },
      { path: 'anims/ARMIMR_gadget.gaf', data: alien },
    ]);
    await writeHpi(join(root, 'mymod.ufo'), [{ path: 'anims/ARMIMR_gadget.gaf', data: gaf }]);
  });

  it('gaf list reads the winner (mymod.ufo over totala1.hpi)', async () => {
    const run = await runCli(['gaf', 'list', 'anims/armimr_gadget.gaf', '--install', root, '--game', 'ta', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).sequences.map((s: { name: string }) => s.name)).toEqual(['ARMIMR']);
  });

  it("gaf export uses the install's palettes/PALETTE.PAL", async () => {
    const target = join(work, 'from-install');
    const run = await runCli(['gaf', 'export', 'anims/ARMIMR_gadget.gaf', '--install', root, '--game', 'ta', '-t', target]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/palette: palettes\/PALETTE\.PAL from totala1\.hpi/);
    const bytes = new Uint8Array(await readFile(sample('armimr/anims/ARMIMR_gadget.gaf')));
    const png = decodePng(new Uint8Array(await readFile(join(target, 'ARMIMR/0.png'))));
    expect(
      Buffer.from(png.rgba).equals(
        Buffer.from(referenceFrame(bytes, headerFacts(bytes).entries[0]!.frames[0]!.rec, invertedPalette().palette)),
      ),
    ).toBe(true);
  });

  it('pal swatch of the install palette; a missing path is one line, exit 1', async () => {
    const out = join(work, 'swatch.png');
    expect((await runCli(['pal', 'swatch', 'palettes/PALETTE.PAL', '--install', root, '--game', 'ta', '--target', out])).code).toBe(0);
    const png = decodePng(new Uint8Array(await readFile(out)));
    expect([png.width, png.height]).toEqual([256, 256]);
    // Index 17 is the cell at row 1, column 1 (16 px cells).
    const at = (24 * 256 + 24) * 4;
    expect([...png.rgba.subarray(at, at + 4)]).toEqual([...invertedPalette().palette.rgba.subarray(17 * 4, 17 * 4 + 4)]);
    const missing = await runCli(['gaf', 'list', 'anims/NOPE.gaf', '--install', root, '--game', 'ta']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^modpak: .*NOPE\.gaf.*no such file in the install\n$/);
  });
});

describe('modpak pal swatch', () => {
  it('writes a 16 × 16 grid of PALETTE.PAL, index 0 top left', async () => {
    const out = join(work, 'pal.png');
    const run = await runCli(['pal', 'swatch', sample('palettes/PALETTE.PAL'), '--target', out, '--cell', '2']);
    expect(run.code).toBe(0);
    const png = decodePng(new Uint8Array(await readFile(out)));
    const pal = new Uint8Array(await readFile(sample('palettes/PALETTE.PAL')));
    expect([png.width, png.height]).toEqual([32, 32]);
    for (const i of [0, 1, 16, 255]) {
      const at = ((Math.floor(i / 16) * 2 + 1) * 32 + (i % 16) * 2) * 4;
      expect([...png.rgba.subarray(at, at + 4)]).toEqual([pal[i * 4], pal[i * 4 + 1], pal[i * 4 + 2], 255]);
    }
    expect((await runCli(['pal', 'swatch', sample('palettes/PALETTE.PAL'), '--target', out, '--cell', '0'])).code).toBe(2);
    const short = join(work, 'short.pal');
    await writeFile(short, new Uint8Array(10));
    const bad = await runCli(['pal', 'swatch', short, '--target', out]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/1024 bytes .*found 10\n$/);
  });
});
