import type { ByteSource } from '../../io/byte-source.js';
import type { Archive, ArchiveEntry, ArchiveInfo, ChunkScratch } from '../archive.js';
import { readSlices } from '../archive.js';
import { fail } from '../../../shared/errors.js';
import { pathKey } from '../../../shared/paths.js';
import { decodeSpan, decodeSpanPieces, STORED_METHOD, type EntrySpan, type SpanMethod } from '../entry-span.js';
import type { PackLayout, PackRecord } from './layout.js';
import { recordsFor } from './recognition.js';

/**
 * The reader shared by the 'PACK' family. Opening reads only the header and the directory (once, through
 * the recognition analysis); an entry's bytes are read and decoded when asked for. Entries keep their
 * stored order and stored names (backslashes shown as '/').
 */

class PackArchive implements Archive {
  readonly entries: readonly ArchiveEntry[];
  /** Where each entry is in `entries` (and its record in `records`), made when first needed: see recordOf. */
  private indexOfEntry: Map<ArchiveEntry, number> | null = null;
  /** The entry after the one last asked for. */
  private nextIndex = 0;

  constructor(
    private readonly layout: PackLayout,
    readonly source: ByteSource,
    private readonly records: readonly PackRecord[],
    /** How compressed entries decode; Quake and SiN have none (everything is stored). */
    private readonly compression: SpanMethod | undefined,
    readonly warnings: readonly string[],
  ) {
    this.entries = records.map((r) => ({
      path: r.name.includes('\\') ? r.name.replace(/\\/g, '/') : r.name,
      dir: false,
      size: r.length,
      packedSize: r.storedLength,
      method: r.compressed ? 'dk' : 'stored',
    }));
  }

  get format() {
    return this.layout.id;
  }

  info(): ArchiveInfo {
    let bytes = 0;
    let compressed = 0;
    for (const r of this.records) {
      bytes += r.length;
      if (r.compressed) compressed++;
    }
    const counts = { files: this.entries.length, dirs: 0, bytes, entrySize: this.layout.entrySize };
    const id = this.layout.id;
    return id === 'daikatana' ? { format: id, ...counts, compressed } : { format: id, ...counts };
  }

  /**
   * The record of one of this archive's entries. Readers mostly ask for entries in stored order (extract,
   * verify), so the entry after the last one asked for is tried first; the map from entry to index is made
   * only when that misses. (Made with every open, it was a tenth of opening a 3,000-entry PAK.)
   */
  private recordOf(entry: ArchiveEntry): PackRecord {
    let index = this.nextIndex;
    if (this.entries[index] !== entry) {
      this.indexOfEntry ??= new Map(this.entries.map((e, i) => [e, i]));
      index = this.indexOfEntry.get(entry) ?? -1;
    }
    if (index < 0) fail('not-found', `${entry.path} is not an entry of this archive`);
    this.nextIndex = index + 1;
    return this.records[index]!;
  }

  /** The compression of an entry flagged compressed, where the format has one. */
  private methodOf(entry: ArchiveEntry, record: PackRecord): SpanMethod {
    if (!record.compressed) return STORED_METHOD;
    if (this.compression === undefined) fail('unsupported', `${entry.path}: ${this.layout.label} entries cannot be compressed`);
    return this.compression;
  }

  async read(entry: ArchiveEntry): Promise<Uint8Array> {
    const record = this.recordOf(entry);
    const method = this.methodOf(entry, record);
    return decodeSpan(method, await this.source.read(record.offset, record.storedLength), record.length);
  }

  /**
   * Stored entries a slice at a time (see readSlices); compressed (Daikatana) ones decoded a piece at a
   * time from their stored bytes, so a declared length, however large, costs one window of memory.
   */
  async *stream(entry: ArchiveEntry, _onWarning?: (message: string) => void, scratch?: ChunkScratch): AsyncIterable<Uint8Array> {
    const record = this.recordOf(entry);
    const method = this.methodOf(entry, record);
    if (method === STORED_METHOD) {
      yield* readSlices(this.source, record.offset, record.storedLength, scratch);
      return;
    }
    yield* decodeSpanPieces(method, await this.source.read(record.offset, record.storedLength), record.length, scratch);
  }

  /** Every entry is one run of the file; null for a compressed one the format cannot decode (read says why). */
  span(entry: ArchiveEntry): EntrySpan | null {
    const record = this.recordOf(entry);
    if (record.compressed && this.compression === undefined) return null;
    return { offset: record.offset, packedSize: record.storedLength, size: record.length, method: this.methodOf(entry, record) };
  }

  async close(): Promise<void> {
    await this.source.close();
  }
}

/** Notes on a directory that reads but is odd: names that differ only in case (the first stored wins). */
function directoryWarnings(records: readonly PackRecord[]): string[] {
  // Most directories have no two names alike: their keys sorted (natively) show it for a third of what a
  // map of every name costs; the map, for the messages in stored order, is made only when two are alike.
  const keys = records.map((r) => pathKey(r.name)).sort();
  let alike = false;
  for (let i = 1; i < keys.length && !alike; i++) alike = keys[i] === keys[i - 1];
  if (!alike) return [];
  const warnings: string[] = [];
  const seen = new Map<string, string>();
  for (const r of records) {
    const key = pathKey(r.name);
    const first = seen.get(key);
    if (first !== undefined) warnings.push(`${r.name} has the same name as ${first} (lookups are case-insensitive): the first stored wins`);
    else seen.set(key, r.name);
  }
  return warnings;
}

export async function openPack(
  source: ByteSource,
  layout: PackLayout,
  compression?: SpanMethod,
  extraWarnings?: (r: PackRecord) => string | null,
): Promise<Archive> {
  const { records } = await recordsFor(source, layout);
  const warnings = directoryWarnings(records);
  if (extraWarnings)
    for (const r of records) {
      const w = extraWarnings(r);
      if (w) warnings.push(w);
    }
  return new PackArchive(layout, source, records, compression, warnings);
}
