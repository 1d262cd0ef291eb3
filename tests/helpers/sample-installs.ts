import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packBytes, writeArchive, writeHpi, type DemoFile } from '../../electron/demo/writer.js';
import { demoTntSpec, writeOta, writeTnt } from '../../electron/demo/tnt-map.js';
import { makeMd2Like, makeMdl } from './model-fixtures.js';
import { daikatanaWal, pixels, q1bsp, quakeSprite } from '../unit/assets/quake/craft.js';
import { lumpBytes, readDirectory } from '../unit/formats/wad/wad-directory.js';

/**
 * Installs made of the real sample assets (../shared/samples), for the browser tests and the viewer
 * benchmark: every viewer gets a real file inside a real mount, and a path or two is shadowed so the
 * Layering compare has two of a kind. The samples themselves are only read.
 */
export const samplesDir = fileURLToPath(new URL('../../../shared/samples/', import.meta.url));
const sample = async (path: string) => new Uint8Array(await readFile(join(samplesDir, path)));

/**
 * A TA install: totala1.hpi holds ARMIMR whole (model, textures, gadget, script, FBI, build picture), more
 * models and GAFs, the palette and a map; rev31.gp3 (which wins) replaces objects3d/screamer.3do with
 * another model and textures/Alien.gaf with ARMIMR's texture GAF, so both compare as two of a kind.
 */
export async function taSamplesInstall(dir: string): Promise<string> {
  const ta = (path: string) => sample(`ta/${path}`);
  const map = demoTntSpec();
  const base: DemoFile[] = [
    { path: 'palettes/PALETTE.PAL', data: await ta('palettes/PALETTE.PAL') },
    { path: 'objects3d/ARMIMR.3do', data: await ta('armimr/objects3d/ARMIMR.3do') },
    { path: 'objects3d/ARMIMR_dead.3do', data: await ta('armimr/objects3d/ARMIMR_dead.3do') },
    { path: 'textures/ArmImp.gaf', data: await ta('armimr/textures/ArmImp.gaf') },
    { path: 'anims/ARMIMR_gadget.gaf', data: await ta('armimr/anims/ARMIMR_gadget.gaf') },
    { path: 'scripts/ARMIMR.cob', data: await ta('armimr/scripts/ARMIMR.cob') },
    { path: 'units/ARMIMR.fbi', data: await ta('armimr/units/ARMIMR.fbi') },
    { path: 'unitpics/ARMIMR.pcx', data: await ta('armimr/unitpics/Armimr.pcx') },
    { path: 'objects3d/screamer.3do', data: await ta('objects3d/screamer.3do') },
    { path: 'textures/Alien.gaf', data: await ta('gaf/Alien.gaf') },
    { path: 'anims/cortl_gadget.gaf', data: await ta('gaf/ta3d_truecolour_cortl_gadget.gaf') },
    { path: 'maps/Great Divide.tnt', data: writeTnt(map.spec) },
    { path: 'maps/Great Divide.ota', data: writeOta('Great Divide', map.starts) },
  ];
  const patch: DemoFile[] = [
    { path: 'objects3d/screamer.3do', data: await ta('objects3d/armthund.3do') },
    { path: 'textures/Alien.gaf', data: await ta('armimr/textures/ArmImp.gaf') },
  ];
  await mkdir(dir, { recursive: true });
  await writeHpi(join(dir, 'totala1.hpi'), base);
  await writeHpi(join(dir, 'rev31.gp3'), patch);
  await writeFile(join(dir, 'totala.ini'), '[Preferences]\r\nSound=1\r\n');
  return dir;
}

/** The samples have no Daikatana WAL, sprite or MDL: those are built from the format descriptions, on this grey ramp. */
const grey = Uint8Array.from({ length: 768 }, (_, i) => Math.floor(i / 3));

/**
 * A Quake game folder (`quake/id1`): pak0.pak is the real quakespasm PAK (gfx/conback.lmp); pak1.pak (which
 * wins) holds the palettes, Quake 2 and Daikatana WALs, a sprite, the models, both BSPs (and a Quake one with
 * embedded textures) and a shadowed copy
 * of textures/lavatest.wal (pak2.pak's b_pv_v1a1 wins it); the WAD2 and WAD3 lie loose in id1 for the
 * Archive screen. Returns the game folder.
 */
export async function quakeSamplesInstall(dir: string): Promise<string> {
  const q = (path: string) => sample(`quake-assets/${path}`);
  const id1 = join(dir, 'id1');
  await mkdir(id1, { recursive: true });
  await copyFile(join(samplesDir, 'pak/quake/quakespasm-0.95.1.pak'), join(id1, 'pak0.pak'));
  const dk = daikatanaWal('e1m1/dk_wall', 32, 32, grey, { anim: 'e1m1/dk_wall2', flags: 0, contents: 1, value: 0 });
  const sprite = quakeSprite([
    { width: 16, height: 16, indices: pixels(256, 1) },
    {
      group: [
        { width: 16, height: 16, indices: pixels(256, 2) },
        { width: 16, height: 16, indices: pixels(256, 3) },
      ],
      intervals: [0.1, 0.2],
    },
  ]);
  // A map that embeds textures (cube.bsp keeps its own in a WAD): two of cr8_czg.wad's miptex.
  const wad = await q('quake/cr8_czg.wad');
  const miptex = readDirectory(wad)
    .lumps.slice(0, 2)
    .map((lump) => lumpBytes(wad, lump));
  const textured = q1bsp('{\n"classname" "worldspawn"\n"wad" "cr8_czg.wad"\n}\n{\n"classname" "light"\n"origin" "0 0 64"\n}\n', miptex);
  const pak1: DemoFile[] = [
    { path: 'gfx/palette.lmp', data: await q('quake/gfx/palette.lmp') },
    { path: 'pics/colormap.pcx', data: await q('quake2/pics/colormap.pcx') },
    { path: 'textures/lavatest.wal', data: await q('quake2/textures/lavatest.wal') },
    { path: 'textures/dk_wall.wal', data: dk.bytes },
    { path: 'progs/flame.spr', data: sprite },
    { path: 'progs/player.mdl', data: makeMdl() },
    { path: 'models/cube.md2', data: await q('quake2/cube.md2') },
    { path: 'models/cube.dkm', data: await q('daikatana/cube.dkm') },
    // The sample cubes hold no triangle; these have one, skinned with models/a/skin.pcx.
    { path: 'models/tri.md2', data: makeMd2Like('md2') },
    { path: 'models/tri.dkm', data: makeMd2Like('dkm2') },
    { path: 'models/a/skin.pcx', data: await q('quake2/pics/colormap.pcx') },
    { path: 'maps/cube.bsp', data: await q('quake/cube.bsp') },
    { path: 'maps/textured.bsp', data: textured },
    { path: 'maps/hl.bsp', data: await q('halflife/hl.bsp') },
  ];
  await writeArchive(join(id1, 'pak1.pak'), await packBytes('pak', pak1, {}));
  await writeArchive(
    join(id1, 'pak2.pak'),
    await packBytes('pak', [{ path: 'textures/lavatest.wal', data: await q('quake2/textures/b_pv_v1a1.wal') }], {}),
  );
  await copyFile(join(samplesDir, 'quake-assets/quake/cr8_czg.wad'), join(id1, 'cr8_czg.wad'));
  await copyFile(join(samplesDir, 'quake-assets/halflife/hl.wad'), join(id1, 'hl.wad'));
  return dir;
}
