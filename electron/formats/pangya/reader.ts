import type { Archive, ArchiveEntry, ChunkScratch } from '../archive.js';
import type { PangyaInfo } from '../../../shared/archive-info.js';
import { countEntries, readSlices } from '../archive.js';
import type { ByteSource } from '../../io/byte-source.js';
import { FormatError, checkRange, fail } from '../../../shared/errors.js';
import {
  ENTRY_HEADER_SIZE,
  KIND_DIR,
  KIND_LZ77X,
  KIND_STORED,
  MAX_NAME_LENGTH,
  TRAILER_SIZE,
  parseTrailer,
  walkTable,
  type RawEntry,
  type Trailer,
} from './layout.js';
import { decodeSpan, decodeSpanPieces, PANGYA_LZ77_METHOD, PANGYA_LZ77X_METHOD, STORED_METHOD, type EntrySpan } from '../entry-span.js';
import { decodeTable, type DecodedTable, type PangyaEntry } from './table.js';

/** The largest an entry can be on disk: header, a 255-byte name, the XOR extra byte. */
const MAX_ENTRY_SIZE = ENTRY_HEADER_SIZE + MAX_NAME_LENGTH + 1;

export interface TableWalk {
  trailer: Trailer;
  /** The table's bytes as read, which the entries' names point into. */
  table: Uint8Array;
  raws: RawEntry[];
  end: number;
}

/**
 * The walk `detect` made of a source's table, for `open` to take: opening what detection just recognised
 * then neither reads nor walks the table again. Keyed by the source (whose bytes do not change), taken
 * once, and gone with the source if it is never opened as Pangya.
 */
const detectedWalks = new WeakMap<ByteSource, TableWalk>();

/** Walk the table behind `trailer` for `detect`, keeping the walk for `open`. */
export async function detectTable(source: ByteSource, trailer: Trailer): Promise<TableWalk> {
  const walk = await walkTableOf(source, trailer);
  detectedWalks.set(source, walk);
  return walk;
}

export async function readTrailer(source: ByteSource): Promise<Trailer> {
  if (source.size < TRAILER_SIZE) fail('truncated', `file of ${source.size} bytes is shorter than the ${TRAILER_SIZE}-byte Pangya trailer`);
  return parseTrailer(await source.read(source.size - TRAILER_SIZE, TRAILER_SIZE), source.size);
}

/**
 * Walk the table's structure (no keys involved). Only the bytes the declared entries can occupy are read,
 * so a lying trailer cannot make us read or allocate more than the file justifies.
 */
async function walkTableOf(source: ByteSource, trailer: Trailer): Promise<TableWalk> {
  const span = Math.min(trailer.tableBytes, trailer.entryCount * MAX_ENTRY_SIZE);
  const table = await source.read(trailer.tableOffset, span);
  const { entries, end } = walkTable(table, trailer.tableOffset, trailer.entryCount);
  return { trailer, table, raws: entries, end };
}

/** Read the trailer and walk the table. */
async function readTable(source: ByteSource): Promise<TableWalk> {
  return walkTableOf(source, await readTrailer(source));
}

export class PangyaArchive implements Archive {
  readonly format = 'pangya' as const;
  readonly entries: readonly PangyaEntry[];
  readonly warnings: readonly string[];

  constructor(
    readonly source: ByteSource,
    private readonly trailer: Trailer,
    private readonly table: DecodedTable,
    extraWarnings: readonly string[],
  ) {
    this.entries = table.entries;
    this.warnings = [...extraWarnings, ...table.warnings];
  }

  info(): PangyaInfo {
    const { files, dirs, bytes } = countEntries(this.entries);
    const info: PangyaInfo = {
      format: 'pangya',
      files,
      dirs,
      bytes,
      cipher: this.table.cipher,
      region: this.table.region,
      tableOffset: this.trailer.tableOffset,
    };
    if (this.table.regionCandidates.length > 0) info.regionCandidates = [...this.table.regionCandidates];
    if (this.table.note) info.note = this.table.note;
    return info;
  }

  private fileOf(entry: ArchiveEntry): PangyaEntry {
    // Entries are listed in table order, each at its index: a lookup, where a WeakSet of them cost every open.
    const e = entry as PangyaEntry;
    if (this.entries[e.index] !== entry) throw new Error(`${entry.path} is not an entry of this archive`);
    if (e.kind === KIND_DIR) fail('unsupported', `${e.path} is a directory, not a file`);
    return e;
  }

  /** The entry's data range, checked: it lies before the table, and a stored entry holds exactly its size. */
  private checkData(e: PangyaEntry): void {
    // The data lies before the table; check the range before reading a byte of it.
    checkRange('entry data', e.offset, e.packedSize, this.trailer.tableOffset);
    if (e.kind === KIND_STORED && e.size !== e.packedSize) {
      fail('size-mismatch', `stored entry declares ${e.size} bytes but holds ${e.packedSize}`, {
        expected: e.size,
        actual: e.packedSize,
      });
    }
  }

  async read(entry: ArchiveEntry): Promise<Uint8Array> {
    const span = this.span(entry);
    try {
      return decodeSpan(span.method, await this.source.read(span.offset, span.packedSize), span.size);
    } catch (err) {
      throw named(entry, err);
    }
  }

  /**
   * The same bytes a piece at a time: stored entries in slices (see readSlices), compressed ones decoded
   * in a window lent by `scratch`, so a declared size costs no more memory than the window.
   */
  async *stream(entry: ArchiveEntry, _onWarning?: (message: string) => void, scratch?: ChunkScratch): AsyncIterable<Uint8Array> {
    const span = this.span(entry);
    try {
      if (span.method === STORED_METHOD) {
        yield* readSlices(this.source, span.offset, span.packedSize, scratch);
        return;
      }
      yield* decodeSpanPieces(span.method, await this.source.read(span.offset, span.packedSize), span.size, scratch);
    } catch (err) {
      throw named(entry, err);
    }
  }

  /** Every file is one run of the data region, checked before a byte of it is read. */
  span(entry: ArchiveEntry): EntrySpan {
    const e = this.fileOf(entry);
    try {
      this.checkData(e);
    } catch (err) {
      throw named(entry, err);
    }
    const method = e.kind === KIND_STORED ? STORED_METHOD : e.kind === KIND_LZ77X ? PANGYA_LZ77X_METHOD : PANGYA_LZ77_METHOD;
    return { offset: e.offset, packedSize: e.packedSize, size: e.size, method };
  }

  async close(): Promise<void> {
    await this.source.close();
  }
}

/** Name the entry: an extract that stops on it should say which file is corrupt. */
function named(entry: ArchiveEntry, err: unknown): unknown {
  if (err instanceof FormatError) return new FormatError(err.code, `${entry.path}: ${err.message}`, err.details);
  return err;
}

export async function openPangya(source: ByteSource): Promise<PangyaArchive> {
  const detected = detectedWalks.get(source);
  detectedWalks.delete(source);
  const { trailer, table, raws, end } = detected ?? (await readTable(source));
  const warnings: string[] = [];
  if (end < trailer.tableBytes) warnings.push(`${trailer.tableBytes - end} bytes between the table's last entry and the trailer`);
  return new PangyaArchive(source, trailer, decodeTable(table, raws, trailer.tableOffset), warnings);
}
