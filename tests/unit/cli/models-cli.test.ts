import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, samplesDir } from '../../helpers/run-cli.js';
import { makeMd2Like } from '../../helpers/model-fixtures.js';
import { encodePcx8 } from '../../renderer/pcx-fixture.js';
import { decodePng } from '../../../shared/assets/png.js';

const armimr = join(samplesDir, 'ta/armimr/objects3d/ARMIMR.3do');
const md2 = join(samplesDir, 'quake-assets/quake2/cube.md2');
const dkm = join(samplesDir, 'quake-assets/daikatana/cube.dkm');
const tmp = () => mkdtempSync(join(tmpdir(), 'modpak-models-'));

describe('modpak 3do', () => {
  it('info --json: exactly the contract shape, pieces in pre-order named as the BOS piece line, offsets in game units', async () => {
    const run = await runCli(['3do', 'info', armimr, '--json']);
    expect(run.code).toBe(0);
    const info = JSON.parse(run.stdout) as { pieces: Record<string, unknown>[]; textures: string[] };
    expect(Object.keys(info)).toEqual(['pieces', 'textures']);
    for (const p of info.pieces) expect(Object.keys(p)).toEqual(['name', 'parent', 'offset', 'vertices', 'primitives']);
    const bos = readFileSync(join(samplesDir, 'ta/armimr/scripts/ARMIMR.bos'), 'latin1');
    const names = /^\s*piece\s+([^;]+);/im
      .exec(bos)![1]!
      .split(',')
      .map((s) => s.trim());
    expect(info.pieces.map((p) => String(p.name).toLowerCase()).sort()).toEqual(names.map((n) => n.toLowerCase()).sort());
    // The second object's header: x from parent at +16 (16.16 fixed point), found through the root's child link.
    const bytes = readFileSync(armimr);
    const child = bytes.readUInt32LE(48);
    expect(info.pieces[1]!.offset).toEqual([
      bytes.readInt32LE(child + 16) / 65536,
      bytes.readInt32LE(child + 20) / 65536,
      bytes.readInt32LE(child + 24) / 65536,
    ]);
    expect(info.pieces[1]!.parent).toBe(info.pieces[0]!.name);
    expect(info.textures).toEqual([...new Set(info.textures)].sort());
  });

  it('export writes a GLB, or an OBJ with its MTL, atomically (no temporary files left)', async () => {
    const dir = tmp();
    const glb = await runCli(['3do', 'export', armimr, '--target', join(dir, 'armimr.glb')]);
    expect(glb.code).toBe(0);
    const bytes = readFileSync(join(dir, 'armimr.glb'));
    expect(bytes.readUInt32LE(0)).toBe(0x46546c67);
    expect(bytes.readUInt32LE(8)).toBe(bytes.length);
    const obj = await runCli(['3do', 'export', armimr, '-t', join(dir, 'armimr.obj')]);
    expect(obj.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['armimr.glb', 'armimr.mtl', 'armimr.obj']);
    expect(readFileSync(join(dir, 'armimr.obj'), 'utf8')).toContain('mtllib armimr.mtl');
    expect(obj.stderr).toMatch(/textures not found: /);
  });

  it('bad input: one line, exit 1; a bad target: exit 2', async () => {
    const dir = tmp();
    const broken = join(dir, 'broken.3do');
    writeFileSync(broken, readFileSync(armimr).subarray(0, 60));
    for (const args of [
      ['3do', 'info', broken],
      ['3do', 'info', md2],
      ['3do', 'export', broken, '-t', join(dir, 'x.glb')],
    ]) {
      const run = await runCli(args);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^modpak: .*(broken\.3do|cube\.md2): /);
    }
    expect(readdirSync(dir)).toEqual(['broken.3do']);
    expect((await runCli(['3do', 'export', armimr, '-t', join(dir, 'x.png')])).code).toBe(2);
  });
});

describe('modpak model', () => {
  it.each([
    [md2, 'md2', 0],
    [dkm, 'dkm', 4],
  ] as const)('info --json on %s: the header counts', async (path, format, shift) => {
    const run = await runCli(['model', 'info', path, '--json']);
    expect(run.code).toBe(0);
    const b = readFileSync(path);
    // MD2: skins, vertices, triangles, frames at 20, 24, 32, 40; DKM: 4 bytes later (after its origin, 12 bytes instead of 2 skin-size ints).
    const at = (o: number) => b.readInt32LE(o + shift);
    expect(JSON.parse(run.stdout)).toEqual({ format, skins: at(20), frames: at(40), vertices: at(24), triangles: at(32) });
  });

  it('export --frame: a GLB; a frame past the last is one line, exit 1', async () => {
    const dir = tmp();
    expect((await runCli(['model', 'export', md2, '--target', join(dir, 'cube.glb'), '--frame', '0'])).code).toBe(0);
    expect(readFileSync(join(dir, 'cube.glb')).readUInt32LE(0)).toBe(0x46546c67);
    const past = await runCli(['model', 'export', md2, '--target', join(dir, 'past.glb'), '--frame', '1']);
    expect(past.code).toBe(1);
    expect(past.stderr).toMatch(/^modpak: .*cube\.md2: frame 1 does not exist \(the model has 1 frame\)\n$/);
    const notModel = await runCli(['model', 'info', armimr]);
    expect(notModel.code).toBe(1);
    expect(notModel.stderr).toMatch(/not a Quake MDL/);
    expect((await runCli(['model', 'export', md2, '--target', join(dir, 'x.obj')])).code).toBe(2);
    expect(readdirSync(dir)).toEqual(['cube.glb']);
  });
});

describe('--install: palettes, textures and skins from the install', () => {
  interface GlbJson {
    materials: { name: string; pbrMetallicRoughness: { baseColorFactor: number[]; baseColorTexture?: { index: number } } }[];
    images?: { bufferView: number }[];
    bufferViews: { byteOffset?: number; byteLength: number }[];
  }
  const readGlbJson = (path: string): { json: GlbJson; bin: Buffer } => {
    const b = readFileSync(path);
    const jsonLength = b.readUInt32LE(12);
    return { json: JSON.parse(b.subarray(20, 20 + jsonLength).toString('utf8')) as GlbJson, bin: b.subarray(20 + jsonLength + 8) };
  };

  it('3do: FILE is a path in the install (any case); flat colours come from its PALETTE.PAL', async () => {
    const root = tmp();
    mkdirSync(join(root, 'objects3d'));
    mkdirSync(join(root, 'palettes'));
    copyFileSync(join(samplesDir, 'ta/objects3d/ion4.3do'), join(root, 'objects3d/ARMIMR.3do'));
    // A palette that is not TA's: every colour index i is (i, 255 - i, 7), so the colour shows where it came from.
    const pal = new Uint8Array(1024);
    for (let i = 0; i < 256; i++) pal.set([i, 255 - i, 7, 0], i * 4);
    writeFileSync(join(root, 'palettes/PALETTE.PAL'), pal);
    const direct = await runCli(['3do', 'info', join(samplesDir, 'ta/objects3d/ion4.3do'), '--json']);
    const viaInstall = await runCli(['3do', 'info', 'objects3d/armimr.3do', '--install', root, '--game', 'ta', '--json']);
    expect(viaInstall.code).toBe(0);
    expect(viaInstall.stdout).toBe(direct.stdout);
    const out = join(tmp(), 'a.glb');
    expect((await runCli(['3do', 'export', 'objects3d/ARMIMR.3do', '--install', root, '--game', 'ta', '-t', out])).code).toBe(0);
    const { json } = readGlbJson(out);
    const colours = json.materials.filter((m) => m.name.startsWith('colour '));
    expect(colours.length).toBeGreaterThan(0);
    for (const m of colours) {
      const i = Number(m.name.slice(7));
      expect(m.pbrMetallicRoughness.baseColorFactor).toEqual([i / 255, (255 - i) / 255, 7 / 255, 1]);
    }
  });

  it('model export: an MD2 skin named by path is read from the install (PCX) and embedded as a PNG', async () => {
    const root = tmp();
    mkdirSync(join(root, 'models/a'), { recursive: true });
    writeFileSync(join(root, 'models/a/tris.md2'), makeMd2Like('md2'));
    const palette = new Uint8Array(768);
    for (let i = 0; i < 256; i++) palette.set([i, i, 255 - i], i * 3);
    const pixels = new Uint8Array(64 * 32).map((_, i) => i % 256);
    writeFileSync(join(root, 'models/a/skin.pcx'), encodePcx8(64, 32, pixels, palette));
    const out = join(tmp(), 'm.glb');
    const run = await runCli(['model', 'export', 'models/a/tris.md2', '--install', root, '--game', 'quake2', '-t', out, '--frame', '1']);
    expect(run.code, run.stderr).toBe(0);
    // The second skin (other.pcx) does not exist: named in a warning.
    expect(run.stderr).toMatch(/textures not found: models\/a\/other\.pcx/);
    const { json, bin } = readGlbJson(out);
    const skin = json.materials.find((m) => m.name === 'models/a/skin.pcx')!;
    expect(skin.pbrMetallicRoughness.baseColorTexture).toBeDefined();
    const view = json.bufferViews[json.images![0]!.bufferView]!;
    const png = decodePng(new Uint8Array(bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength)));
    expect([png.width, png.height]).toEqual([64, 32]);
    for (const i of [0, 1, 100, 2047])
      expect(Array.from(png.rgba.subarray(i * 4, i * 4 + 4))).toEqual([i % 256, i % 256, 255 - (i % 256), 255]);
  });
});
