/**
 * Broken game assets, each through the commands that read it. Bases are small real samples (their fields
 * found from their own headers) or files built from the format descriptions:
 * - GAF: u32 version, u32 entries, u32 0, entry pointers; entry {u16 frames, u16 1, u32 0, name[32]} then
 *   8-byte frame entries {u32 record, u32 duration}; record {u16 width, u16 height, i16 x, i16 y, u8
 *   transparency, u8 compressed, u16 sub-frames, u32 0, u32 data, u32 0}.
 * - 3DO: 13 × u32 {version, vertices, primitives, selection, x, y, z, name, 0, vertex array, primitive
 *   array, sibling, child}.
 * - COB: u32 {version, scripts, pieces, code length, 0, 0, script code index, script names, piece names,
 *   code, name area}.
 * - TNT: see electron/demo/tnt-map.ts (u32 version, width, height, grid, attributes, tiles, tile count,
 *   feature count, features, sea level, minimap, …).
 * - PAL: 256 × 4 bytes. qpic .lmp: i32 width, height, pixels. WAL: name[32], u32 width, height, 4 mip
 *   offsets. SPR: 'IDSP', version, type, radius, max width, max height, frames, beam, sync.
 * - BSP 29: version, 15 lumps (offset, length); the texture lump: count, offsets, miptex {name[16], width,
 *   height, 4 offsets}. MDL: 'IDPO', 6, scale, origin, radius, eye, skins, skin width/height, vertices,
 *   triangles, frames, sync, flags, size. MD2: 'IDP2', 8, skin w/h, frame size, counts of skins,
 *   vertices, st, triangles, gl commands, frames, then their offsets and the end. DKM: 'DKMD', version,
 *   origin, frame size, counts, then offsets.
 * - PCX: 0x0A, version, encoding, bits, xmin, ymin, xmax, ymax, …, planes at 65, bytes per line at 66.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { samplesDir } from '../../../helpers/run-cli.js';
import { makeMd2Like, makeMdl } from '../../../helpers/model-fixtures.js';
import { quakeSprite, pixels } from '../../assets/quake/craft.js';
import { exampleTntSpec, writeTnt } from '../../../../electron/demo/tnt-map.js';
import { setBytes, setU32, u32, type CorpusCase, type CorpusCommand } from './corpus-case.js';

const sample = (...parts: string[]) => new Uint8Array(readFileSync(join(samplesDir, ...parts)));
const cut = (bytes: Uint8Array, length: number) => bytes.slice(0, length);
const huge = 0x7fff0000;
const quakePalette = join(samplesDir, 'quake-assets', 'quake', 'gfx', 'palette.lmp');

const gafList: CorpusCommand = (f) => ['gaf', 'list', f];
const gafExport: CorpusCommand = (f, out) => ['gaf', 'export', f, '-t', out];
const modelInfo3do: CorpusCommand = (f) => ['3do', 'info', f];
const modelExport3do: CorpusCommand = (f, out) => ['3do', 'export', f, '-t', `${out}.glb`];
const cobInfo: CorpusCommand = (f) => ['cob', 'info', f];
const cobDecompile: CorpusCommand = (f) => ['cob', 'decompile', f];
const tntInfo: CorpusCommand = (f) => ['tnt', 'info', f];
const tntMinimap: CorpusCommand = (f, out) => ['tnt', 'minimap', f, '-t', `${out}.png`];
const tntRender: CorpusCommand = (f, out) => ['tnt', 'render', f, '-t', `${out}.png`];
const palSwatch: CorpusCommand = (f, out) => ['pal', 'swatch', f, '--target', `${out}.png`];
const imageExport: CorpusCommand = (f, out) => ['image', 'export', f, '--target', `${out}.png`, '--palette', quakePalette];
const bspInfo: CorpusCommand = (f) => ['bsp', 'info', f];
const bspEntities: CorpusCommand = (f) => ['bsp', 'entities', f];
const modelInfo: CorpusCommand = (f) => ['model', 'info', f];
const modelExport: CorpusCommand = (f, out) => ['model', 'export', f, '-t', `${out}.glb`];

const gaf = [gafList, gafExport];
const threeDo = [modelInfo3do, modelExport3do];
const cob = [cobInfo, cobDecompile];
const tnt = [tntInfo, tntMinimap, tntRender];
const bsp = [bspInfo, bspEntities, imageExport];
const model = [modelInfo, modelExport];

function gafCases(): CorpusCase[] {
  const g = sample('ta', 'armimr', 'anims', 'ARMIMR_gadget.gaf');
  const entry = u32(g, 12);
  const record = u32(g, entry + 40);
  return [
    {
      file: 'gaf-truncated-header.gaf',
      bytes: cut(g, 8),
      message: 'entry pointers (1 × 4 bytes) overflows its bounds: 12 + 4 > 8',
      commands: gaf,
    },
    {
      file: 'gaf-bad-version.gaf',
      bytes: setU32(g, 0, 0x00020000),
      message: "not a GAF (version 0x00020000; expected 0x00010100, 0 or TA3D's 0x00010101)",
      commands: gaf,
    },
    {
      file: 'gaf-count-too-large.gaf',
      bytes: setU32(g, 4, 0x00ffffff),
      message: 'entry pointers (16777215 × 4 bytes) overflows its bounds: 12 + 67108860 > 24868',
      commands: gaf,
    },
    {
      file: 'gaf-entry-out-of-range.gaf',
      bytes: setU32(g, 12, huge),
      message: 'entry 0 overflows its bounds: 2147418112 + 40 > 24868',
      commands: gaf,
    },
    {
      file: 'gaf-frame-count-too-large.gaf',
      bytes: setBytes(g, entry, [0xff, 0xff]),
      message: 'entry 0 (ARMIMR) frames (65535 × 8 bytes) overflows its bounds: 56 + 524280 > 24868',
      commands: gaf,
    },
    {
      file: 'gaf-record-out-of-range.gaf',
      bytes: setU32(g, entry + 40, huge),
      message: 'ARMIMR frame 0 overflows its bounds: 2147418112 + 24 > 24868',
      commands: gaf,
    },
    {
      file: 'gaf-frame-data-out-of-range.gaf',
      bytes: setU32(g, record + 16, huge),
      message: 'ARMIMR frame 0: raw pixels overflows its bounds: 2147418112 + 4096 > 24868',
      commands: [gafExport],
    },
    {
      file: 'gaf-frame-too-large.gaf',
      bytes: setBytes(g, record, [0xff, 0x7f, 0xff, 0x7f]),
      message: 'ARMIMR frame 0 claims 32767 × 32767 pixels (at most 4096 a side, 4194304 in all)',
      commands: gaf,
    },
  ];
}

function threeDoCases(): CorpusCase[] {
  const m = sample('ta', 'objects3d', 'ion4.3do'); // one piece, name at 52, vertices at 57, primitives at 417
  const lastName = setBytes(m, m.length - 1, 'x');
  // A tree of pieces (0 means none, so a loop needs a piece below the root): the root's child, and its child.
  const tree = sample('ta', 'objects3d', 'armthund.3do');
  const child = u32(tree, 48);
  const grandchild = u32(tree, child + 48);
  return [
    { file: '3do-truncated-header.3do', bytes: cut(m, 40), message: 'not a 3DO model (no version-1 object header)', commands: threeDo },
    { file: '3do-bad-version.3do', bytes: setU32(m, 0, 7), message: 'not a 3DO model (no version-1 object header)', commands: threeDo },
    {
      file: '3do-cyclic-child.3do',
      bytes: setU32(tree, grandchild + 48, child),
      message: '3DO: object at 4349 is reached twice (the tree has a cycle)',
      commands: threeDo,
    },
    {
      file: '3do-cyclic-sibling.3do',
      bytes: setU32(tree, grandchild + 44, grandchild),
      message: '3DO: object at 7464 is reached twice (the tree has a cycle)',
      commands: threeDo,
    },
    {
      file: '3do-vertex-count-too-large.3do',
      bytes: setU32(m, 4, 0x00ffffff),
      message: '3DO: vertices of "base" (16777215 × 12 bytes) overflows its bounds: 57 + 201326580 > 1633',
      commands: threeDo,
    },
    {
      file: '3do-vertices-out-of-range.3do',
      bytes: setU32(m, 36, huge),
      message: '3DO: vertices of "base" (30 × 12 bytes) overflows its bounds: 2147418112 + 360 > 1633',
      commands: threeDo,
    },
    {
      file: '3do-primitive-count-too-large.3do',
      bytes: setU32(m, 8, 0x00ffffff),
      message: '3DO: primitives of "base" (16777215 × 32 bytes) overflows its bounds: 417 + 536870880 > 1633',
      commands: threeDo,
    },
    {
      file: '3do-name-out-of-range.3do',
      bytes: setU32(m, 28, huge),
      message: '3DO: name of object at 0 overflows its bounds: 2147418112 + 1 > 1633',
      commands: threeDo,
    },
    {
      file: '3do-name-without-terminator.3do',
      bytes: setU32(lastName, 28, m.length - 1),
      message: '3DO: name of object at 0 at 1632 has no terminating NUL within 1 bytes',
      commands: threeDo,
    },
    {
      file: '3do-child-out-of-range.3do',
      bytes: setU32(m, 48, huge),
      message: '3DO: object header at 2147418112 overflows its bounds: 2147418112 + 52 > 1633',
      commands: threeDo,
    },
  ];
}

function cobCases(): CorpusCase[] {
  const c = sample('ta', 'scripts', 'andaca.cob');
  return [
    { file: 'cob-truncated-header.cob', bytes: cut(c, 20), message: 'header overflows its bounds: 0 + 44 > 20', commands: cob },
    {
      file: 'cob-bad-version.cob',
      bytes: setU32(c, 0, 9),
      message: 'version 9 is not a COB version (4 for TA, 6 for TA:Kingdoms)',
      commands: cob,
    },
    {
      file: 'cob-script-count-too-large.cob',
      bytes: setU32(c, 4, 0x00ffffff),
      message: 'script entry table (16777215 × 4 bytes) overflows its bounds: 1456 + 67108860 > 1734',
      commands: cob,
    },
    {
      file: 'cob-piece-count-too-large.cob',
      bytes: setU32(c, 8, 0x00ffffff),
      message: 'piece name table (16777215 × 4 bytes) overflows its bounds: 1560 + 67108860 > 1734',
      commands: cob,
    },
    {
      file: 'cob-code-index-out-of-range.cob',
      bytes: setU32(c, 24, huge),
      message: 'script entry table (13 × 4 bytes) overflows its bounds: 2147418112 + 52 > 1734',
      commands: cob,
    },
    {
      file: 'cob-script-names-out-of-range.cob',
      bytes: setU32(c, 28, huge),
      message: 'script name table (13 × 4 bytes) overflows its bounds: 2147418112 + 52 > 1734',
      commands: cob,
    },
    {
      file: 'cob-piece-names-out-of-range.cob',
      bytes: setU32(c, 32, huge),
      message: 'piece name table (3 × 4 bytes) overflows its bounds: 2147418112 + 12 > 1734',
      commands: cob,
    },
    {
      file: 'cob-code-out-of-range.cob',
      bytes: setU32(c, 36, huge),
      message: 'code (353 × 4 bytes) overflows its bounds: 2147418112 + 1412 > 1734',
      commands: cob,
    },
    {
      file: 'cob-script-start-past-code.cob',
      bytes: setU32(c, u32(c, 24), 0x00ffffff),
      message: 'script 0 (activatescr) starts at word 16777215, past the 353 words of code',
      commands: cob,
    },
  ];
}

function tntCases(): CorpusCase[] {
  const t = writeTnt(exampleTntSpec(4, 4, { tileCount: 4 }));
  return [
    { file: 'tnt-truncated-header.tnt', bytes: cut(t, 40), message: 'a TNT header needs 64 bytes, found 40', commands: tnt },
    { file: 'tnt-bad-version.tnt', bytes: setU32(t, 0, 0x1234), message: "not a TNT map (version 0x1234, TA's is 0x2000)", commands: tnt },
    {
      file: 'tnt-size-too-large.tnt',
      bytes: setU32(setU32(t, 4, 0x10000), 8, 0x10000),
      message: 'map of 32768 × 32768 tiles: 1048576 × 1048576 pixels is not a picture size (at most 67108864 pixels)',
      commands: tnt,
    },
    {
      file: 'tnt-grid-out-of-range.tnt',
      bytes: setU32(t, 12, huge),
      message: 'tile grid (16 × 2 bytes) overflows its bounds: 2147418112 + 32 > 68356',
      commands: tnt,
    },
    {
      file: 'tnt-attributes-out-of-range.tnt',
      bytes: setU32(t, 16, huge),
      message: 'attribute cells (64 × 4 bytes) overflows its bounds: 2147418112 + 256 > 68356',
      commands: tnt,
    },
    {
      file: 'tnt-tiles-out-of-range.tnt',
      bytes: setU32(t, 20, huge),
      message: 'tile graphics (4 × 1024 bytes) overflows its bounds: 2147418112 + 4096 > 68356',
      commands: tnt,
    },
    {
      file: 'tnt-tile-count-too-large.tnt',
      bytes: setU32(t, 24, 0x00ffffff),
      message: 'tile graphics (16777215 × 1024 bytes) overflows its bounds: 352 + 17179868160 > 68356',
      commands: tnt,
    },
    {
      file: 'tnt-feature-count-too-large.tnt',
      bytes: setU32(t, 28, 0x00ffffff),
      message: 'feature table (16777215 × 132 bytes) overflows its bounds: 4448 + 2214592380 > 68356',
      commands: tnt,
    },
    {
      file: 'tnt-minimap-out-of-range.tnt',
      bytes: setU32(t, 40, huge),
      message: 'minimap width overflows its bounds: 2147418112 + 4 > 68356',
      commands: tnt,
    },
    {
      file: 'tnt-minimap-too-large.tnt',
      bytes: setU32(t, u32(t, 40), 0x10000),
      message: 'minimap (65536 × 252 pixels) overflows its bounds: 4852 + 16515072 > 68356',
      commands: tnt,
    },
  ];
}

function palCases(): CorpusCase[] {
  const p = sample('ta', 'palettes', 'PALETTE.PAL');
  return [
    {
      file: 'pal-truncated.pal',
      bytes: cut(p, 1000),
      message: 'a TA palette is 1024 bytes (256 × R, G, B, unused), found 1000',
      commands: [palSwatch],
    },
    {
      file: 'pal-empty.pal',
      bytes: new Uint8Array(0),
      message: 'a TA palette is 1024 bytes (256 × R, G, B, unused), found 0',
      commands: [palSwatch],
    },
  ];
}

function quakeImageCases(): CorpusCase[] {
  const qpic = new Uint8Array([4, 0, 0, 0, 4, 0, 0, 0, ...pixels(16, 1)]);
  const wal = sample('quake-assets', 'quake2', 'textures', 'lavatest.wal');
  const spr = quakeSprite([{ width: 4, height: 4, indices: pixels(16, 2) }]);
  const pcx = sample('ta', 'armimr', 'unitpics', 'Armimr.pcx');
  const wad = sample('quake-assets', 'quake', 'cr8_czg.wad');
  const lump = u32(wad, u32(wad, 8)); // the first lump's data: a miptex {name[16], width, height, …}
  const lumpName = new TextDecoder().decode(wad.subarray(u32(wad, 8) + 16, u32(wad, 8) + 32)).replace(/\0.*$/s, '');
  const wadImage: CorpusCommand = (f, out) => [
    'image',
    'export',
    f,
    '--entry',
    lumpName,
    '--target',
    `${out}.png`,
    '--palette',
    quakePalette,
  ];
  return [
    {
      file: 'lmp-size-past-end.lmp',
      bytes: setU32(qpic, 4, 400),
      message: 'qpic pixels (4 × 400) overflows its bounds: 8 + 1600 > 24',
      commands: [imageExport],
    },
    {
      file: 'lmp-size-too-large.lmp',
      bytes: setU32(setU32(qpic, 0, 0x10000), 4, 0x10000),
      message: '65536 × 65536 pixels is not a picture size (at most 67108864 pixels)',
      commands: [imageExport],
    },
    { file: 'lmp-truncated.lmp', bytes: cut(qpic, 6), message: 'qpic height overflows its bounds: 4 + 4 > 6', commands: [imageExport] },
    {
      file: 'wal-truncated-header.wal',
      bytes: cut(wal, 50),
      message: 'Quake 2 WAL header overflows its bounds: 0 + 100 > 50',
      commands: [imageExport],
    },
    {
      file: 'wal-size-too-large.wal',
      bytes: setU32(setU32(wal, 32, 0x10000), 36, 0x10000),
      message: '65536 × 65536 pixels is not a picture size (at most 67108864 pixels)',
      commands: [imageExport],
    },
    {
      file: 'wal-mip-out-of-range.wal',
      bytes: setU32(wal, 40, huge),
      message: 'mip 0 (64 × 64) overflows its bounds: 2147418112 + 4096 > 5540',
      commands: [imageExport],
    },
    {
      file: 'spr-bad-version.spr',
      bytes: setU32(spr, 4, 9),
      message: "sprite version 9 is not Quake's 1 or Half-Life's 2",
      commands: [imageExport],
    },
    {
      file: 'spr-frame-count-too-large.spr',
      bytes: setU32(spr, 24, 0x00ffffff),
      message: '16777215 frames (1 to 4096)',
      commands: [imageExport],
    },
    {
      file: 'spr-frame-past-end.spr',
      bytes: cut(spr, spr.length - 4),
      message: 'frame at 40 (4 × 4) overflows its bounds: 56 + 16 > 68',
      commands: [imageExport],
    },
    {
      file: 'pcx-bad-manufacturer.pcx',
      bytes: setBytes(pcx, 0, [0x0b]),
      message: 'not a picture this command reads (.lmp .wal .spr .pcx .bsp, or a WAD lump with --entry)',
      commands: [imageExport],
    },
    {
      file: 'pcx-size-too-large.pcx',
      bytes: setBytes(pcx, 8, [0xff, 0xff, 0xff, 0xff]),
      message: 'PCX bytes per line 96 < width 65536',
      commands: [imageExport],
    },
    {
      file: 'pcx-truncated-pixels.pcx',
      bytes: cut(pcx, 300),
      message: 'PCX declares 27648 bytes of pixels, more than 172 bytes of RLE data can hold',
      commands: [imageExport],
    },
    { file: 'pcx-truncated-header.pcx', bytes: cut(pcx, 60), message: 'PCX header needs 128 bytes, file has 60', commands: [imageExport] },
    {
      file: 'wad-miptex-too-large.wad',
      bytes: setU32(setU32(wad, lump + 16, 0x10000), lump + 20, 0x10000),
      message: 'cr8_czg_1: miptex cr8_czg_1: 65536 × 65536 pixels is not a picture size (at most 67108864 pixels)',
      commands: [wadImage],
    },
    {
      file: 'wad-miptex-mip-out-of-range.wad',
      bytes: setU32(wad, lump + 24, huge),
      message: 'cr8_czg_1: miptex cr8_czg_1 mip 0 (64 × 64) overflows its bounds: 2147418112 + 4096 > 5480',
      commands: [wadImage],
    },
  ];
}

function bspCases(): CorpusCase[] {
  const b = sample('quake-assets', 'quake', 'cube.bsp'); // lump 0 entities, lump 2 textures
  const textures = u32(b, 4 + 2 * 8);
  return [
    {
      file: 'bsp-truncated-header.bsp',
      bytes: cut(b, 60),
      message: 'lump directory (15 × 8 bytes) overflows its bounds: 4 + 120 > 60',
      commands: bsp,
    },
    {
      file: 'bsp-bad-version.bsp',
      bytes: setU32(b, 0, 31),
      message: 'not a Quake (29), Half-Life (30), Quake 2 (IBSP 38) or Daikatana (IBSP 41) BSP (starts with version 31)',
      commands: bsp,
    },
    {
      file: 'bsp-entities-past-end.bsp',
      bytes: setU32(b, 4, huge),
      message: 'lump 0 (entities) overflows its bounds: 2147418112 + 30 > 1500',
      commands: bsp,
    },
    {
      file: 'bsp-lump-length-past-end.bsp',
      bytes: setU32(b, 8, 100000),
      message: 'lump 0 (entities) overflows its bounds: 1460 + 100000 > 1500',
      commands: bsp,
    },
    {
      file: 'bsp-texture-count-too-large.bsp',
      bytes: setU32(b, textures, 0x00ffffff),
      message: 'texture lump: texture offsets (16777215 × 4 bytes) overflows its bounds: 4 + 67108860 > 8',
      commands: bsp,
    },
    {
      file: 'bsp-miptex-out-of-range.bsp',
      bytes: setU32(b, textures + 4, huge),
      message: 'texture lump: miptex header overflows its bounds: 2147418112 + 40 > 8',
      commands: bsp,
    },
  ];
}

function modelCases(): CorpusCase[] {
  const mdl = makeMdl();
  const md2 = makeMd2Like('md2');
  const dkm = makeMd2Like('dkm1');
  return [
    { file: 'mdl-truncated-header.mdl', bytes: cut(mdl, 50), message: 'MDL: header overflows its bounds: 0 + 84 > 50', commands: model },
    {
      file: 'mdl-bad-version.mdl',
      bytes: setU32(mdl, 4, 9),
      message: 'MDL: MDL version 9; only version 6 (Quake) is read',
      commands: model,
    },
    {
      file: 'mdl-skin-count-too-large.mdl',
      bytes: setU32(mdl, 48, 0x00ffffff),
      message: 'MDL: skin 12 group intervals (257 × 4 bytes) overflows its bounds: 252 + 1028 > 356',
      commands: model,
    },
    {
      file: 'mdl-vertex-count-too-large.mdl',
      bytes: setU32(mdl, 60, 0x00ffffff),
      message: 'MDL: texture coordinates (16777215 × 12 bytes) overflows its bounds: 128 + 201326580 > 356',
      commands: model,
    },
    {
      file: 'mdl-skin-too-large.mdl',
      bytes: setU32(setU32(mdl, 52, 0x10000), 56, 0x10000),
      message: 'MDL: skin: 65536 × 65536 pixels is not a picture size (at most 67108864 pixels)',
      commands: model,
    },
    {
      file: 'mdl-truncated-frames.mdl',
      bytes: cut(mdl, mdl.length - 10),
      message: 'MDL: frame 1 group frames (2 × 40 bytes) overflows its bounds: 276 + 80 > 346',
      commands: model,
    },
    { file: 'md2-truncated-header.md2', bytes: cut(md2, 40), message: 'MD2: header overflows its bounds: 0 + 64 > 40', commands: model },
    {
      file: 'md2-bad-version.md2',
      bytes: setU32(md2, 4, 9),
      message: 'MD2: MD2 version 9; only version 8 (Quake 2) is read',
      commands: model,
    },
    {
      file: 'md2-frames-out-of-range.md2',
      bytes: setU32(md2, 56, huge),
      message: 'MD2: frames (2 × 52 bytes) overflows its bounds: 2147418112 + 104 > 324',
      commands: model,
    },
    {
      file: 'md2-vertex-count-too-large.md2',
      bytes: setU32(md2, 24, 0x00ffffff),
      message: 'MD2: frames of 52 bytes cannot hold 16777215 vertices (67108900 bytes)',
      commands: model,
    },
    {
      file: 'md2-triangles-out-of-range.md2',
      bytes: setU32(md2, 52, huge),
      message: 'MD2: triangles (1 × 12 bytes) overflows its bounds: 2147418112 + 12 > 324',
      commands: model,
    },
    { file: 'dkm-truncated-header.dkm', bytes: cut(dkm, 60), message: 'DKM: header overflows its bounds: 0 + 76 > 60', commands: model },
    { file: 'dkm-bad-version.dkm', bytes: setU32(dkm, 4, 9), message: 'DKM: DKM version 9; versions 1 and 2 are read', commands: model },
    {
      file: 'dkm-frames-out-of-range.dkm',
      bytes: setU32(dkm, 64, huge),
      message: 'DKM: frames (2 × 52 bytes) overflows its bounds: 2147418112 + 104 > 340',
      commands: model,
    },
    {
      file: 'dkm-frame-count-too-large.dkm',
      bytes: setU32(dkm, 44, 0x00ffffff),
      message: 'DKM: 1 triangles × 16777215 frames is more than a 340-byte model holds',
      commands: model,
    },
  ];
}

export function assetCases(): CorpusCase[] {
  return [
    ...gafCases(),
    ...threeDoCases(),
    ...cobCases(),
    ...tntCases(),
    ...palCases(),
    ...quakeImageCases(),
    ...bspCases(),
    ...modelCases(),
  ];
}
