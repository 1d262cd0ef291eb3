import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { feature, sectionsTdf, unitFbi, weapon } from './content.js';
import { writeHpi, type DemoFile } from './writer.js';
import { prng } from '../../shared/prng.js';

/**
 * A full-size TA install for benchmarks and the studio's large-tree tests: `archives` archives (rev31.gp3,
 * one .ccx, two .ufo, the rest .hpi, so two or more fall to the disc stage past the ten slots) holding
 * `entries` files in all, spread over units/*.fbi, weapons/*.tdf, features/**\/*.tdf and the binary
 * folders of a real install, with about one path in ten overridden by a higher archive. Deterministic.
 */
export interface FullInstallOptions {
  archives?: number;
  entries?: number;
  /** HPI chunk method (default lz77, as Cavedog's archives). */
  method?: 'lz77' | 'zlib' | 'none';
  /**
   * Real bytes for files of the asset folders (anims, textures: GAF; objects3d: 3DO), e.g. sample files:
   * called for each such file; where it gives nothing, the file is opaque data named `.dat`.
   */
  assets?: (folder: string, n: number) => Uint8Array | undefined;
}

const ASSET_FOLDERS = new Set(['anims', 'textures', 'objects3d']);

const BINARY_FOLDERS = ['anims', 'bitmaps', 'sounds', 'maps', 'textures', 'objects3d', 'scripts', 'gamedata', 'guis', 'palettes'];
const BINARY_EXT: Record<string, string> = {
  anims: 'gaf',
  bitmaps: 'pcx',
  sounds: 'wav',
  maps: 'tnt',
  textures: 'gaf',
  objects3d: '3do',
  scripts: 'cob',
  gamedata: 'tdf',
  guis: 'gui',
  palettes: 'pal',
};
const WORLDS = ['all worlds', 'green', 'desert', 'lava', 'arctic', 'urban', 'moon', 'water', 'metal', 'crystal'];

function archiveNames(count: number): string[] {
  if (count < 4) throw new Error('a full install has at least 4 archives (gp3, ccx, two ufo)');
  const names = ['rev31.gp3', 'btdata.ccx', 'AFark.ufo', 'zeta.ufo'];
  for (let i = 0; names.length < count; i++) names.push(i < 10 ? `totala${String(i).padStart(2, '0')}.hpi` : `worlds${i - 10}.hpi`);
  return names;
}

/** Bytes that compress like game data: runs and repeats with some noise. */
function binary(rand: () => number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let i = 0;
  while (i < size) {
    const run = 1 + Math.floor(rand() * 24);
    const value = rand() < 0.5 ? 0 : Math.floor(rand() * 256);
    for (let j = 0; j < run && i < size; j++) out[i++] = rand() < 0.1 ? Math.floor(rand() * 256) : value;
  }
  return out;
}

function makeFile(rand: () => number, n: number, tag: string, assets?: FullInstallOptions['assets']): DemoFile {
  const kind = rand();
  if (kind < 0.04)
    return { path: `units/U${n}.fbi`, data: unitFbi(`U${n}`, `Unit ${n} (${tag})`, { BuildCostMetal: String(Math.floor(rand() * 900)) }) };
  if (kind < 0.05)
    return {
      path: `weapons/W${n}.tdf`,
      data: sectionsTdf({ [`W${n}_A`]: weapon(Math.floor(rand() * 200)), [`W${n}_B`]: weapon(Math.floor(rand() * 200)) }, tag),
    };
  if (kind < 0.08) {
    const world = WORLDS[Math.floor(rand() * WORLDS.length)]!;
    return { path: `features/${world}/F${n}.tdf`, data: sectionsTdf({ [`F${n}`]: feature(world, `feature ${n} (${tag})`) }) };
  }
  const folder = BINARY_FOLDERS[Math.floor(rand() * BINARY_FOLDERS.length)]!;
  const data = binary(rand, 64 + Math.floor(rand() * 1500));
  if (assets && ASSET_FOLDERS.has(folder)) {
    const real = assets(folder, n);
    return { path: `${folder}/sub${n % 37}/${folder}${n}.${real ? BINARY_EXT[folder] : 'dat'}`, data: real ?? data };
  }
  return { path: `${folder}/sub${n % 37}/${folder}${n}.${BINARY_EXT[folder]}`, data };
}

/** Write the full install into `dir`; returns the archive names in the order written. */
export async function generateFullInstall(dir: string, options: FullInstallOptions = {}): Promise<string[]> {
  const archives = options.archives ?? 16;
  const entries = options.entries ?? 60_000;
  const rand = prng(0x7a0031c);
  const names = archiveNames(archives);
  const perArchive = Math.floor(entries / archives);
  await mkdir(dir, { recursive: true });
  // Files are numbered globally; an overriding file reuses the path of a file made for a later archive.
  const made: DemoFile[][] = names.map(() => []);
  let n = 0;
  for (let a = names.length - 1; a >= 0; a--) {
    const count = a === 0 ? entries - perArchive * (archives - 1) : perArchive;
    for (let i = 0; i < count; i++) {
      const lower = made.slice(a + 1).find((files) => files.length > i);
      if (lower && rand() < 0.1) {
        const base = lower[Math.floor(rand() * lower.length)]!;
        const again = makeFile(rand, n++, names[a]!, options.assets);
        made[a]!.push({ path: base.path, data: again.data });
      } else made[a]!.push(makeFile(rand, n++, names[a]!, options.assets));
    }
  }
  for (let a = 0; a < names.length; a++) await writeHpi(join(dir, names[a]!), made[a]!, { method: options.method ?? 'lz77' });
  await writeFile(join(dir, 'totala.ini'), '[Preferences]\r\nSound=1\r\n');
  return names;
}
