import type { ConflictReport, DefinitionKind, DefinitionWinner } from '../../shared/vfs-types.js';
import { FormatError } from '../../shared/errors.js';
import { DEFINITION_KINDS, definedNamesIn, definitionWinners, isDefinitionFile, type DefinitionFile } from '../tdf/definitions.js';
import type { Layer } from './layers.js';
import { forEachInFlight } from '../io/folder-writer.js';
import type { Hit, MergedIndex } from './merged-index.js';

/**
 * What the definitions need of a mounted install. MountedInstall is one, and calls in here for its `defs`
 * and `conflicts`, so this module names the few members it reads instead of importing it back.
 */
export interface DefinitionSource {
  readonly index: Pick<MergedIndex, 'all'>;
  readonly layers: readonly Layer[];
  readonly warnings: string[];
  defs(kind: DefinitionKind): Promise<DefinitionWinner[]>;
}
import { upperAscii } from '../../shared/tdf/parse.js';

/**
 * Definition winners over a mounted install. The game walks its folder listing (loose files, then each
 * archive in mount order, entries in stored order) and opens each listed name through the layered
 * filesystem, so a path that a higher layer overrides is read once, from its winner: a hidden copy's
 * definitions never load. The first definition of a name wins (electron/tdf/definitions.ts).
 */
const READ_AHEAD = 8;

/**
 * The definition files of one kind in walk order, each path once (its winner). The index holds each key
 * in the order the walk first met it (layers by priority, entries in stored order), with that first
 * provider, the winner, at the head of its list.
 */
export function definitionFiles(install: DefinitionSource, kind: DefinitionKind): Hit[] {
  const out: Hit[] = [];
  for (const [key, hits] of install.index.all()) if (isDefinitionFile(kind, key)) out.push(hits[0]!);
  return out;
}

/** The copies of definition files that a higher layer's file of the same path hides, in layer order. */
function hiddenCopies(install: DefinitionSource, kind: DefinitionKind): Hit[] {
  const out: Hit[] = [];
  for (const [key, hits] of install.index.all()) if (hits.length > 1 && isDefinitionFile(kind, key)) out.push(...hits.slice(1));
  return out;
}

/** Read each hit's definition names (a few reads in flight; results keep their input position). */
async function readNames(install: DefinitionSource, kind: DefinitionKind, hits: readonly Hit[]): Promise<(DefinitionFile | null)[]> {
  const files: (DefinitionFile | null)[] = new Array(hits.length).fill(null);
  await forEachInFlight(
    hits.map((hit, i) => ({ hit, i })),
    READ_AHEAD,
    async ({ hit, i }) => {
      const layer = install.layers[hit.layer]!;
      try {
        const bytes = await layer.read(hit.entry);
        files[i] = { file: hit.entry.path, archive: layer.archive, names: definedNamesIn(kind, bytes) };
      } catch (err) {
        if (!(err instanceof FormatError)) throw err;
        install.warnings.push(`${layer.archive ?? 'loose file'}: ${hit.entry.path}: ${err.message} (its definitions are skipped)`);
      }
    },
  );
  return files;
}

/**
 * The winners by name, each with what it hides by name and, after those, the definitions of the same name
 * in copies of a definition file that a higher layer hides by path (the game never reads those copies).
 */
export async function collectDefinitions(install: DefinitionSource, kind: DefinitionKind): Promise<DefinitionWinner[]> {
  const files = await readNames(install, kind, definitionFiles(install, kind));
  const rows = definitionWinners(files.filter((f): f is DefinitionFile => f !== null));
  const byName = new Map(rows.map((r) => [upperAscii(r.name), r]));
  for (const copy of await readNames(install, kind, hiddenCopies(install, kind))) {
    if (!copy) continue;
    for (const name of copy.names)
      byName.get(upperAscii(name))?.shadowed.push({ file: copy.file, archive: copy.archive, hiddenBy: 'path' });
  }
  return rows;
}

export async function definitionConflicts(install: DefinitionSource): Promise<ConflictReport['definitions']> {
  const out: ConflictReport['definitions'] = [];
  for (const kind of DEFINITION_KINDS) {
    for (const row of await install.defs(kind)) {
      const providers = [{ file: row.file, archive: row.archive }, ...row.shadowed.map((s) => ({ file: s.file, archive: s.archive }))];
      if (new Set(providers.map((p) => p.archive)).size < 2) continue;
      out.push({ kind, name: row.name, providers });
    }
  }
  return out;
}
