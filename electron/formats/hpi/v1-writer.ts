/**
 * HPI v1 writer. Layout, as HPIPack writes it: the 20-byte header, the directory (each folder: its count
 * and entries, then for each child its name followed by its subfolder or file record), the files' data in
 * directory order, then the plain Cavedog trailer. The directory is written as zeros first and patched
 * once the data offsets are known, so only one file's bytes are in memory at a time.
 * Everything from the directory's start to the trailer goes through the position cipher.
 */
import type { PackFile, PackOptions } from '../archive.js';
import type { ByteSink } from '../../io/byte-sink.js';
import { fail } from '../../../shared/errors.js';
import { deriveKey, positionCipherInPlace } from './cipher.js';
import { HAPI, V1_HEADER_SIZE, VERSION_1 } from './header.js';
import { encodeName } from './names.js';
import type { ChunkMethod } from './sqsh.js';
import { trailerBytes } from './trailer.js';
import { buildTree, type TreeDir, type TreeFile } from './tree.js';
import { compressInOrder } from '../compress-order.js';
import { laidEndToEnd } from './chunks.js';

export const DEFAULT_HEADER_KEY = 0x7d;

/** The options a v1 writer accepts, resolved and checked. Bad values are refused before anything is written. */
export function resolveV1Options(options: PackOptions): { headerKey: number; method: ChunkMethod; trailer: boolean } {
  const headerKey = options.key ?? DEFAULT_HEADER_KEY;
  if (headerKey === 0xff) {
    fail(
      'refused',
      'HeaderKey 0xFF is refused: TA reads such archives as unenciphered while other tools decipher them; pick another key (0 = no cipher)',
    );
  }
  if (!Number.isInteger(headerKey) || headerKey < 0 || headerKey > 0xff)
    fail('refused', `HeaderKey must be 0..254 (0 = no cipher), not ${headerKey}`);
  const method = options.method ?? 'lz77';
  if (method === 'lz77x') fail('unsupported', 'lz77x is a Pangya method; HPI takes lz77, zlib or none');
  return { headerKey, method: method === 'lz77' ? 1 : method === 'zlib' ? 2 : 0, trailer: options.trailer ?? true };
}

/**
 * The directory's bytes, grown as they are laid: one array, not one per entry, name and record (a
 * folder of 30,000 files made 90,000 small arrays that lived until the layout was joined).
 */
class DirectoryBytes {
  bytes = new Uint8Array(1 << 16);
  view = new DataView(this.bytes.buffer);
  length = 0;
  /** Room for `n` more bytes; returns where they start. */
  claim(n: number): number {
    const at = this.length;
    if (at + n > this.bytes.length) {
      let capacity = this.bytes.length * 2;
      while (capacity < at + n) capacity *= 2;
      const grown = new Uint8Array(capacity);
      grown.set(this.bytes.subarray(0, at));
      this.bytes = grown;
      this.view = new DataView(grown.buffer);
    }
    this.length = at + n;
    return at;
  }
}

/**
 * Lay the directory out from `start`. Returns its bytes (file records' data offsets still 0), and the
 * files in the order their data follows, with the absolute offset of each one's 9-byte record.
 */
function layoutDirectory(
  root: TreeDir,
  start: number,
  methodOf: (file: PackFile) => ChunkMethod,
): { bytes: Uint8Array; files: TreeFile[]; records: number[] } {
  const out = new DirectoryBytes();
  const files: TreeFile[] = [];
  const records: number[] = [];
  const layDir = (dir: TreeDir) => {
    const head = out.claim(8);
    const entries = out.claim(dir.children.length * 9);
    out.view.setUint32(head, dir.children.length, true);
    out.view.setUint32(head + 4, start + entries, true);
    dir.children.forEach((child, i) => {
      const name = encodeName(child.name);
      const nameAt = out.claim(name.length + 1);
      out.bytes.set(name, nameAt);
      out.view.setUint32(entries + i * 9, start + nameAt, true);
      out.view.setUint32(entries + i * 9 + 4, start + out.length, true);
      out.bytes[entries + i * 9 + 8] = child.kind === 'dir' ? 1 : 0;
      if (child.kind === 'dir') layDir(child);
      else {
        const record = out.claim(9);
        files.push(child);
        records.push(start + record);
        out.view.setUint32(record + 4, child.file.size, true);
        out.bytes[record + 8] = methodOf(child.file);
      }
    });
  };
  layDir(root);
  return { bytes: out.bytes.slice(0, out.length), files, records };
}

export interface WriterTuning {
  /** A method per file (tests build archives mixing stored, LZ77 and zlib files, as real ones do). */
  methodOf?: (file: PackFile) => ChunkMethod;
}

/** Write `files` as HPI v1, every file with the options' method unless `tuning.methodOf` says otherwise. */
export async function writeHpiV1(
  files: readonly PackFile[],
  sink: ByteSink,
  options: PackOptions,
  tuning: WriterTuning = {},
): Promise<void> {
  const { headerKey, method: defaultMethod, trailer } = resolveV1Options(options);
  const pick = tuning.methodOf ?? (() => defaultMethod);
  if (sink.position !== 0) throw new Error('the HPI writer needs an empty sink: its offsets are absolute');
  const key = deriveKey(headerKey);
  const root = buildTree(files);
  const { bytes: directory, files: ordered, records } = layoutDirectory(root, V1_HEADER_SIZE, pick);
  const header = new Uint8Array(V1_HEADER_SIZE);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, HAPI, true);
  hv.setUint32(4, VERSION_1, true);
  hv.setUint32(8, V1_HEADER_SIZE + directory.length, true);
  hv.setUint32(12, headerKey, true);
  hv.setUint32(16, V1_HEADER_SIZE, true);
  await sink.write(header);
  await sink.write(new Uint8Array(directory.length));

  // Enciphered at the position they land on; the buffers are ours, so in place.
  const put = async (bytes: Uint8Array) => {
    if (key !== 0) positionCipherInPlace(bytes, sink.position, key);
    await sink.write(bytes);
  };
  const dirView = new DataView(directory.buffer);
  // Files come back in the order given, so the n-th is the n-th record's.
  let done = 0;
  for await (const { data, chunks, owned } of compressInOrder(ordered, (node) => pick(node.file), options)) {
    const record = records[done]! - V1_HEADER_SIZE;
    dirView.setUint32(record, sink.position, true);
    // Stored bytes are enciphered in place: copy them first unless they are the pipeline's own array.
    if (chunks === null) {
      // Also a file whose chunks would not have been smaller: its record says stored.
      directory[record + 8] = 0;
      await put(owned ? data : data.slice());
    } else await writeChunks(chunks, put);
    done++;
    options.onProgress?.(done, ordered.length);
  }
  if (key !== 0) positionCipherInPlace(directory, V1_HEADER_SIZE, key);
  await sink.writeAt(V1_HEADER_SIZE, directory);
  if (trailer) await sink.write(trailerBytes());
}

/** The chunk-size table, then the chunks (each 64 KiB of the file, compressed and scrambled as HPIPack does). */
async function writeChunks(chunks: Uint8Array[], put: (bytes: Uint8Array) => Promise<void>): Promise<void> {
  const table = new Uint8Array(chunks.length * 4);
  const tv = new DataView(table.buffer);
  chunks.forEach((c, i) => tv.setUint32(i * 4, c.length, true));
  await put(table);
  // Chunks laid end to end in one array (compress-order.ts) go out as one write: a write per chunk cost
  // a quarter of the main thread's allocations (each await its promises).
  const whole = laidEndToEnd(chunks);
  if (whole) await put(whole);
  else for (const chunk of chunks) await put(chunk);
}
