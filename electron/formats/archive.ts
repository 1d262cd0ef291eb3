import type { ArchiveInfo, FormatId } from '../../shared/archive-info.js';
import type { ByteSource } from '../io/byte-source.js';
import type { ByteSink } from '../io/byte-sink.js';
import { INFLATE_ROOM } from '../io/zlib.js';
import type { EntrySpan } from './entry-span.js';

/**
 * The one interface the rest of the program knows archives by. A reader lists its entries in stored order
 * (the order is meaningful: TA's "first definition wins" walks it) and opens an entry on demand; it knows
 * nothing of mounting. Paths use forward slashes and keep the stored case; lookups elsewhere are
 * case-insensitive.
 */
export type { ArchiveInfo, FormatId };

/** What `pack --format` accepts: the format ids plus `hpi2` (HPI v2, TA: Kingdoms) and the two WAD versions. */
export type PackFormatId = 'hpi' | 'hpi2' | 'pak' | 'sin' | 'daikatana' | 'pangya' | 'wad2' | 'wad3';

export interface ArchiveEntry {
  /** Full path inside the archive, forward slashes, stored case, no leading slash. */
  readonly path: string;
  /** Directory entries are listed too, where the format stores them (HPI folders, Pangya type 2). */
  readonly dir: boolean;
  /** Uncompressed size in bytes (0 for directories). */
  readonly size: number;
  /** Bytes the entry takes in the archive, as stored. */
  readonly packedSize: number;
  /** A short word for how it is stored: 'stored', 'lz77', 'zlib', 'lz77x', 'dk', 'mixed', 'dir'. */
  readonly method: string;
  /** What the format says the entry is, where it says (WAD lump types: 'miptex', 'qpic', 'palette', ...). */
  readonly entryType?: string;
}

export interface VerifyIssue {
  path: string | null;
  message: string;
  severity: 'error' | 'warning';
}

export interface Archive {
  readonly format: FormatId;
  readonly source: ByteSource;
  /** Every entry, in stored order. */
  readonly entries: readonly ArchiveEntry[];
  /** Non-fatal oddities found while reading the directory (shown by `info`, `verify`). */
  readonly warnings: readonly string[];
  info(): ArchiveInfo;
  /**
   * The entry's decoded bytes. Throws FormatError on corrupt data (bad stream, size mismatch). Soft problems
   * a real game tolerates (a checksum mismatch, a missing Adler-32) go to `onWarning` instead.
   */
  read(entry: ArchiveEntry, onWarning?: (message: string) => void): Promise<Uint8Array>;
  /**
   * The same bytes as `read`, a piece at a time (an HPI chunk, a slice of a stored file), so a large or
   * hostile entry is written or hashed without ever being held whole. Formats without it are read whole
   * (see entryChunks). The same errors and warnings as `read`, raised when the piece they concern is reached.
   */
  stream?(entry: ArchiveEntry, onWarning?: (message: string) => void, scratch?: ChunkScratch): AsyncIterable<Uint8Array>;
  /**
   * Where a file entry lies, for formats that keep each entry as one run of the file (see entry-span.ts):
   * extraction threads then write it from the file alone. Checked as `read` checks it (a FormatError for
   * data out of its place); null for an entry kept otherwise.
   */
  span?(entry: ArchiveEntry): EntrySpan | null;
  /**
   * Opaque format data a rewrite should keep (HPI v2's Last78 verification block): handed to the writer as
   * `PackOptions.carry` when an archive is re-exported with `--order-from`.
   */
  carryOver?(): Promise<Record<string, Uint8Array>>;
  close(): Promise<void>;
}

/** One file to pack: its archive path and a way to get its bytes when the writer reaches it. */
export interface PackFile {
  readonly path: string;
  readonly size: number;
  read(): Promise<Uint8Array>;
  /**
   * The same bytes read synchronously, where they are a file on a local disk (a folder being packed);
   * into `scratch` when they fit (then a view of it, valid until the caller reuses it).
   */
  readSync?(scratch?: Uint8Array): Uint8Array;
}

/**
 * A file's bytes the cheapest way it offers: writers read files one after another, so a synchronous read
 * saves a round trip each. With `scratch` the result may be a view of it (see PackFile.readSync): for
 * writers that are done with a file's bytes before they read the next.
 */
export function readPackFile(file: PackFile, scratch?: FileScratch): Uint8Array | Promise<Uint8Array> {
  return file.readSync ? file.readSync(scratch?.sized(file.size)) : file.read();
}

/** One reusable array for files read one at a time, grown to the largest file up to `max` bytes (larger ones get arrays of their own). */
export class FileScratch {
  private bytes = new Uint8Array(0);
  constructor(private readonly max = 16 << 20) {}
  sized(size: number): Uint8Array | undefined {
    if (size > this.max) return undefined;
    if (this.bytes.length < size) this.bytes = new Uint8Array(Math.max(size, 2 * this.bytes.length, 65536));
    return this.bytes;
  }
  /** Whether `data` is a view of this scratch (so its owner may change it in place). */
  holds(data: Uint8Array): boolean {
    return data.buffer === this.bytes.buffer;
  }
}

export interface PackOptions {
  method?: 'lz77' | 'zlib' | 'none' | 'lz77x';
  /** HPI v1 HeaderKey (0 = no cipher; 0xFF refused). */
  key?: number;
  /** HPI v1: append the Cavedog trailer (default true). */
  trailer?: boolean;
  /** Pangya metadata cipher. */
  cipher?: 'xtea' | 'xor';
  region?: 'us' | 'jp' | 'th' | 'eu' | 'id' | 'kr';
  /** HPI: 1 (TA) or 2 (TA: Kingdoms). */
  version?: 1 | 2;
  /** WAD: 2 (Quake) or 3 (Half-Life). */
  wadVersion?: 2 | 3;
  /** WAD2: the 768-byte RGB palette PNGs are converted to miptex with (Quake's palette.lmp). */
  paletteRgb?: Uint8Array;
  /**
   * Compressed chunks by file content, kept by a caller that packs the same files again and again (watch
   * and repack): a file whose bytes did not change is not compressed again. Output is byte-identical.
   */
  chunkCache?: ChunkCache;
  /**
   * Compression beside the writer's thread for a build of `totalBytes` (null: none). Threads belong to the
   * layer that packs (mods/compress-pool.ts); without this the writer compresses in its own thread, as it
   * does while they start (it does not wait for them). With a chunkCache they are started only once files
   * miss it, for the bytes still to come.
   */
  startWorkers?: (totalBytes: number) => Promise<ChunkWorkers | null>;
  /** Opaque blocks carried over from the archive being rewritten (see Archive.carryOver). */
  carry?: Record<string, Uint8Array>;
  /** Progress in files done out of total. */
  onProgress?: (done: number, total: number) => void;
  onWarning?: (message: string) => void;
}

/**
 * What `PackOptions.chunkCache` needs: chunks by file content and method. Values must be treated as
 * read-only by the cache. The one implementation, keyed by a digest, is mods/chunk-cache.ts.
 */
export interface ChunkCache {
  /** null: the file is written stored (see FileCodec.encodeInto); undefined: not known. */
  get(data: Uint8Array, method: number): Uint8Array[] | null | undefined;
  set(data: Uint8Array, method: number, chunks: Uint8Array[] | null): void;
}

/** Threads that compress chunks beside the writer's (see `PackOptions.startWorkers`). */
export interface ChunkWorkers {
  /** Files handed over and not yet back. */
  readonly queued: number;
  /**
   * A file's chunks, compressed on a worker and laid in `handOver.into` (an array the caller no longer
   * uses) when it holds them, else in a new array. `into`, and with `lend` the whole buffer under `data`,
   * move to the worker (no copy; unusable here meanwhile) and come back with the reply, `data` as the
   * reply's own view of the same bytes. `laid` is null when the writer should store the file (its chunks
   * would not be smaller); `into` then comes back as `spare`, as it does when the chunks needed more room.
   */
  compress(data: Uint8Array, method: number, handOver?: ChunkHandOver): Promise<ChunkReply>;
  close(): Promise<void>;
}

export interface ChunkReply {
  data: Uint8Array;
  laid: LaidChunks | null;
  spare?: Uint8Array;
}

/** A file's chunks laid end to end in one array: chunk i is `bytes.subarray(ends[i - 1] ?? 0, ends[i])`. */
export interface LaidChunks {
  /** The whole array (its capacity may exceed the last end). */
  bytes: Uint8Array;
  ends: number[];
}

export interface ChunkHandOver {
  into?: Uint8Array;
  lend?: boolean;
}

export interface DetectResult {
  /** Whether the bytes look like this format, after validating its structure against the file. */
  match: boolean;
  /** For families sharing a magic ('PACK'): a note when the layout is ambiguous. */
  note?: string;
  /** How plausible the match is, when several engines fit the same bytes: the highest wins (ties: registry order). */
  confidence?: number;
}

/** The pack options a user sets (the CLI's `pack` flags). */
export type UserPackOption = 'method' | 'key' | 'trailer' | 'cipher' | 'region';

export interface FormatEngine {
  readonly id: FormatId;
  /** What the format is called in messages: "HPI", "Quake PAK", ... */
  readonly label: string;
  /** Cheap structural check from the bytes (never the extension). */
  detect(source: ByteSource): Promise<DetectResult>;
  open(source: ByteSource): Promise<Archive>;
  /**
   * The user-set options its writer reads, given the options the format implies (HPI v1 and v2 differ).
   * Any other given option is refused, never silently ignored.
   */
  packOptions?(implied: Partial<PackOptions>): readonly UserPackOption[];
  /** Write `files` (in this order) as an archive of this format into `sink`. */
  pack?(files: readonly PackFile[], sink: ByteSink, options: PackOptions): Promise<void>;
}

/**
 * Memory a consumer lends the stream to decode pieces into: each piece may then be a view of it, valid
 * only until the next piece is asked for. For consumers that use a piece at once and drop it (verify
 * counts it, extraction writes it synchronously): decoding 300 MB then allocates no 300 MB of arrays. One
 * scratch per sequential consumer; two streams read at the same time need one each.
 */
export class ChunkScratch {
  private bytes = new Uint8Array(0);
  /**
   * At least `size` bytes (grown when needed; the contents are not kept). Never under 64 KiB and a little:
   * a 64 KiB chunk's inflate needs room past its size to tell a stream that outputs more.
   */
  take(size: number): Uint8Array {
    if (this.bytes.length < size) this.bytes = new Uint8Array(Math.max(size, 65536 + INFLATE_ROOM));
    return this.bytes;
  }
}

/** An entry's bytes piece by piece: the archive's own stream where it has one, else its whole read. */
export function entryChunks(
  archive: Archive,
  entry: ArchiveEntry,
  onWarning?: (message: string) => void,
  scratch?: ChunkScratch,
): AsyncIterable<Uint8Array> {
  if (archive.stream) return archive.stream(entry, onWarning, scratch);
  return (async function* () {
    yield await archive.read(entry, onWarning);
  })();
}

/** A synchronous read whose bytes are used before the next read (they may be a view of the source's block). */
export type ReadSync = (offset: number, length: number) => Uint8Array;

/** Bytes of a stored entry read in slices of this size when streamed. */
export const STREAM_SLICE = 1 << 20;

/**
 * Slices of a consumer that uses each before asking for the next (it lent a ChunkScratch): small enough
 * to be served from a FileSource's read-ahead block (no array and no thread-pool round trip per slice).
 */
const SCRATCH_SLICE = 128 << 10;

/**
 * The `length` bytes at `offset` as slices. With a scratch (the consumer is done with a slice before the
 * next, see ChunkScratch) the slices are small and may be transient views of the source's own buffer;
 * without, each slice is the source's ordinary read, STREAM_SLICE at most.
 */
export async function* readSlices(source: ByteSource, offset: number, length: number, scratch?: ChunkScratch): AsyncIterable<Uint8Array> {
  const slice = scratch ? SCRATCH_SLICE : STREAM_SLICE;
  const read = scratch && source.readTransient ? source.readTransient.bind(source) : source.read.bind(source);
  for (let at = 0; at < length; at += slice) yield await read(offset + at, Math.min(slice, length - at));
}

/** The `files`, `dirs` and `bytes` of an `info()`, counted over the entries. */
export function countEntries(entries: readonly ArchiveEntry[]): { files: number; dirs: number; bytes: number } {
  const counts = { files: 0, dirs: 0, bytes: 0 };
  for (const e of entries) {
    if (e.dir) counts.dirs++;
    else {
      counts.files++;
      counts.bytes += e.size;
    }
  }
  return counts;
}
