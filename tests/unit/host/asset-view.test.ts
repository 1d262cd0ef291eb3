import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { samplesDir } from '../../helpers/run-cli.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoInstall, demoSpriteGaf } from '../../../electron/demo/index.js';
import { createStudioHost } from '../../../electron/services/handlers/index.js';
import type { Envelope, StudioHost } from '../../../electron/services/host/host.js';
import type { AssetViewResult } from '../../../shared/contract.js';
import { decodeAssetView, encodeAssetView } from '../../../shared/assets/wire.js';
import { readGaf } from '../../../shared/assets/ta/gaf.js';
import { renderGafFrame } from '../../../shared/assets/ta/gaf-pixels.js';
import { builtInTaPalette } from '../../../shared/assets/ta/palette.js';
import type { AssetView } from '../../../shared/assets/view.js';
import { quakeSamplesInstall } from '../../helpers/sample-installs.js';
import { lumpBytes, readDirectory } from '../formats/wad/wad-directory.js';
import { expand, miptexRef, sample } from '../assets/quake/reference.js';

let base: string;
let root: string;
let host: StudioHost;

function ok<T>(answer: Envelope): T {
  if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return answer.result as T;
}
const images = (r: AssetViewResult) => {
  const view = decodeAssetView(r.view!);
  if (view.kind !== 'images') throw new Error(view.kind);
  return view;
};

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'asset-view-'));
  root = await generateDemoInstall(join(base, 'TA'));
  host = await createStudioHost({ facts: { version: '1', host: 'web', initialRoot: root, demo: true }, recentFile: null, warm: false });
});
afterAll(async () => {
  await host?.close();
  await rm(base, { recursive: true, force: true });
});

describe('asset.view', () => {
  it("the winner, decoded with the install's palette, in the wire form", async () => {
    const result = ok<AssetViewResult>(await host.call('asset.view', { root, path: 'anims/demofx.gaf' }));
    expect(result.decoder).toBe('gaf');
    expect(result.origin).toBe('anims/demofx.gaf from rev31.gp3');
    const view = images(result);
    expect(view.palette).toBe('palettes/PALETTE.PAL from totala1.hpi');
    expect(view.groups.map((g) => [g.name, g.frames.length])).toEqual([
      ['demofx', 7],
      ['demofx_still', 1],
    ]);
    // The same pixels a direct decode of the generator's bytes gives (the demo palette is the standard one).
    const bytes = demoSpriteGaf('demofx', 208);
    const gaf = readGaf(bytes);
    const last = renderGafFrame(bytes, gaf.variant, gaf.sequences[0]!.frames[6]!, builtInTaPalette());
    expect(Buffer.from(view.groups[0]!.frames[6]!.image.rgba).equals(Buffer.from(last.rgba))).toBe(true);
    expect(view.groups[0]!.frames[0]!.durationMs).toBe(67);
  });

  it('a shadowed provider by name, and an archive entry without an install', async () => {
    const shadowed = images(ok<AssetViewResult>(await host.call('asset.view', { root, path: 'anims/DEMOFX.gaf', archive: 'totala1.hpi' })));
    const winner = images(ok<AssetViewResult>(await host.call('asset.view', { root, path: 'anims/DEMOFX.gaf' })));
    expect(Buffer.from(shadowed.groups[0]!.frames[0]!.image.rgba).equals(Buffer.from(winner.groups[0]!.frames[0]!.image.rgba))).toBe(false);
    const entry = ok<AssetViewResult>(await host.call('asset.view', { file: join(root, 'totala1.hpi'), entry: 'palettes/PALETTE.PAL' }));
    expect(entry.decoder).toBe('pal');
    expect(entry.origin).toBe('palettes/PALETTE.PAL in totala1.hpi');
  });

  it('a file without an asset decoder has no view; bad requests and bad bytes are errors', async () => {
    const text = ok<AssetViewResult>(await host.call('asset.view', { root, path: 'docs/readme.txt' }));
    expect([text.decoder, text.view]).toEqual([null, null]);
    const both = await host.call('asset.view', { root, path: 'x', file: join(root, 'totala1.hpi') });
    expect(both.ok).toBe(false);
    const missing = await host.call('asset.view', { root, path: 'anims/NOPE.gaf' });
    expect(!missing.ok && missing.error.message).toMatch(/no such file in the install/);
    const outside = await host.call('asset.view', { file: '/etc/passwd', entry: 'x' });
    expect(!outside.ok && outside.error.code).toBe('not-allowed');
  });
});

describe('the wire form', () => {
  it('round-trips typed arrays of every view shape through JSON', () => {
    const view: AssetView = {
      kind: 'sections',
      format: 'test',
      facts: [{ label: 'a', value: 'b' }],
      warnings: [],
      sections: [
        {
          title: 'pictures',
          view: {
            kind: 'images',
            format: 'x',
            facts: [],
            warnings: [],
            groups: [{ name: 'g', frames: [{ image: { width: 1, height: 1, rgba: new Uint8Array([1, 2, 3, 4]) }, durationMs: 5 }] }],
          },
        },
        {
          title: 'model',
          view: {
            kind: 'model',
            format: 'm',
            facts: [],
            warnings: [],
            missingTextures: ['t'],
            mesh: {
              up: 'y',
              materials: [{ name: 'm', color: [1, 2, 3, 4] }],
              pieces: [
                {
                  name: 'p',
                  parent: null,
                  offset: [0, 1, 2],
                  primitives: [{ material: 0, positions: new Float32Array([0.5, -1.25, 3e9]), uvs: new Float32Array([0, 1]) }],
                },
              ],
            },
          },
        },
      ],
    };
    const back = decodeAssetView(JSON.parse(JSON.stringify(encodeAssetView(view))));
    expect(back).toEqual(view);
    if (back.kind !== 'sections' || back.sections[1]!.view.kind !== 'model') throw new Error('shape');
    expect(back.sections[1]!.view.mesh.pieces[0]!.primitives[0]!.positions).toBeInstanceOf(Float32Array);
  });
});

describe('Quake-family previews through the same call', () => {
  it("a Quake 2 WAL of a game folder, decoded with the install's colormap.pcx palette, at its own size", async () => {
    const q2 = join(base, 'quake2');
    await mkdir(join(q2, 'baseq2', 'pics'), { recursive: true });
    await mkdir(join(q2, 'baseq2', 'textures'), { recursive: true });
    const samples = join(samplesDir, 'quake-assets', 'quake2');
    await copyFile(join(samples, 'pics', 'colormap.pcx'), join(q2, 'baseq2', 'pics', 'colormap.pcx'));
    await copyFile(join(samples, 'textures', 'lavatest.wal'), join(q2, 'baseq2', 'textures', 'lavatest.wal'));
    ok(await host.call('install.open', { root: q2, game: 'quake2' }));
    const result = ok<AssetViewResult>(await host.call('asset.view', { root: q2, path: 'textures/lavatest.wal' }));
    expect(result.decoder).toBe('wal');
    // The WAL header: a 32-byte name, then width and height (u32 LE).
    const wal = await readFile(join(samples, 'textures', 'lavatest.wal'));
    const view = images(result);
    expect([view.groups[0]!.frames[0]!.image.width, view.groups[0]!.frames[0]!.image.height]).toEqual([
      wal.readUInt32LE(32),
      wal.readUInt32LE(36),
    ]);
    expect(view.palette).toMatch(/colormap\.pcx/);
  });
});

describe('files inside archives, as the Archive screen previews them', () => {
  let game: string;
  beforeAll(async () => {
    game = await quakeSamplesInstall(join(base, 'quake'));
    ok(await host.call('install.open', { root: game }));
  });

  it("a WAD2 lump is decoded by its directory type, with the open install's palette, named", async () => {
    const wad = join(game, 'id1', 'cr8_czg.wad');
    const bytes = await readFile(wad);
    const first = readDirectory(new Uint8Array(bytes)).lumps[0]!;
    const result = ok<AssetViewResult>(await host.call('asset.view', { file: wad, entry: first.name, paletteRoot: game }));
    expect(result.decoder).toBe('wad2-lump');
    const view = images(result);
    expect(view.palette).toBe('gfx/palette.lmp from id1/pak1.pak');
    // mip 0 from the lump's own header, coloured from palette.lmp: a decode written here.
    const ref = miptexRef(lumpBytes(new Uint8Array(bytes), first));
    const rgb = sample('quake-assets', 'quake', 'gfx', 'palette.lmp');
    expect(Buffer.from(view.groups[0]!.frames[0]!.image.rgba).equals(Buffer.from(expand(ref.levels[0]!.indices, rgb)))).toBe(true);
    // Without an install to lend one, a WAD2 has no palette: said, not guessed.
    const alone = await host.call('asset.view', { file: wad, entry: first.name });
    expect(!alone.ok && alone.error.message).toMatch(/gfx\/palette\.lmp/);
  });

  it('a WAD3 lump carries its own palette; a PAK entry takes the palette the PAK itself holds', async () => {
    const hl = images(ok<AssetViewResult>(await host.call('asset.view', { file: join(game, 'id1', 'hl.wad'), entry: 'bongs2' })));
    expect(hl.palette).toBe('palette of bongs2');
    const pic = ok<AssetViewResult>(await host.call('asset.view', { file: join(game, 'id1', 'pak1.pak'), entry: 'progs/flame.spr' }));
    expect(images(pic).palette).toBe('gfx/palette.lmp from pak1.pak');
    // gfx/conback.lmp inside the quakespasm PAK (which has no palette): the install's.
    const conback = ok<AssetViewResult>(
      await host.call('asset.view', { file: join(game, 'id1', 'pak0.pak'), entry: 'gfx/conback.lmp', paletteRoot: game }),
    );
    expect(images(conback).palette).toBe('gfx/palette.lmp from id1/pak1.pak');
  });
});
