import type { ByteSource } from '../../io/byte-source.js';
import type { DetectResult } from '../archive.js';
import { FormatError, fail } from '../../../shared/errors.js';
import {
  HEADER_SIZE,
  PACK_LAYOUTS,
  packMagicOf,
  readLayout,
  readPackDirectory,
  readPackHeader,
  type PackHeader,
  type PackLayout,
  type PackRecord,
} from './layout.js';

/**
 * Which 'PACK' layout a file is. Every layout is read against the directory; of those that fit, the most
 * plausible is preferred: names all printable ASCII first, then how well the entries' data tiles the file
 * (covered bytes of the data area, no entry overlapping another partially or reaching into the header or
 * the directory). A 576-byte directory, say, fits 9 Quake entries and 8 Daikatana ones; the reading whose
 * data covers the file is the real one. Equal scores go to the first layout in registry order.
 *
 * The analysis is done once per source and shared by the three engines' detect() and open(), so
 * recognising and opening a PAK reads the header and the directory once.
 */

export interface LayoutVerdict {
  readonly layout: PackLayout;
  readonly records?: readonly PackRecord[];
  readonly reason?: string;
  /** Higher is more plausible; only for layouts that fit. */
  readonly score: number;
  /** Share of the data area the entries cover, 0..1. */
  readonly coverage: number;
}

export interface PackAnalysis {
  readonly header: PackHeader;
  /** Why the header or the directory cannot be read at all (then no layout fits). */
  readonly broken?: FormatError;
  readonly verdicts: readonly LayoutVerdict[];
  /** The most plausible fitting layout, or null when none fits. */
  readonly preferred: PackLayout | null;
  /** When none fits: the layout whose entry size divides the directory, to explain what is wrong. */
  readonly claimant: PackLayout;
}

const analyses = new WeakMap<ByteSource, Promise<PackAnalysis | null>>();

/** The analysis of `source`, or null when it starts with neither 'PACK' nor 'SPAK' (a broken header or directory fits no layout). */
export function analysePack(source: ByteSource): Promise<PackAnalysis | null> {
  let pending = analyses.get(source);
  if (!pending) {
    pending = analyse(source);
    analyses.set(source, pending);
  }
  return pending;
}

async function analyse(source: ByteSource): Promise<PackAnalysis | null> {
  const magic = await packMagicOf(source);
  if (magic === null) return null;
  // 'SPAK' is SiN's alone; 'PACK' is every layout's (SiN's too, as older tools wrote it).
  const layouts = PACK_LAYOUTS.filter((l) => l.readMagics.includes(magic));
  let header: PackHeader = { dirOffset: 0, dirLength: 0 };
  let dir: Uint8Array;
  try {
    header = await readPackHeader(source);
    dir = await readPackDirectory(source, header);
  } catch (err) {
    if (!(err instanceof FormatError)) throw err;
    const verdicts = PACK_LAYOUTS.map((layout) => ({ layout, reason: err.message, score: 0, coverage: 0 }));
    return { header, broken: err, verdicts, preferred: null, claimant: claimantFor(header, layouts) };
  }
  const verdicts = PACK_LAYOUTS.map((layout): LayoutVerdict => {
    if (!layouts.includes(layout))
      return { layout, reason: `the magic is '${magic}', which ${layout.label} does not use`, score: 0, coverage: 0 };
    const reading = readLayout(dir, source.size, layout);
    if ('reason' in reading) return { layout, reason: reading.reason, score: 0, coverage: 0 };
    return { layout, records: reading.records, ...plausibility(reading.records, header, source.size) };
  });
  const claimant = claimantFor(header, layouts);
  let best: LayoutVerdict | null = null;
  for (const v of verdicts) if (v.records && (!best || v.score > best.score + 1e-9)) best = v;
  return { header, verdicts, preferred: best?.layout ?? null, claimant };
}

function claimantFor(header: PackHeader, layouts: readonly PackLayout[]): PackLayout {
  return layouts.find((l) => header.dirLength >= 0 && header.dirLength % l.entrySize === 0) ?? layouts[0]!;
}

/** Names all printable ASCII (a directory read as the wrong layout slices names out of binary fields). */
const PRINTABLE_NAME = /^[\x20-\x7e]+$/;

function plausibility(records: readonly PackRecord[], header: PackHeader, fileSize: number): { score: number; coverage: number } {
  let ascii = true;
  for (const r of records)
    if (!PRINTABLE_NAME.test(r.name)) {
      ascii = false;
      break;
    }
  const dataArea = fileSize - HEADER_SIZE - header.dirLength;
  // Writers lay data out in directory order, so the regions almost always come sorted: sorting them first
  // (a comparator call per comparison) cost more than the rest of reading the directory.
  const { covered, clashes } = tilingInOrder(records, header) ?? tilingInOrder(byRegion(records), header)!;
  const coverage = dataArea > 0 ? Math.min(1, covered / dataArea) : 1;
  return { score: (ascii ? 4 : 0) + coverage - Math.min(clashes, 2), coverage };
}

/** The entries with data, by where their data starts, then ends. */
function byRegion(records: readonly PackRecord[]): PackRecord[] {
  return records.filter((r) => r.storedLength > 0).sort((a, b) => a.offset - b.offset || a.storedLength - b.storedLength);
}

/**
 * How the entries' data tiles the file: bytes covered, and clashes (data in the header or the directory,
 * a partial overlap). Null when the regions are not in order of start, then end (sort them first).
 */
function tilingInOrder(records: readonly PackRecord[], header: PackHeader): { covered: number; clashes: number } | null {
  const dirStart = header.dirOffset;
  const dirEnd = header.dirOffset + header.dirLength;
  let covered = 0;
  let reach = 0;
  let clashes = 0;
  let prevStart = -1;
  let prevEnd = -1;
  for (const r of records) {
    if (r.storedLength <= 0) continue;
    const start = r.offset;
    const end = r.offset + r.storedLength;
    if (start < prevStart || (start === prevStart && end < prevEnd)) return null;
    if (start < HEADER_SIZE || (start < dirEnd && end > dirStart)) clashes++;
    // Entries sharing one region exactly are legal (duplicates); a partial overlap is not how writers lay out.
    if (start < prevEnd && !(start === prevStart && end === prevEnd)) clashes++;
    const from = Math.max(start, reach);
    if (end > from) covered += end - from;
    reach = Math.max(reach, end);
    prevStart = start;
    prevEnd = end;
  }
  return { covered, clashes };
}

function describe(v: LayoutVerdict): string {
  return `${v.layout.label} (${v.records!.length} × ${v.layout.entrySize}-byte entries, data covering ${Math.round(v.coverage * 100)}% of the file)`;
}

/**
 * detect() for one layout. Every fitting layout matches, with its plausibility score as confidence, so
 * detectFormat picks the preferred one and `info` lists the others under alsoMatches; the note names every
 * fitting layout.
 * When no layout fits but the file is a 'PACK', the layout whose entry size divides the directory claims
 * it, so opening reports what is wrong instead of "unknown format".
 */
export async function detectLayout(source: ByteSource, layout: PackLayout): Promise<DetectResult> {
  const analysis = await analysePack(source);
  if (!analysis) return { match: false };
  const { preferred, verdicts } = analysis;
  if (!preferred) return { match: analysis.claimant === layout };
  const mine = verdicts.find((v) => v.layout === layout)!;
  if (!mine.records) return { match: false };
  const fitting = verdicts.filter((v) => v.records);
  const note =
    fitting.length > 1
      ? `ambiguous PACK layout: the directory fits ${fitting.map(describe).join(' and ')}; read as ${preferred.label}` +
        (fitting.every((v) => v.score === fitting[0]!.score) ? ', the first in registry order' : ', the most plausible')
      : undefined;
  return { match: true, note, confidence: mine.score };
}

/** The records of `source` read as `layout`, or a FormatError saying why it is not one. */
export async function recordsFor(source: ByteSource, layout: PackLayout): Promise<{ header: PackHeader; records: readonly PackRecord[] }> {
  const analysis = await analysePack(source);
  if (!analysis) fail('bad-magic', `not a ${layout.label}: the file does not start with '${layout.readMagics.join("' or '")}'`);
  if (analysis.broken) throw new FormatError(analysis.broken.code, `${layout.label}: ${analysis.broken.message}`, analysis.broken.details);
  const mine = analysis.verdicts.find((v) => v.layout === layout)!;
  if (!mine.records) fail('bad-count', `not a valid ${layout.label}: ${mine.reason}`);
  return { header: analysis.header, records: mine.records };
}
