import { basename, join } from 'node:path';
import type { GameId } from '../../shared/vfs-types.js';
import { pathKey } from '../../shared/paths.js';
import { FileSource } from '../io/byte-source.js';
import { detectFormat } from '../formats/index.js';
import { sniffHpi } from '../formats/hpi/index.js';
import { FormatError, fail } from '../../shared/errors.js';
import { HPI_EXTENSIONS, extensionOf, sortNames } from './names.js';
import { pakNumber } from './rules/index.js';

/**
 * Which game a folder belongs to, from its top-level names and, where names do not tell, the first bytes
 * of its archives. Pure decision in `decideGame`; `detectGame` gathers the facts.
 */
export interface GameFacts {
  /** The folder's own name (id1, baseq2, ...). */
  folder: string;
  names: readonly string[];
  /** HPI version per top-level HPI-family archive (1 or 2; 0 when not an HPI). */
  hpiVersions: ReadonlyMap<string, number>;
  /** The format recognised in pak0.pak, if there is one. */
  pak0Format: string | null;
}

export interface DetectedGame {
  game: GameId;
  reason: string;
}

export function decideGame(facts: GameFacts): DetectedGame | null {
  const keys = new Map(facts.names.map((n) => [pathKey(n), n]));
  const has = (key: string) => keys.has(key);
  const folder = pathKey(facts.folder);
  if (has('KINGDOMS.EXE')) return { game: 'tak', reason: `found ${keys.get('KINGDOMS.EXE')}` };
  if (has('TOTALA.EXE')) return { game: 'ta', reason: `found ${keys.get('TOTALA.EXE')}` };
  if (has('REV31.GP3')) return { game: 'ta', reason: `found ${keys.get('REV31.GP3')}` };
  if (has('DAIKATANA.EXE')) return { game: 'daikatana', reason: `found ${keys.get('DAIKATANA.EXE')}` };
  if (has('QUAKE2.EXE') || has('GAMEX86.DLL'))
    return { game: 'quake2', reason: `found ${keys.get('QUAKE2.EXE') ?? keys.get('GAMEX86.DLL')}` };
  const paks = facts.names.filter((n) => pakNumber(n) !== null);
  if (paks.length > 0) {
    if (facts.pak0Format === 'daikatana') return { game: 'daikatana', reason: 'pak0.pak is a Daikatana PAK' };
    if (folder === 'BASEQ2') return { game: 'quake2', reason: 'the folder is baseq2' };
    const numbers = new Set(paks.map((n) => pakNumber(n)!));
    const highest = Math.max(...numbers);
    if (highest <= 9 && !numbers.has(0)) return { game: 'quake2', reason: 'pak files with gaps from pak0 (Quake 2 allows gaps)' };
    return {
      game: 'quake',
      reason: folder === 'ID1' ? 'the folder is id1' : `found ${paks.length} pakN.pak file${paks.length > 1 ? 's' : ''}`,
    };
  }
  const hpis = sortNames(facts.names.filter((n) => HPI_EXTENSIONS.has(extensionOf(n))));
  if (hpis.length > 0) {
    const versions = hpis.map((n) => facts.hpiVersions.get(n) ?? 0);
    const v2 = versions.filter((v) => v === 2).length;
    const v1 = versions.filter((v) => v === 1).length;
    if (v2 > v1) return { game: 'tak', reason: `${v2} of ${hpis.length} archives are HPI v2 (TA: Kingdoms)` };
    if (v1 > 0) return { game: 'ta', reason: `${v1} of ${hpis.length} archives are HPI v1 (Total Annihilation)` };
  }
  return null;
}

/** The HPI version the HPI engine's sniffer reads from the header, or 0 (not HPI, a saved game, unreadable). */
async function hpiVersion(path: string): Promise<number> {
  let source: FileSource | null = null;
  try {
    source = await FileSource.open(path);
    const kind = await sniffHpi(source);
    return kind === 'v1' ? 1 : kind === 'v2' ? 2 : 0;
  } catch {
    return 0;
  } finally {
    await source?.close();
  }
}

const SNIFFS_IN_FLIGHT = 4;

export async function detectGame(root: string, names: readonly string[]): Promise<DetectedGame> {
  let pak0Format: string | null = null;
  const pak0 = names.find((n) => pakNumber(n) === 0);
  if (pak0) {
    const source = await FileSource.open(join(root, pak0));
    try {
      pak0Format = (await detectFormat(source)).engine.id;
    } catch (err) {
      if (!(err instanceof FormatError)) throw err;
    } finally {
      await source.close();
    }
  }
  const facts = { folder: basename(root), names, hpiVersions: new Map<string, number>(), pak0Format };
  // The archives' versions are the last rule: when the names decide (totala.exe, rev31.gp3, ...) they are
  // never read, and otherwise they are read side by side (it was 16 opens one after another on every mount).
  let found = decideGame(facts);
  if (!found) {
    const hpis = names.filter((n) => HPI_EXTENSIONS.has(extensionOf(n)));
    const hpiVersions = new Map<string, number>();
    let next = 0;
    // A few at a time: an open that fails for want of descriptors would read as "not an HPI".
    const sniff = async () => {
      while (next < hpis.length) {
        const n = hpis[next++]!;
        hpiVersions.set(n, await hpiVersion(join(root, n)));
      }
    };
    await Promise.all(Array.from({ length: Math.min(SNIFFS_IN_FLIGHT, hpis.length) }, sniff));
    found = decideGame({ ...facts, hpiVersions });
  }
  if (!found)
    fail(
      'unsupported',
      'cannot tell which game this folder belongs to (no TA, TA: Kingdoms or Quake-family archives at its top level); choose one with --game',
    );
  return found;
}
