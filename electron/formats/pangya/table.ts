import { fail } from '../../../shared/errors.js';
import type { MetadataCipher, RawEntry } from './layout.js';
import { REGION_KEYS, REGIONS, type PangyaRegion } from './regions.js';
import { TableReading, type Decoded, type PangyaEntry } from './table-reading.js';

export type { PangyaEntry };

/**
 * Deciphering the table: XOR entries need no key; XTEA entries are tried with each region key, and the
 * key that turns the whole table into text names and in-bounds data wins (see `decodeTable`).
 */

export interface DecodedTable {
  entries: PangyaEntry[];
  cipher: MetadataCipher;
  region: PangyaRegion | null;
  /** Every region whose key decodes the table, when more than one does. */
  regionCandidates: PangyaRegion[];
  note?: string;
  warnings: string[];
}

const where = (raw: RawEntry) => `entry ${raw.index} at ${raw.at}`;

/**
 * The region whose key decodes the XTEA entries, and those entries. The table is parsed with each key, and
 * the keys that fit every entry best (see TableReading's `read`) are the candidates: normally exactly one.
 * When the best is only text names, the first is taken with a warning (the bad entries fail when read);
 * when no key gives text names, the table cannot be read.
 */
function findRegion(table: Uint8Array, xtea: readonly RawEntry[], dataLimit: number, warnings: string[]) {
  const reading = new TableReading(table, xtea, dataLimit);
  const candidates: PangyaRegion[] = [];
  let decoded: Decoded[] = [];
  let level = 3;
  for (;;) {
    for (const region of REGIONS) {
      if (!reading.fits(REGION_KEYS[region], level)) continue;
      // The first candidate's reading is turned into entries before the next key overwrites it.
      if (candidates.length === 0) decoded = reading.decoded();
      candidates.push(region);
    }
    if (candidates.length > 0 || level === 1) break;
    level--;
  }
  if (candidates.length === 0) {
    fail('bad-name', `no Pangya region key (${REGIONS.join(', ')}) turns the table into names (first XTEA ${where(xtea[0]!)})`, {
      offset: xtea[0]!.at,
    });
  }
  const region = candidates[0]!;
  if (level === 1) warnings.push(`no region key decodes every entry cleanly; ${region} gives text names`);
  return { region, candidates, decoded };
}

/** Decode every entry of `table` (walked into `raws`), finding the region key for the XTEA ones (see `findRegion`). */
export function decodeTable(table: Uint8Array, raws: readonly RawEntry[], dataLimit: number): DecodedTable {
  const warnings: string[] = [];
  const xtea: RawEntry[] = [];
  const xor: RawEntry[] = [];
  for (const raw of raws) (raw.cipher === 'xtea' ? xtea : xor).push(raw);
  let region: PangyaRegion | null = null;
  let candidates: PangyaRegion[] = [];
  let note: string | undefined;
  let xteaDecoded: Decoded[] = [];
  if (xtea.length > 0) {
    ({ region, candidates, decoded: xteaDecoded } = findRegion(table, xtea, dataLimit, warnings));
    if (candidates.length > 1) note = `region ambiguous: the keys of ${candidates.join(', ')} all decode the table; using ${region}`;
  }
  const xorReading = new TableReading(table, xor, dataLimit);
  xorReading.fits(null, 0);
  const xorDecoded = xorReading.decoded();
  const entries: PangyaEntry[] = [];
  let nextXtea = 0;
  let nextXor = 0;
  for (const raw of raws) {
    const d = raw.cipher === 'xtea' ? xteaDecoded[nextXtea++]! : xorDecoded[nextXor++]!;
    if (d.nameProblem) fail('bad-name', `Pangya ${where(raw)} ${d.nameProblem}`, { offset: raw.at });
    if (d.dataProblem) warnings.push(`${d.entry.path}: ${d.dataProblem}`);
    if (!d.cp949) warnings.push(`${d.entry.path}: name is not valid CP949`);
    entries.push(d.entry);
  }
  if (xtea.length > 0 && xor.length > 0) warnings.push(`table mixes ${xor.length} XOR and ${xtea.length} XTEA entries`);
  return {
    entries,
    cipher: xtea.length > 0 ? 'xtea' : 'xor',
    region,
    regionCandidates: candidates.length > 1 ? candidates : [],
    note,
    warnings: capWarnings(warnings),
  };
}

/** Keep the list readable on a badly damaged table. */
function capWarnings(warnings: string[], max = 20): string[] {
  if (warnings.length <= max) return warnings;
  return [...warnings.slice(0, max), `... and ${warnings.length - max} more`];
}
