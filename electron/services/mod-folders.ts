import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { GameId, ModFolders } from '../../shared/vfs-types.js';
import { pathKey } from '../../shared/paths.js';
import { findGameFolders } from '../vfs/game-folders.js';

/**
 * The mod folders a Quake-family game folder offers (the studio's mod-folder picker): the folders beside
 * the base data folder (id1, baseq2, data, valve) that hold paks or loose game files, as `-game DIR`
 * would mount them. Dot-folders and folders holding neither (docs, saves of other tools) are left out.
 * A root that is no Quake-family game folder has none.
 */

/** Top-level files a mod folder holds besides paks (Quake's progs.dat, configs, maps or wads put at its top). */
const LOOSE_TOP = /\.(dat|cfg|bsp|mdl|md2|dkm|spr|sp2|wad|wal|lmp|tga|pcx|wav|bmp)$/i;
/** How many entries are looked at per folder, at most: the picker needs a count, not a census. */
const LOOK_AT = 2000;
const DEPTH = 4;

export async function listModFolders(rootIn: string, game?: GameId): Promise<ModFolders> {
  const root = resolve(rootIn);
  const found = await findGameFolders(root, game, undefined);
  if (!found) return { game: null, base: null, folders: [] };
  const folders: ModFolders['folders'] = [];
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const d of entries.filter((e) => e.isDirectory()).sort((a, b) => (pathKey(a.name) < pathKey(b.name) ? -1 : 1))) {
    if (d.name.startsWith('.') || pathKey(d.name) === pathKey(found.base)) continue;
    const held = await contents(join(root, d.name));
    if (held.paks > 0 || held.looseFiles > 0) folders.push({ name: d.name, ...held });
  }
  return { game: found.game, base: found.base, folders };
}

async function contents(dir: string): Promise<{ paks: number; looseFiles: number }> {
  let paks = 0;
  let looseFiles = 0;
  let seen = 0;
  const walk = async (at: string, depth: number): Promise<void> => {
    const items = await readdir(at, { withFileTypes: true }).catch(() => []);
    for (const item of items) {
      if (++seen > LOOK_AT) return;
      if (item.isDirectory()) {
        if (depth < DEPTH && !item.name.startsWith('.')) await walk(join(at, item.name), depth + 1);
      } else if (item.isFile()) {
        if (depth === 0 && /\.pak$/i.test(item.name)) paks++;
        else if (depth > 0 || LOOSE_TOP.test(item.name)) looseFiles++;
      }
    }
  };
  await walk(dir, 0);
  return { paks, looseFiles };
}
