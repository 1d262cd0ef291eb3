import { describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../helpers/run-cli.js';
import { decodePng } from '../../../../shared/assets/png.js';
import { bspDecoder } from '../../../../shared/assets/quake/views.js';
import { countedPalette, expand, expectSamePixels, i32, miptexRef, quakeAssets, sample } from './reference.js';
import { ibsp, q1bsp } from './craft.js';
import { lumpBytes, readDirectory } from '../../formats/wad/wad-directory.js';

/**
 * `modpak bsp info|entities` and the BSP view: version, textures, entity text and lump counts checked
 * against the files' own lump directory, read here from the format description.
 */

const Q1_LUMPS = [
  'entities',
  'planes',
  'textures',
  'vertexes',
  'visibility',
  'nodes',
  'texinfo',
  'faces',
  'lighting',
  'clipnodes',
  'leafs',
  'marksurfaces',
  'edges',
  'surfedges',
  'models',
];
const Q1_SIZES: Record<string, number> = {
  planes: 20,
  vertexes: 12,
  nodes: 24,
  texinfo: 40,
  faces: 20,
  clipnodes: 8,
  leafs: 28,
  marksurfaces: 2,
  edges: 4,
  surfedges: 4,
  models: 64,
};

function referenceQ1(bytes: Uint8Array) {
  const lump = (i: number) => ({ offset: i32(bytes, 4 + i * 8), length: i32(bytes, 8 + i * 8) });
  const ents = lump(0);
  const text = String.fromCharCode(...bytes.subarray(ents.offset, ents.offset + ents.length)).replace(/\0.*$/s, '');
  const tex = lump(2);
  const textures = [];
  if (tex.length > 0) {
    const count = i32(bytes, tex.offset);
    for (let i = 0; i < count; i++) {
      const at = i32(bytes, tex.offset + 4 + i * 4);
      if (at >= 0) textures.push(miptexRef(bytes, tex.offset + at));
    }
  }
  const lumps: Record<string, number> = {};
  Q1_LUMPS.forEach((name, i) => {
    if (name === 'entities' || name === 'textures') return;
    lumps[name] = Q1_SIZES[name] ? lump(i).length / Q1_SIZES[name]! : lump(i).length;
  });
  return { version: i32(bytes, 0), text, textures, lumps, entityCount: (text.match(/^\{/gm) ?? []).length };
}

const context = (palette?: Uint8Array) => ({
  palette: async () => ({
    name: 'gfx/palette.lmp from the test',
    rgba: Uint8Array.from({ length: 1024 }, (_, i) => (i % 4 === 3 ? 255 : (palette?.[Math.floor(i / 4) * 3 + (i % 4)] ?? 0))),
  }),
  readFile: async () => null,
  list: async () => [],
});

describe.each([
  ['quake/cube.bsp', 29],
  ['halflife/hl.bsp', 30],
])('%s', (file, version) => {
  const bytes = sample('quake-assets', ...file.split('/'));
  const ref = referenceQ1(bytes);

  it('bsp info --json: version, textures, entity count and lump counts as the lump directory says', async () => {
    expect(ref.version).toBe(version);
    const run = await runCli(['bsp', 'info', quakeAssets(...file.split('/')), '--json']);
    expect(run.code, run.stderr).toBe(0);
    const info = JSON.parse(run.stdout);
    expect(info).toEqual({
      version,
      textures: ref.textures.map((t) => ({ name: t.name, width: t.width, height: t.height })),
      entities: ref.entityCount,
      lumps: ref.lumps,
    });
    expect(ref.entityCount).toBeGreaterThan(0);
  });

  it('bsp entities prints the entity lump', async () => {
    const run = await runCli(['bsp', 'entities', quakeAssets(...file.split('/'))]);
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd()).toBe(ref.text.trimEnd());
    expect(run.stdout).toMatch(/"classname" "worldspawn"/);
  });

  it('the view: a textures grid, the entities as text, facts with the lump counts', async () => {
    const view = await bspDecoder.view(file, bytes, context(sample('quake-assets', 'quake', 'gfx', 'palette.lmp')));
    expect(view.kind).toBe('sections');
    if (view.kind !== 'sections') return;
    const embedded = ref.textures.filter((t) => t.offsets.some((o) => o !== 0));
    // No empty grid for a map that embeds no texture (cube.bsp).
    expect(view.sections.map((s) => s.title)).toEqual(embedded.length > 0 ? ['Textures', 'Entities'] : ['Entities']);
    const entities = view.sections.at(-1)!.view;
    expect(entities).toMatchObject({ kind: 'text', language: 'entities', text: ref.text });
    const facts = Object.fromEntries(view.facts.map((f) => [f.label, f.value]));
    expect(facts.Version).toBe(String(version));
    expect(facts.faces).toBe(String(ref.lumps.faces));
    if (embedded.length === 0) return;
    const textures = view.sections[0]!.view;
    if (textures.kind !== 'images') throw new Error('textures are pictures');
    expect(textures.groups[0]!.frames.map((f) => f.label)).toEqual(embedded.map((t) => `${t.name} (${t.width} × ${t.height})`));
  });
});

describe('Quake BSP textures, built here from cr8_czg.wad miptex', () => {
  it('exports each embedded texture with the Quake palette; a missing slot (-1) is skipped', async () => {
    const wad = sample('quake-assets', 'quake', 'cr8_czg.wad');
    const [first, second] = readDirectory(wad).lumps.map((l) => lumpBytes(wad, l));
    const bytes = q1bsp('{\n"classname" "worldspawn"\n}\n', [first!, null, second!]);
    const dir = await mkdtemp(join(tmpdir(), 'modpak-q1bsp-'));
    try {
      await writeFile(join(dir, 'm.bsp'), bytes);
      const info = JSON.parse((await runCli(['bsp', 'info', join(dir, 'm.bsp'), '--json'])).stdout);
      const refs = [miptexRef(first!), miptexRef(second!)];
      expect(info.textures).toEqual(refs.map((r) => ({ name: r.name, width: r.width, height: r.height })));
      const palette = sample('quake-assets', 'quake', 'gfx', 'palette.lmp');
      for (const [frame, ref] of refs.entries()) {
        const run = await runCli([
          'image',
          'export',
          join(dir, 'm.bsp'),
          '--frame',
          String(frame),
          '--palette',
          quakeAssets('quake', 'gfx', 'palette.lmp'),
          '--target',
          join(dir, `${frame}.png`),
        ]);
        expect(run.code, run.stderr).toBe(0);
        const png = decodePng(new Uint8Array(await readFile(join(dir, `${frame}.png`))));
        expectSamePixels(png.rgba, expand(ref.levels[0]!.indices, palette), png.width);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('Half-Life BSP textures', () => {
  it('exports an embedded texture with its own palette; a texture kept in a WAD is named, not drawn', async () => {
    const bytes = sample('quake-assets', 'halflife', 'hl.bsp');
    const ref = referenceQ1(bytes);
    const embedded = ref.textures.filter((t) => t.offsets.some((o) => o !== 0));
    const external = ref.textures.filter((t) => t.offsets.every((o) => o === 0));
    expect(embedded.length).toBeGreaterThan(0);
    expect(external.length).toBeGreaterThan(0);
    const dir = await mkdtemp(join(tmpdir(), 'modpak-bsp-'));
    try {
      const target = join(dir, 't.png');
      const run = await runCli(['image', 'export', quakeAssets('halflife', 'hl.bsp'), '--frame', '0', '--target', target]);
      expect(run.code, run.stderr).toBe(0);
      const png = decodePng(new Uint8Array(await readFile(target)));
      const first = embedded[0]!;
      expect([png.width, png.height]).toEqual([first.width, first.height]);
      expectSamePixels(
        png.rgba,
        expand(first.levels[0]!.indices, countedPalette(bytes, first.paletteAt), first.name.startsWith('{') ? 255 : -1),
        png.width,
      );
      const view = await bspDecoder.view('hl.bsp', bytes, context());
      if (view.kind !== 'sections') throw new Error('sections');
      expect(view.sections[0]!.view.warnings.join(' ')).toContain(external[0]!.name);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.each([
  [38, 'Quake 2'],
  [41, 'Daikatana'],
] as const)('IBSP version %i (%s), built here', (version, _game) => {
  const entities = '{\n"classname" "worldspawn"\n"message" "a { brace in a string"\n}\n{\n"classname" "info_player_start"\n}\n';
  const bytes = ibsp(version, entities, ['e1u1/floor1_1', 'e1u1/wall2', 'E1U1/FLOOR1_1', 'e1u1/sky']);

  it('bsp info names each texinfo texture once, with its WAL size from the install', async () => {
    const root = await mkdtemp(join(tmpdir(), 'modpak-ibsp-'));
    try {
      await mkdir(join(root, 'baseq2', 'maps'), { recursive: true });
      await writeFile(join(root, 'baseq2', 'maps', 'test.bsp'), bytes);
      await mkdir(join(root, 'baseq2', 'textures', 'e1u1'), { recursive: true });
      // The sample WAL, under one of the map's names: its header holds the size bsp info reports.
      const wal = sample('quake-assets', 'quake2', 'textures', 'lavatest.wal');
      await writeFile(join(root, 'baseq2', 'textures', 'e1u1', 'wall2.wal'), wal);
      let run = await runCli(['bsp', 'info', join(root, 'baseq2', 'maps', 'test.bsp'), '--json']);
      expect(run.code, run.stderr).toBe(0);
      let info = JSON.parse(run.stdout);
      expect(info.version).toBe(version);
      expect(info.entities).toBe(2);
      expect(info.textures).toEqual([
        { name: 'e1u1/floor1_1', width: null, height: null },
        { name: 'e1u1/wall2', width: null, height: null },
        { name: 'e1u1/sky', width: null, height: null },
      ]);
      expect(info.lumps).toMatchObject({ planes: 2, vertexes: 3, nodes: 5, texinfo: 4, faces: 7, leafs: 9, edges: 12, models: 14 });
      run = await runCli(['bsp', 'info', 'maps/test.bsp', '--install', join(root, 'baseq2'), '--game', 'quake2', '--json']);
      expect(run.code, run.stderr).toBe(0);
      info = JSON.parse(run.stdout);
      expect(info.textures[1]).toEqual({ name: 'e1u1/wall2', width: i32(wal, 32), height: i32(wal, 36) });
      run = await runCli(['bsp', 'entities', join(root, 'baseq2', 'maps', 'test.bsp')]);
      expect(run.stdout).toBe(entities);
      // The same map inside a PAK, named with --entry.
      expect((await runCli(['pack', join(root, 'baseq2'), '--target', join(root, 'pak0.pak')])).code).toBe(0);
      run = await runCli(['bsp', 'entities', join(root, 'pak0.pak'), '--entry', 'maps/test.bsp']);
      expect(run.stdout).toBe(entities);
      expect(JSON.parse((await runCli(['bsp', 'info', join(root, 'pak0.pak'), '--entry', 'maps/test.bsp', '--json'])).stdout).version).toBe(
        version,
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('broken BSPs', () => {
  it('a lump past the end, or an unknown version: one line, exit 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modpak-badbsp-'));
    try {
      const bytes = sample('quake-assets', 'halflife', 'hl.bsp').slice();
      new DataView(bytes.buffer).setInt32(4 + 7 * 8 + 4, 1 << 30, true);
      await writeFile(join(dir, 'a.bsp'), bytes);
      const other = bytes.slice();
      new DataView(other.buffer).setInt32(0, 31, true);
      await writeFile(join(dir, 'b.bsp'), other);
      for (const [name, message] of [
        ['a.bsp', /lump 7 \(faces\) overflows/],
        ['b.bsp', /version 31/],
      ] as const) {
        const run = await runCli(['bsp', 'info', join(dir, name)]);
        expect(run.code).toBe(1);
        expect(run.stderr.trim().split('\n')).toHaveLength(1);
        expect(run.stderr).toMatch(message);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
