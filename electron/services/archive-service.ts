import { detectFormat, withArchive } from '../formats/index.js';
import type { Archive, ArchiveEntry, FormatId } from '../formats/index.js';
import { entryChunks } from '../formats/archive.js';
import type { ArchiveReport } from '../../shared/archive-info.js';
import { taMountVerdict } from '../vfs/rules/ta-mount.js';
import { FileSource } from '../io/byte-source.js';
import { fail } from '../../shared/errors.js';
import { pathKey } from '../../shared/paths.js';
import { pathMatcher } from './globs.js';

/**
 * Single-archive operations shared by the CLI (`modpak info/list/extract/cat/verify`) and the studio's
 * Archive screen. Everything goes through the Archive interface, so every format gets them for free.
 * Extraction and verification are in archive-extract.ts and archive-verify.ts, imported from there (not
 * re-exported here): `modpak info` then loads no worker pool, folder writer or crypto.
 */

export type ProgressFn = (done: number, total: number, label?: string) => void;

export { withArchive };

/** An open archive with what recognising it said (other formats that fit the bytes, a note). */
export interface OpenedArchive {
  archive: Archive;
  alternatives: FormatId[];
  note?: string;
}

/** Open an archive once, keeping what detection found (for `info`). */
export async function openDetected(path: string): Promise<OpenedArchive> {
  const source = await FileSource.open(path);
  try {
    const { engine, alternatives, note } = await detectFormat(source);
    return { archive: await engine.open(source), alternatives, note };
  } catch (err) {
    await source.close();
    throw err;
  }
}

/** What `modpak info` and the Archive screen show: the format's facts, TA 3.1c's verdict for HPI, detection, warnings. */
export function reportOf({ archive, alternatives, note }: OpenedArchive): ArchiveReport {
  const info = archive.info();
  const report: ArchiveReport = { ...info };
  if (info.format === 'hpi') report.taMount = taMountVerdict(info);
  if (alternatives.length > 0) report.alsoMatches = alternatives;
  if (note) report.note = note;
  if (archive.warnings.length > 0) report.warnings = [...archive.warnings];
  return report;
}

export async function archiveInfo(path: string): Promise<ArchiveReport> {
  const opened = await openDetected(path);
  try {
    return reportOf(opened);
  } finally {
    await opened.archive.close();
  }
}

export interface ListedEntry {
  path: string;
  size: number;
  packedSize: number;
  method: string;
  dir?: true;
  /** What the format says the entry is (WAD lump types). */
  type?: string;
}

export function toListedEntry(e: ArchiveEntry): ListedEntry {
  const out: ListedEntry = { path: e.path, size: e.size, packedSize: e.packedSize, method: e.method };
  if (e.dir) out.dir = true;
  if (e.entryType) out.type = e.entryType;
  return out;
}

export async function listArchive(path: string, globs?: readonly string[]): Promise<ListedEntry[]> {
  const match = pathMatcher(globs);
  return withArchive(path, async (archive) => archive.entries.filter((e) => match(e.path)).map(toListedEntry));
}

/** Find an entry by path, case-insensitively; the first stored match wins. */
export function findEntry(archive: Archive, path: string): ArchiveEntry | undefined {
  const key = pathKey(path);
  return archive.entries.find((e) => !e.dir && pathKey(e.path) === key);
}

/**
 * An entry's bytes, or its first `maxBytes` of them (the rest is not decoded), with its full size. Pieces
 * are gathered up to the limit only, so a preview of a huge (or hostile) entry stays small.
 */
export async function catEntry(path: string, entryPath: string, maxBytes = Infinity): Promise<Uint8Array> {
  return (await catEntryHead(path, entryPath, maxBytes)).bytes;
}

export async function catEntryHead(path: string, entryPath: string, maxBytes: number): Promise<{ bytes: Uint8Array; size: number }> {
  return withArchive(path, (archive) => entryHead(archive, entryPath, maxBytes));
}

/** `catEntryHead` on an archive already open (the host's open-archive cache). */
export async function entryHead(archive: Archive, entryPath: string, maxBytes: number): Promise<{ bytes: Uint8Array; size: number }> {
  const entry = findEntry(archive, entryPath);
  if (!entry) fail('not-found', `no file ${entryPath} in the archive`);
  const parts: Uint8Array[] = [];
  let held = 0;
  for await (const chunk of entryChunks(archive, entry)) {
    const take = Math.min(chunk.length, maxBytes - held);
    parts.push(take === chunk.length ? chunk : chunk.subarray(0, take));
    held += take;
    if (held >= maxBytes) break;
  }
  const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, held);
  return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), size: held >= maxBytes ? entry.size : held };
}

/** An entry's bytes written piece by piece to `write` (the CLI's `cat`): never held whole. */
export async function catEntryTo(path: string, entryPath: string, write: (bytes: Uint8Array) => Promise<void>): Promise<void> {
  await withArchive(path, async (archive) => {
    const entry = findEntry(archive, entryPath);
    if (!entry) fail('not-found', `no file ${entryPath} in the archive`);
    for await (const chunk of entryChunks(archive, entry)) await write(chunk);
  });
}
