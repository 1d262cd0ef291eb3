/**
 * HPI v2 (TA: Kingdoms) writer: the 32-byte header (patched at the end), every file's payload from 0x20
 * (one SQSH chunk per file, as HPIPack and the seed write it, or stored when compressing does not save
 * space; readers that take only a file's first chunk would cut a multi-chunk file), then the name block and the
 * directory block, each wrapped in one SQSH chunk only when that is smaller. Entry checksums are written.
 * Last78 is 0 for a fresh archive; a rewrite (`--order-from` an archive that has one) keeps the original
 * 78-byte block, opaque, at the end of the file.
 */
import type { ChunkCache, PackFile, PackOptions } from '../archive.js';
import type { ByteSink } from '../../io/byte-sink.js';
import { fail } from '../../../shared/errors.js';
import { entryChecksum } from './checksums.js';
import { HAPI, V2_HEADER_SIZE, VERSION_2 } from './header.js';
import { encodeName } from './names.js';
import { CHUNK_SIZE, encodeChunk, type ChunkMethod } from './sqsh.js';
import { buildTree, type TreeDir, type TreeFile } from './tree.js';
import { compressInOrder } from '../compress-order.js';
import { LAST78_SIZE } from './v2-reader.js';

const DIR2_SIZE = 20;
const FILE2_SIZE = 24;

export function resolveV2Method(options: PackOptions): ChunkMethod {
  const method = options.method ?? 'zlib';
  if (method === 'lz77x') fail('unsupported', 'lz77x is a Pangya method; HPI takes lz77, zlib or none');
  return method === 'lz77' ? 1 : method === 'zlib' ? 2 : 0;
}

/** The name pool: starts with NUL (the root's name), each name once per record. */
class NamePool {
  private parts: Uint8Array[] = [new Uint8Array(1)];
  size = 1;
  add(name: string): number {
    const bytes = encodeName(name);
    const at = this.size;
    this.parts.push(bytes, new Uint8Array(1));
    this.size += bytes.length + 1;
    return at;
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let o = 0;
    for (const p of this.parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  }
}

interface Laid {
  dir: TreeDir;
  at: number;
  subdirs: TreeDir[];
  files: TreeFile[];
  firstSub: number;
  firstFile: number;
}

/** Root at 0; then, folder by folder (breadth first), its subfolders' records and its files' records. */
function layout(root: TreeDir): { laid: Laid[]; size: number; fileRecords: Map<TreeFile, number> } {
  const laid: Laid[] = [];
  const fileRecords = new Map<TreeFile, number>();
  let size = DIR2_SIZE;
  const queue: { dir: TreeDir; at: number }[] = [{ dir: root, at: 0 }];
  for (let q = 0; q < queue.length; q++) {
    const { dir, at } = queue[q]!;
    const subdirs = dir.children.filter((c): c is TreeDir => c.kind === 'dir');
    const files = dir.children.filter((c): c is TreeFile => c.kind === 'file');
    const firstSub = subdirs.length > 0 ? size : 0;
    size += subdirs.length * DIR2_SIZE;
    const firstFile = files.length > 0 ? size : 0;
    size += files.length * FILE2_SIZE;
    subdirs.forEach((d, i) => queue.push({ dir: d, at: firstSub + i * DIR2_SIZE }));
    files.forEach((f, i) => fileRecords.set(f, firstFile + i * FILE2_SIZE));
    laid.push({ dir, at, subdirs, files, firstSub, firstFile });
  }
  return { laid, size, fileRecords };
}

/** Files in the order the reader lists them: a folder's subfolders (recursively), then its files. */
function readerOrder(dir: TreeDir, out: TreeFile[] = []): TreeFile[] {
  for (const c of dir.children) if (c.kind === 'dir') readerOrder(c, out);
  for (const c of dir.children) if (c.kind === 'file') out.push(c);
  return out;
}

/** A payload: the file's chunks when together they are smaller than the file, else the file (stored). */
function payloadOf(data: Uint8Array, chunks: Uint8Array[] | null): { parts: Uint8Array[]; compressedSize: number } {
  const total = chunks ? chunks.reduce((n, c) => n + c.length, 0) : 0;
  if (!chunks || data.length === 0 || total >= data.length) return { parts: [data], compressedSize: 0 };
  return { parts: chunks, compressedSize: total };
}

const WHOLE_FILE = 0x100;

/** A file as one SQSH chunk, from the rebuild cache when its bytes did not change (watch and repack). */
function wholeChunk(data: Uint8Array, method: ChunkMethod, cache: ChunkCache | undefined): Uint8Array {
  // Keyed apart from the same bytes cut into 64 KiB chunks: the cache's method word carries a 'whole' bit.
  const known = cache?.get(data, method | WHOLE_FILE)?.[0];
  if (known) return known.slice();
  const chunk = encodeChunk(data, method, true);
  cache?.set(data, method | WHOLE_FILE, [chunk.slice()]);
  return chunk;
}

/** A block (names, directory) as one SQSH chunk when that saves space, else raw. */
function blockOf(raw: Uint8Array): Uint8Array {
  const chunk = encodeChunk(raw, 2, true);
  return chunk.length < raw.length ? chunk : raw;
}

export async function writeHpiV2(files: readonly PackFile[], sink: ByteSink, options: PackOptions): Promise<void> {
  const method = resolveV2Method(options);
  if (sink.position !== 0) throw new Error('the HPI writer needs an empty sink: its offsets are absolute');
  const root = buildTree(files);
  const { laid, size: dirSize, fileRecords } = layout(root);
  const dir = new Uint8Array(dirSize);
  const dv = new DataView(dir.buffer);
  const names = new NamePool();
  await sink.write(new Uint8Array(V2_HEADER_SIZE));

  const ordered = readerOrder(root);
  let done = 0;
  // Files up to one 64 KiB chunk go through the compression pool; a larger file is compressed here as one chunk.
  const whole = (size: number) => size > CHUNK_SIZE && method !== 0;
  for await (const { item: node, data, chunks } of compressInOrder(ordered, (n) => (whole(n.file.size) ? 0 : method), options)) {
    const rec = fileRecords.get(node)!;
    const { parts, compressedSize } = payloadOf(data, whole(data.length) ? [wholeChunk(data, method, options.chunkCache)] : chunks);
    dv.setUint32(rec + 4, sink.position, true);
    dv.setUint32(rec + 8, data.length, true);
    dv.setUint32(rec + 12, compressedSize, true);
    dv.setUint32(rec + 16, 0, true);
    dv.setUint32(rec + 20, entryChecksum(data), true);
    for (const p of parts) await sink.write(p);
    options.onProgress?.(++done, ordered.length);
  }
  // Names in record order, so the pool reads like the directory.
  for (const l of laid) {
    dv.setInt32(l.at + 4, l.firstSub, true);
    dv.setInt32(l.at + 8, l.subdirs.length, true);
    dv.setInt32(l.at + 12, l.firstFile, true);
    dv.setInt32(l.at + 16, l.files.length, true);
    l.subdirs.forEach((d, i) => dv.setInt32(l.firstSub + i * DIR2_SIZE, names.add(d.name), true));
    l.files.forEach((f, i) => dv.setInt32(l.firstFile + i * FILE2_SIZE, names.add(f.name), true));
  }
  const nameBlock = blockOf(names.bytes());
  const nameAt = sink.position;
  await sink.write(nameBlock);
  const dirBlock = blockOf(dir);
  const dirAt = sink.position;
  await sink.write(dirBlock);
  const kept = options.carry?.last78;
  let last78At = 0;
  if (kept && kept.length === LAST78_SIZE) {
    last78At = sink.position;
    await sink.write(kept);
  } else if (kept) options.onWarning?.(`Last78 block of ${kept.length} bytes not kept: it must be ${LAST78_SIZE}`);
  const header = new Uint8Array(V2_HEADER_SIZE);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, HAPI, true);
  hv.setUint32(4, VERSION_2, true);
  hv.setUint32(8, dirAt, true);
  hv.setUint32(12, dirBlock.length, true);
  hv.setUint32(16, nameAt, true);
  hv.setUint32(20, nameBlock.length, true);
  hv.setUint32(24, V2_HEADER_SIZE, true);
  hv.setUint32(28, last78At, true);
  await sink.writeAt(0, header);
}
