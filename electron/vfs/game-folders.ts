import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { GameId } from '../../shared/vfs-types.js';
import { pathKey } from '../../shared/paths.js';
import { fail } from '../../shared/errors.js';
import type { ArchiveEntry } from '../formats/index.js';
import { FileSource } from '../io/byte-source.js';
import { detectFormat } from '../formats/index.js';
import type { Layer } from './layers.js';
import type { MountPlan } from './rules/index.js';
import { BASE_FOLDERS, baseFolderGame } from './rules/game-folders.js';
import type { Placement } from './rules/placement.js';

/**
 * A Quake-family game opened at its own folder (~/quake) rather than at its data folder (~/quake/id1):
 * which folders to mount, and how their mounts combine. Each folder is mounted by the game's rules as
 * if it were an install of its own; the mod folder's layers come first, then the base folder's, and every
 * archive is named by its path from the game folder (`id1/pak0.pak`, `mymod/pak0.pak`).
 */
export interface GameFolders {
  game: GameId;
  /** The base folder's name as spelled on disk. */
  base: string;
  /** The mod folder's name as spelled on disk, or null. */
  mod: string | null;
  reason: string;
}

async function subfolders(root: string): Promise<string[]> {
  try {
    return (await readdir(root, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return [];
  }
}

async function isDaikatanaData(dir: string): Promise<boolean> {
  const pak0 = (await readdir(dir).catch(() => [] as string[])).find((n) => pathKey(n) === 'PAK0.PAK');
  if (!pak0) return false;
  const source = await FileSource.open(join(dir, pak0));
  try {
    return (await detectFormat(source)).engine.id === 'daikatana';
  } catch {
    return false;
  } finally {
    await source.close();
  }
}

/**
 * The folders to mount when `root` is a Quake-family game folder (it holds the game's base folder), else
 * null. With `game` given only that game's base folder counts; `mod` must then be a folder beside it.
 */
export async function findGameFolders(root: string, game: GameId | undefined, mod: string | undefined): Promise<GameFolders | null> {
  const folders = await subfolders(root);
  const byKey = new Map(folders.map((f) => [pathKey(f), f]));
  let found: { game: GameId; base: string } | null = null;
  if (game) {
    const want = BASE_FOLDERS[game];
    const base = want ? byKey.get(pathKey(want)) : undefined;
    if (base) found = { game, base };
  } else {
    for (const f of folders) {
      const g = baseFolderGame(pathKey(f));
      if (g) {
        found = { game: g, base: f };
        break;
      }
    }
    const data = byKey.get('DATA');
    if (!found && data && (await isDaikatanaData(join(root, data)))) found = { game: 'daikatana', base: data };
  }
  if (!found) {
    if (mod !== undefined) {
      const want = game ? BASE_FOLDERS[game] : undefined;
      fail(
        'not-found',
        `--mod needs a Quake-family game folder: no ${want ? `${want}/` : 'id1/, baseq2/, data/ or valve/'} folder in ${root}`,
      );
    }
    return null;
  }
  let modName: string | null = null;
  if (mod !== undefined) {
    modName = byKey.get(pathKey(mod)) ?? null;
    if (modName === null) fail('not-found', `no mod folder ${mod} in ${root} (folders there: ${folders.join(', ') || 'none'})`);
    if (pathKey(modName) === pathKey(found.base)) modName = null;
  }
  return { ...found, mod: modName, reason: `found ${found.base}/${modName ? ` and the mod ${modName}/` : ''}` };
}

export interface FolderMount {
  folder: string;
  layers: readonly Layer[];
  plan: MountPlan;
  placement: Placement | null;
}

/** One mount over several folders, highest first: layers renamed to their path from the game folder. */
export function combineFolders(
  game: GameId,
  parts: readonly FolderMount[],
): { layers: Layer[]; plan: MountPlan; placement: Placement | null } {
  const layers: Layer[] = [];
  const plan: MountPlan = { game, mounted: [], ignored: [], looseFirst: parts[0]?.plan.looseFirst ?? false };
  let placement: Placement | null = null;
  for (const part of parts) {
    const named = (name: string) => `${part.folder}/${name}`;
    for (const l of part.layers) {
      layers.push({
        archive: l.archive === null ? null : named(l.archive),
        root: l.root,
        stage: l.stage,
        entries: l.entries,
        read: (e) => l.read(e),
        ...(l.stream ? { stream: (e: ArchiveEntry) => l.stream!(e) } : {}),
        close: () => l.close(),
      });
    }
    plan.mounted.push(...part.plan.mounted.map((m) => ({ ...m, archive: named(m.archive) })));
    plan.ignored.push(...part.plan.ignored.map((i) => ({ ...i, archive: named(i.archive) })));
    if (part.placement) {
      const p = part.placement;
      // Ranks count across folders: every archive of the folders before this one ranks higher.
      const before = parts.slice(0, parts.indexOf(part)).reduce((n, q) => n + q.plan.mounted.length, 0);
      placement = {
        ...p,
        archive: named(p.archive),
        replaces: p.replaces === null ? null : named(p.replaces),
        rank: p.rank < 0 ? -1 : p.rank + before,
      };
    }
  }
  return { layers, plan, placement };
}
