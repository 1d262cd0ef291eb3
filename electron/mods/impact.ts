import { basename, resolve } from 'node:path';
import type { ExportImpact } from '../../shared/mods-types.js';
import type { DefinitionKind, DefinitionWinner, GameId } from '../../shared/vfs-types.js';
import { pathKey } from '../../shared/paths.js';
import { mountInstall } from '../vfs/mount.js';
import type { MountedInstall } from '../vfs/mounted-install.js';
import type { ArchivePool } from '../vfs/archive-pool.js';
import { DEFINITION_KINDS, definedNamesIn, isDefinitionFile } from '../tdf/definitions.js';

/**
 * What copying an archive to the top of an install would change, computed before anything is written:
 * the install is mounted as it is and again with the archive added (the layered filesystem's `extra`),
 * and the two are compared. Where the archive ranks, which .hpi it pushes out of the ten slots, which of
 * its files something ranked higher hides, which paths it wins, and which definitions it wins or loses.
 */

export interface ImpactOptions {
  game?: GameId;
  /** Quake family: the mod folder the archive would be copied into. */
  mod?: string;
  disc?: string;
  noDisc?: boolean;
}

/**
 * `current`: the install as it is, mounted already (the studio's cached mount), so only the hypothetical
 * mount is made here; without it both are. `pool`: the archives `current` holds open, so the hypothetical
 * mount opens only the archive being added.
 */
export async function exportImpact(
  rootIn: string,
  archivePath: string,
  options: ImpactOptions = {},
  current?: MountedInstall,
  pool?: ArchivePool,
): Promise<ExportImpact> {
  const root = resolve(rootIn);
  const name = basename(archivePath);
  const before = current ?? (await mountInstall(root, options));
  try {
    const after = await mountInstall(root, { ...options, extra: resolve(archivePath), pool });
    try {
      return await compare(before, after, name);
    } finally {
      await after.close();
    }
  } finally {
    if (!current) await before.close();
  }
}

async function compare(before: MountedInstall, after: MountedInstall, name: string): Promise<ExportImpact> {
  // Rank, stage, the .hpi pushed out of the ten slots and the archive replaced: the layered filesystem's own placement.
  const placement = after.placement!;
  const impact: ExportImpact = {
    archive: placement.archive,
    stage: placement.stage ?? 'ignored',
    // 1-based, as every text says it ("rank 1", "position 1"); -1 when it would not be mounted.
    rank: placement.rank < 0 ? -1 : placement.rank + 1,
    pushesOut: placement.pushesOut,
    hidden: [],
    wins: [],
    definitions: [],
    replaces: placement.replaces,
  };
  if (placement.rank < 0) {
    impact.ignoredReason = placement.reason;
    return impact;
  }

  const replaced = placement.replaces === null ? null : pathKey(placement.replaces);
  const isReplaced = (l: { root: string; archive: string | null }) =>
    replaced !== null && l.root === 'install' && l.archive !== null && pathKey(l.archive) === replaced;
  // The archive by the name it mounts under (a game folder's mod folder prefixes it: mymod/pak1.pak).
  const layerIndex = after.layers.findIndex(
    (l) => l.root === 'install' && l.archive !== null && pathKey(l.archive) === pathKey(placement.archive),
  );
  const layer = after.layers[layerIndex]!;
  const seen = new Set<string>();
  for (const entry of layer.entries) {
    if (entry.dir) continue;
    const k = pathKey(entry.path);
    if (seen.has(k)) continue;
    seen.add(k);
    const winner = after.index.lookupKey(k)![0]!;
    if (winner.layer !== layerIndex) {
      impact.hidden.push({ path: entry.path, by: after.layers[winner.layer]!.archive });
    } else {
      // What the game loads today, passing over the archive this one replaces (a re-export does not beat itself).
      const was = before.index.lookupKey(k)?.find((h) => !isReplaced(before.layers[h.layer]!));
      impact.wins.push({ path: entry.path, over: was ? (before.layers[was.layer]!.archive ?? '(loose file)') : null });
    }
  }

  if (after.game === 'ta') {
    const hiddenKeys = new Set(impact.hidden.map((h) => pathKey(h.path)));
    const hiddenEntries = layer.entries.filter((e) => !e.dir && hiddenKeys.has(pathKey(e.path)));
    for (const kind of DEFINITION_KINDS) {
      impact.definitions.push(...(await definitionOutcomes(kind, before, after, name)));
      // A definition file hidden by a higher path never loads at all: each of its names loses too.
      const hiddenDefs = hiddenEntries.filter((e) => isDefinitionFile(kind, pathKey(e.path)));
      if (hiddenDefs.length === 0) continue;
      const winners = new Map((await after.defs(kind)).map((d) => [pathKey(d.name), d]));
      for (const entry of hiddenDefs) {
        for (const defined of definedNamesIn(kind, await layer.read(entry))) {
          const winner = winners.get(pathKey(defined));
          if (impact.definitions.some((d) => d.kind === kind && pathKey(d.name) === pathKey(defined))) continue;
          impact.definitions.push({ kind, name: defined, outcome: 'loses', against: winner ? (winner.archive ?? '(loose file)') : null });
        }
      }
    }
  }
  return impact;
}

async function definitionOutcomes(kind: DefinitionKind, before: MountedInstall, after: MountedInstall, name: string) {
  const mine = (archive: string | null) => archive !== null && pathKey(archive) === pathKey(name);
  const was = new Map<string, DefinitionWinner>((await before.defs(kind)).map((d) => [pathKey(d.name), d]));
  const out: ExportImpact['definitions'] = [];
  for (const row of await after.defs(kind)) {
    if (mine(row.archive)) {
      const prior = was.get(pathKey(row.name));
      // Winning against the archive being replaced (a re-export) is no change of winner.
      const against = prior && !mine(prior.archive) ? (prior.archive ?? '(loose file)') : null;
      out.push({ kind, name: row.name, outcome: 'wins', against });
    } else if (row.shadowed.some((s) => mine(s.archive))) {
      out.push({ kind, name: row.name, outcome: 'loses', against: row.archive ?? '(loose file)' });
    }
  }
  return out;
}
