import type { ArchiveEntry } from '../archive.js';
import { fail } from '../../../shared/errors.js';
import { normalizeArchivePath } from '../../../shared/paths.js';
import { KIND_DIR, KIND_STORED, type MetadataCipher, type RawEntry, type StorageKind } from './layout.js';
import { LZ_MAX_RATIO } from './lz77.js';
import { decodeName, hasControlBytes, trimNamePadding } from './names.js';
import { REGION_KEYS, REGIONS, type PangyaRegion } from './regions.js';
import { xorBytes, xorSize } from './xor.js';
import { xteaDecipher, xteaDecipherWords, type XteaKey } from './xtea.js';

/**
 * Deciphering the table: XOR entries need no key; XTEA entries are tried with each region key, and the
 * key that turns the whole table into text names and in-bounds data wins (see `decodeTable`).
 */

export interface PangyaEntry extends ArchiveEntry {
  readonly index: number;
  /** The name as stored (its own separators), decoded from CP949. */
  readonly name: string;
  readonly offset: number;
  readonly kind: StorageKind;
  readonly cipher: MetadataCipher;
}

const METHOD: Record<StorageKind, string> = { 0: 'stored', 1: 'lz77', 2: 'dir', 3: 'lz77x' };

interface Decoded {
  entry: PangyaEntry;
  /** The name is not text: with XTEA, the wrong key; with XOR, a corrupt table. */
  nameProblem: string | null;
  /** Data out of bounds or sizes that cannot be true; reading the entry will fail. */
  dataProblem: string | null;
  cp949: boolean;
  /** A directory whose (offset, realSize) block deciphers to (0, 0), as writers leave it. */
  cleanDir: boolean;
}

/** The entry's offset and real size, deciphered with `key` (XTEA) or unmasked (XOR). */
function dataFields(raw: RawEntry, key: XteaKey | null): [offset: number, realSize: number] {
  return raw.cipher === 'xtea' ? xteaDecipherWords(raw.offset, raw.realSize, key!) : [raw.offset, xorSize(raw.realSize)];
}

/** Why the entry's data cannot be as declared, or null. */
function dataProblemOf(raw: RawEntry, offset: number, realSize: number, dataLimit: number): string | null {
  if (raw.kind === KIND_DIR) return null;
  if (offset + raw.packedSize > dataLimit) return `data overflows the data area: ${offset} + ${raw.packedSize} > ${dataLimit}`;
  if (raw.kind === KIND_STORED && realSize !== raw.packedSize)
    return `is stored but declares ${realSize} bytes for ${raw.packedSize} packed`;
  if (raw.kind !== KIND_STORED && realSize > raw.packedSize * LZ_MAX_RATIO)
    return `declares ${realSize} bytes, more than LZ77 can make of ${raw.packedSize} packed`;
  return null;
}

function decodeEntry(raw: RawEntry, key: XteaKey | null, dataLimit: number): Decoded {
  const [offset, realSize] = dataFields(raw, key);
  let nameBytes: Uint8Array;
  if (raw.cipher === 'xtea') nameBytes = trimNamePadding(xteaDecipher(raw.name.slice(), key!));
  else {
    nameBytes = xorBytes(raw.name);
    let end = nameBytes.length;
    while (end > 0 && nameBytes[end - 1] === 0) end--;
    nameBytes = nameBytes.subarray(0, end);
  }
  // A name with control bytes is refused whatever it decodes to (most wrong keys give one): not decoding
  // it keeps the CP949 tables unbuilt for archives whose names are ASCII.
  const controlBytes = hasControlBytes(nameBytes);
  const { text, cp949 } = controlBytes ? { text: '', cp949: false } : decodeName(nameBytes);
  const path = normalizeArchivePath(text);
  let nameProblem: string | null = null;
  if (nameBytes.length === 0) nameProblem = 'has an empty name';
  else if (controlBytes) nameProblem = 'has a name with control bytes';
  else if (path === '') nameProblem = `has a name with no path in it (${JSON.stringify(text)})`;

  const dir = raw.kind === KIND_DIR;
  const dataProblem = dataProblemOf(raw, offset, realSize, dataLimit);
  const entry: PangyaEntry = {
    path,
    dir,
    size: dir ? 0 : realSize,
    packedSize: dir ? 0 : raw.packedSize,
    method: METHOD[raw.kind],
    index: raw.index,
    name: text,
    offset,
    kind: raw.kind,
    cipher: raw.cipher,
  };
  return { entry, nameProblem, dataProblem, cp949, cleanDir: dir && offset === 0 && realSize === 0 };
}

export interface DecodedTable {
  entries: PangyaEntry[];
  cipher: MetadataCipher;
  region: PangyaRegion | null;
  /** Every region whose key decodes the table, when more than one does. */
  regionCandidates: PangyaRegion[];
  note?: string;
  warnings: string[];
}

/**
 * How well a key fits an entry, from 0 (the name is not text: the wrong key) to 3: 1 text name, 2 also
 * CP949 with in-bounds, plausible sizes, 3 also a directory block of zeros (a file that reaches 2 counts
 * as 3).
 * Random bytes pass as CP949 text surprisingly often (UHC covers most byte pairs), so the data checks and
 * the zero directory blocks are what really tell the keys apart.
 */
function fitLevel(d: Decoded): number {
  if (d.nameProblem) return 0;
  if (d.dataProblem || !d.cp949) return 1;
  return d.entry.dir && !d.cleanDir ? 2 : 3;
}

/** Decode the XTEA entries with `key`; null at the first entry that fits below `level`. */
function tryKey(raws: readonly RawEntry[], key: XteaKey, dataLimit: number, level: number): Decoded[] | null {
  const out: Decoded[] = [];
  for (const raw of raws) {
    // From level 2 up, data out of bounds rules the key out before its name is deciphered and decoded.
    if (level >= 2) {
      const [offset, realSize] = dataFields(raw, key);
      if (dataProblemOf(raw, offset, realSize, dataLimit) !== null) return null;
    }
    const d = decodeEntry(raw, key, dataLimit);
    if (fitLevel(d) < level) return null;
    out.push(d);
  }
  return out;
}

const where = (raw: RawEntry) => `entry ${raw.index} at ${raw.at}`;

/**
 * Decode every entry. The region is found by parsing the whole table with each key and keeping the keys
 * that fit every XTEA entry best (see `fitLevel`): normally exactly one. When the best is only text names,
 * that key is taken with a warning (the bad entries fail when read); when no key gives text names, the
 * table cannot be read.
 */
export function decodeTable(raws: readonly RawEntry[], dataLimit: number): DecodedTable {
  const warnings: string[] = [];
  const xtea = raws.filter((r) => r.cipher === 'xtea');
  let region: PangyaRegion | null = null;
  let candidates: PangyaRegion[] = [];
  let note: string | undefined;
  const byIndex = new Map<number, Decoded>();
  if (xtea.length > 0) {
    // The best level any key reaches decides; every key reaching it is a candidate.
    let fits: { region: PangyaRegion; decoded: Decoded[] | null }[];
    let level = 3;
    for (;;) {
      fits = REGIONS.map((r) => ({ region: r, decoded: tryKey(xtea, REGION_KEYS[r], dataLimit, level) })).filter((f) => f.decoded);
      if (fits.length > 0 || level === 1) break;
      level--;
    }
    if (fits.length > 0 && level === 1) warnings.push(`no region key decodes every entry cleanly; ${fits[0]!.region} gives text names`);
    if (fits.length === 0) {
      fail('bad-name', `no Pangya region key (${REGIONS.join(', ')}) turns the table into names (first XTEA ${where(xtea[0]!)})`, {
        offset: xtea[0]!.at,
      });
    }
    region = fits[0]!.region;
    candidates = fits.map((f) => f.region);
    if (candidates.length > 1) note = `region ambiguous: the keys of ${candidates.join(', ')} all decode the table; using ${region}`;
    for (const d of fits[0]!.decoded!) byIndex.set(d.entry.index, d);
  }
  const entries: PangyaEntry[] = [];
  for (const raw of raws) {
    const d = byIndex.get(raw.index) ?? decodeEntry(raw, null, dataLimit);
    if (d.nameProblem) fail('bad-name', `Pangya ${where(raw)} ${d.nameProblem}`, { offset: raw.at });
    if (d.dataProblem) warnings.push(`${d.entry.path}: ${d.dataProblem}`);
    if (!d.cp949) warnings.push(`${d.entry.path}: name is not valid CP949`);
    entries.push(d.entry);
  }
  const xor = raws.length - xtea.length;
  if (xtea.length > 0 && xor > 0) warnings.push(`table mixes ${xor} XOR and ${xtea.length} XTEA entries`);
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
