import type { DefinitionKind, DefinitionSource, DefinitionWinner } from '../../shared/vfs-types.js';
import { findSection, getValue, parseTdf, upperAscii, type TdfDocument } from '../../shared/tdf/parse.js';

/**
 * Which definitions TA loads and which one wins. The game lists `features/**\/*.tdf` (with subfolders),
 * `weapons/*.tdf` and `units/*.fbi` (top level only: weapons/old/ is never read) from the loose files first,
 * then every mounted archive in mount order with its entries in stored order, and keeps the first
 * definition of each name. A feature's or weapon's name is its section name; a unit's is `UnitName` in
 * `[UNITINFO]`. Names compare in upper-case ASCII.
 */

export const DEFINITION_KINDS: readonly DefinitionKind[] = ['units', 'weapons', 'features'];

/** Whether a path key (upper-case, forward slashes) is a definition file of this kind. */
export function isDefinitionFile(kind: DefinitionKind, key: string): boolean {
  switch (kind) {
    case 'features':
      return key.startsWith('FEATURES/') && key.endsWith('.TDF');
    case 'weapons':
      return key.startsWith('WEAPONS/') && key.endsWith('.TDF') && key.indexOf('/', 8) < 0;
    case 'units':
      return key.startsWith('UNITS/') && key.endsWith('.FBI') && key.indexOf('/', 6) < 0;
  }
}

/** The names a parsed file defines, in the order they appear. */
export function definedNames(kind: DefinitionKind, doc: TdfDocument): string[] {
  if (kind === 'units') {
    const info = findSection(doc.sections, 'UNITINFO');
    const name = info ? getValue(info, 'UnitName') : undefined;
    return name ? [name] : [];
  }
  return doc.sections.map((s) => s.name).filter((n) => n !== '');
}

export function definedNamesIn(kind: DefinitionKind, bytes: Uint8Array): string[] {
  return definedNames(kind, parseTdf(bytes));
}

/** One definition file as the walk meets it. */
export interface DefinitionFile extends DefinitionSource {
  names: readonly string[];
}

/**
 * The winners, given the files in walk order: the first definition of a name wins, the others are listed
 * as shadowed in the order they were met. Rows come in the order their winners were met.
 */
export function definitionWinners(files: Iterable<DefinitionFile>): DefinitionWinner[] {
  const byName = new Map<string, DefinitionWinner>();
  for (const f of files) {
    for (const name of f.names) {
      const key = upperAscii(name);
      const seen = byName.get(key);
      if (seen) seen.shadowed.push({ file: f.file, archive: f.archive, hiddenBy: 'name' });
      else byName.set(key, { name, file: f.file, archive: f.archive, shadowed: [] });
    }
  }
  return [...byName.values()];
}
