import { realpath } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { GameId } from '../../shared/vfs-types.js';
import { pathKey } from '../../shared/paths.js';
import type { Archive } from '../formats/index.js';
import { entryChunks } from '../formats/archive.js';
import { detectGame } from './detect.js';
import { listTopLevel, listTree, looseLayer, requireFolder } from './folder.js';
import type { Layer } from './layers.js';
import { MergedIndex } from './merged-index.js';
import { MountedInstall, type GameChoice } from './mounted-install.js';
import { probeArchive, type ProbeResult } from './probe.js';
import type { ArchivePool, PooledProbe } from './archive-pool.js';
import { gameRules, type Candidate, type FolderListing, type PlannedArchive } from './rules/index.js';
import { placementOf, type Placement } from './rules/placement.js';
import { combineFolders, findGameFolders, type FolderMount, type GameFolders } from './game-folders.js';

/** A Quake-family game folder: the mod folder mounted over the base folder, each by the game's rules. */
async function mountGameFolders(root: string, folders: GameFolders, options: MountOptions): Promise<MountedInstall> {
  const choice: GameChoice = options.game
    ? { game: options.game, source: 'given', reason: null }
    : { game: folders.game, source: 'detected', reason: folders.reason };
  const order = folders.mod ? [folders.mod, folders.base] : [folders.base];
  const extraIn = folders.mod ?? folders.base;
  const parts: FolderMount[] = [];
  try {
    for (const folder of order) {
      const m = await mountInstall(join(root, folder), {
        game: folders.game,
        pool: options.pool,
        onProgress: options.onProgress,
        extra: folder === extraIn ? options.extra : undefined,
      });
      parts.push({ folder, layers: m.layers, plan: m.plan, placement: m.placement });
    }
  } catch (err) {
    await Promise.all(parts.flatMap((p) => p.layers.map((l) => l.close())));
    throw err;
  }
  const combined = combineFolders(folders.game, parts);
  return new MountedInstall(root, choice, null, combined.plan, new MergedIndex(combined.layers, options.previous), combined.placement);
}

export interface MountOptions {
  /** The game context; detected from the folder when absent. */
  game?: GameId;
  /** TA: the game disc's folder (default: the install folder itself). */
  disc?: string;
  /** TA: no disc at all. */
  noDisc?: boolean;
  /**
   * A hypothetical archive, mounted as if it had been copied to the top of the install under its own file
   * name (replacing an archive of that name): where it would rank and what it would change.
   */
  extra?: string;
  /**
   * Archives kept open from an earlier mount of this install: unchanged ones are reused instead of opened
   * again (an incremental re-mount). Layers then give their archive back to the pool when closed.
   */
  pool?: ArchivePool;
  /**
   * The index of the mount this one replaces: its path numbering and the keys of the archives both hold
   * are reused, so only a changed archive's paths are hashed (with `pool`, an incremental re-mount).
   */
  previous?: MergedIndex;
  /** Called as candidates are probed (a long re-mount's progress). */
  onProgress?: (done: number, total: number) => void;
  /**
   * Quake family opened at the game's folder: a mod folder under it, mounted over the base folder (id1,
   * baseq2, data, valve). The hypothetical `extra` archive then lands in the mod folder (else the base).
   */
  mod?: string;
}

const PROBES_IN_FLIGHT = 4;

async function sameFolder(a: string, b: string): Promise<boolean> {
  return (await realpath(a)) === (await realpath(b));
}

function archiveLayer(planned: PlannedArchive, archive: Archive, release?: () => Promise<void>): Layer {
  return {
    archive: planned.archive,
    root: planned.root,
    stage: planned.stage,
    entries: archive.entries,
    read: (entry) => archive.read(entry),
    stream: (entry) => entryChunks(archive, entry),
    close: release ?? (() => archive.close()),
  };
}

/**
 * Mount an install: list its top level (and the disc's), choose the game, run each candidate's mount test,
 * plan the order with the game's rules, and build the merged index over the archives and the loose files.
 */
export async function mountInstall(rootIn: string, options: MountOptions = {}): Promise<MountedInstall> {
  const root = resolve(rootIn);
  await requireFolder(root, 'install folder');
  const folders = await findGameFolders(root, options.game, options.mod);
  if (folders) return mountGameFolders(root, folders, options);
  const names = await listTopLevel(root);

  let choice: GameChoice;
  if (options.game) choice = { game: options.game, source: 'given', reason: null };
  else {
    const found = await detectGame(root, names);
    choice = { game: found.game, source: 'detected', reason: found.reason };
  }
  const rules = gameRules[choice.game];

  let disc: FolderListing['disc'] = null;
  let discDir: string | null = null;
  if (choice.game === 'ta' && !options.noDisc) {
    disc = 'install';
    if (options.disc) {
      const dir = resolve(options.disc);
      await requireFolder(dir, 'disc folder');
      if (!(await sameFolder(dir, root))) {
        discDir = dir;
        disc = await listTopLevel(dir);
      }
    }
  }

  const extraPath = options.extra ? resolve(options.extra) : null;
  const extraName = extraPath ? basename(extraPath) : null;
  const replaced = extraName ? (names.find((n) => pathKey(n) === pathKey(extraName)) ?? null) : null;
  const install = extraName ? [...names.filter((n) => n !== replaced), extraName] : names;
  const tree = await listTree(root, (path) => !path.includes('/') && rules.isArchiveName(path));
  const nested = tree.filter((f) => f.path.includes('/')).map((f) => f.path);
  const listing: FolderListing = { install, nested, disc };
  const baseListing: FolderListing = { install: names, nested, disc };

  // The hypothetical archive is probed under its own key, so an archive it replaces keeps its own result.
  const key = (c: Candidate, extra = false) => `${extra ? 'extra' : c.root}\0${c.name}`;
  const isExtra = (c: Candidate) => extraName !== null && c.root === 'install' && c.name === extraName;
  const pathOf = (c: Candidate, extra: boolean) => (extra ? extraPath! : c.root === 'disc' ? join(discDir!, c.name) : join(root, c.name));
  const todo = new Map<string, string>();
  for (const c of rules.candidates(listing)) todo.set(key(c, isExtra(c)), pathOf(c, isExtra(c)));
  if (extraName) for (const c of rules.candidates(baseListing)) todo.set(key(c), pathOf(c, false));
  const jobs = [...todo];
  const results = new Map<string, ProbeResult | PooledProbe>();
  const pool = options.pool;
  let next = 0;
  let probed = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const [k, path] = jobs[next++]!;
      // The hypothetical archive is never pooled: it is not part of the install.
      const isExtraJob = k.startsWith('extra\0');
      results.set(k, pool && !isExtraJob ? await pool.acquire(choice.game, path) : await probeArchive(choice.game, path));
      options.onProgress?.(++probed, jobs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PROBES_IN_FLIGHT, jobs.length) }, worker));

  const notCandidate = { ok: false, reason: 'not a candidate of this game' };
  const resultOf = (c: Candidate) => results.get(key(c, isExtra(c)));
  const plan = rules.plan(listing, (r, name) => resultOf({ root: r, name }) ?? notCandidate);
  let placement: Placement | null = null;
  if (extraName) {
    const basePlan = rules.plan(baseListing, (r, name) => results.get(key({ root: r, name })) ?? notCandidate);
    placement = placementOf(basePlan, plan, extraName, replaced);
  }
  const used = new Set(plan.mounted.map((p) => ({ root: p.root, name: p.archive })).map((c) => key(c, isExtra(c))));
  const release = (r: ProbeResult | PooledProbe) => ('release' in r ? r.release() : r.archive?.close());
  await Promise.all([...results].filter(([k, r]) => !used.has(k) && (r.archive || 'release' in r)).map(([, r]) => release(r)));

  const archives = plan.mounted.map((p) => {
    const r = resultOf({ root: p.root, name: p.archive })!;
    return archiveLayer(p, r.archive!, 'release' in r ? r.release : undefined);
  });
  const loose = looseLayer(root, tree);
  const layers = plan.looseFirst ? [loose, ...archives] : [...archives, loose];
  const mounted = new MountedInstall(root, choice, discDir, plan, new MergedIndex(layers, options.previous), placement);
  for (const i of plan.ignored) {
    const failure = results.get(key({ root: i.root, name: i.archive }))?.ioError;
    if (failure) mounted.unreadable.push({ archive: i.archive, error: failure });
  }
  return mounted;
}
