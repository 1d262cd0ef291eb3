import type { PackFile, PackOptions } from '../archive.js';
import { PANGYA_LZ77_METHOD, PANGYA_LZ77X_METHOD } from '../file-codecs.js';
import { compressInOrder } from '../compress-order.js';
import type { ByteSink } from '../../io/byte-sink.js';
import { fail } from '../../../shared/errors.js';
import { pathKey } from '../../../shared/paths.js';
import {
  KIND_DIR,
  KIND_LZ77,
  KIND_LZ77X,
  KIND_STORED,
  MAX_NAME_LENGTH,
  U32_MAX,
  encodeEntry,
  encodeTrailer,
  storedNameLength,
  type MetadataCipher,
  type PlainEntry,
  type StorageKind,
} from './layout.js';
import { encodeName } from './names.js';
import { REGION_KEYS } from './regions.js';

/**
 * Pangya PAK writer: file data in the given order from offset 0, then the table, then the trailer.
 * Folders get directory entries (type 2) just before the first entry inside them, as the game's own
 * archives have them. Names are written with `\` (the game is a Windows program and its own archives use
 * it; readers here accept both) in CP949. A file whose compressed form would not be smaller is stored
 * (type 0): the game reads stored entries in every archive version.
 */

const SEPARATOR = '\\';
/** A folder's place in the file order: no bytes to read. */
const NO_FILE: PackFile = { path: '', size: 0, read: () => Promise.resolve(new Uint8Array(0)) };

interface Planned {
  path: string;
  name: Uint8Array;
  file: PackFile | null;
}

function storageKind(method: PackOptions['method']): StorageKind {
  if (method === undefined || method === 'lz77') return KIND_LZ77;
  if (method === 'lz77x') return KIND_LZ77X;
  if (method === 'none') return KIND_STORED;
  fail('unsupported', `Pangya PAK has no ${method} method: use lz77, lz77x or none`);
}

/** Turn the files into entries, with a directory entry before the first file of each folder. */
function plan(files: readonly PackFile[], cipher: MetadataCipher): Planned[] {
  const out: Planned[] = [];
  const folders = new Set<string>();
  const named = (path: string, file: PackFile | null): Planned => {
    const stored = path.split('/').join(SEPARATOR);
    const name = encodeName(stored, path);
    const limit = cipher === 'xtea' ? MAX_NAME_LENGTH - (MAX_NAME_LENGTH % 8) : MAX_NAME_LENGTH;
    if (storedNameLength(name.length, cipher) > limit)
      fail('bad-name', `${path}: the name takes ${name.length} bytes, Pangya allows at most ${limit}`);
    return { path, name, file };
  };
  for (const file of files) {
    const parts = file.path.split('/').filter((p) => p !== '');
    if (parts.length === 0) fail('bad-name', `empty path in the file list`);
    for (let depth = 1; depth < parts.length; depth++) {
      const folder = parts.slice(0, depth).join('/');
      const key = pathKey(folder);
      if (folders.has(key)) continue;
      folders.add(key);
      out.push(named(folder, null));
    }
    out.push(named(parts.join('/'), file));
  }
  return out;
}

export async function packPangya(files: readonly PackFile[], sink: ByteSink, options: PackOptions): Promise<void> {
  const cipher: MetadataCipher = options.cipher ?? 'xtea';
  if (cipher === 'xor' && options.region) options.onWarning?.(`--region ${options.region} has no effect with --cipher xor`);
  const key = cipher === 'xtea' ? REGION_KEYS[options.region ?? 'us'] : null;
  const wanted = storageKind(options.method);
  // Every name is checked before a byte is written, so a bad name never costs a long compression run.
  const planned = plan(files, cipher);
  const method = wanted === KIND_LZ77 ? PANGYA_LZ77_METHOD : wanted === KIND_LZ77X ? PANGYA_LZ77X_METHOD : 0;
  const entries: PlainEntry[] = [];
  let done = 0;
  for (const item of planned)
    if (item.file && item.file.size > U32_MAX)
      fail('refused', `${item.path}: ${item.file.size} bytes is more than a Pangya entry can hold`);
  // Files are read and compressed in order (on every core when the options bring workers), a window at a time;
  // directory entries ride along and are written when their turn comes.
  const items = planned.map((p) => ({ ...p, file: p.file ?? NO_FILE }));
  for await (const { item, data, chunks } of compressInOrder(items, (i) => (i.file === NO_FILE ? 0 : method), options)) {
    if (item.file === NO_FILE) {
      entries.push({ kind: KIND_DIR, offset: 0, packedSize: 0, realSize: 0, name: item.name });
      continue;
    }
    const packed = chunks?.[0] ?? data;
    const kind: StorageKind = chunks ? wanted : KIND_STORED;
    const offset = sink.position;
    if (offset + packed.length > U32_MAX) fail('refused', `the archive would pass 4 GiB at ${item.path}: Pangya offsets are 32-bit`);
    await sink.write(packed);
    entries.push({ kind, offset, packedSize: packed.length, realSize: data.length, name: item.name });
    options.onProgress?.(++done, files.length);
  }
  const tableOffset = sink.position;
  if (tableOffset > U32_MAX) fail('refused', 'the table would start past 4 GiB: Pangya offsets are 32-bit');
  for (const entry of entries) await sink.write(encodeEntry(entry, cipher, key));
  await sink.write(encodeTrailer(tableOffset, entries.length));
}
