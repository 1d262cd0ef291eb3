import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { packFormatFor, packFormatFromExtension, type PackFile, type PackFormatId, type PackOptions } from '../formats/index.js';
import { RebuildChunkCache, type ChunkCache } from '../formats/archive.js';
import { fail } from '../../shared/errors.js';
import { writeFileAtomically } from '../io/byte-sink.js';
import { withArchive } from '../services/archive-service.js';
import { orderByRecord, readRecord, workspaceFiles } from './workspace.js';

/**
 * Export a workspace as an archive the game mounts: for TA a v1 HPI (.ufo/.hpi/.ccx/.gp3) with LZ77 chunks
 * and the Cavedog trailer. The files keep the stored order of `orderFrom` (an archive) or, failing that,
 * the order recorded when the workspace was opened from an archive; new files follow in name order.
 * Bytes go to a temporary sibling renamed into place, so a failed or cancelled export leaves the previous
 * archive exactly as it was.
 */

export interface ExportRequest {
  dir: string;
  target: string;
  /** Keep this archive's stored order for the paths it shares with the workspace. */
  orderFrom?: string;
  format?: PackFormatId;
  method?: PackOptions['method'];
  signal?: AbortSignal;
  /** Chunks of unchanged files from the previous build (watch and repack): see PackOptions.chunkCache. */
  chunkCache?: ChunkCache;
  onProgress?: (done: number, total: number) => void;
  onWarning?: (message: string) => void;
}

export interface ExportResult {
  target: string;
  files: number;
  bytes: number;
  size: number;
  durationMs: number;
}

/** The workspace's files in the order they will be written. */
export async function exportOrder(dir: string, target: string | null, orderFrom?: string, onWarning?: (m: string) => void): Promise<PackFile[]> {
  const excluded = target ? resolve(target) : null;
  const root = resolve(dir);
  let files = await workspaceFiles(dir, onWarning);
  // A target inside the workspace (packing in place) is never part of its own input.
  if (excluded) files = files.filter((f) => resolve(root, f.path) !== excluded && !isTemporaryOf(f.path, excluded));
  const order = orderFrom
    ? await withArchive(orderFrom, async (a) => a.entries.filter((e) => !e.dir).map((e) => e.path))
    : (await readRecord(dir))?.order;
  return order ? orderByRecord(files, order) : files;
}

function isTemporaryOf(path: string, target: string): boolean {
  const name = path.split('/').pop()!;
  return name.endsWith('.tmp') && name.startsWith(`.${target.split(/[\\/]/).pop()}.`);
}

export async function exportWorkspace(request: ExportRequest): Promise<ExportResult> {
  const started = performance.now();
  const target = resolve(request.target);
  const format = request.format ?? packFormatFromExtension(target);
  if (!format) fail('unsupported', `cannot tell the archive format from ${request.target}: use .ufo, .hpi, .ccx, .gp3 or .pak`);
  const { engine, options } = packFormatFor(format);
  if (!engine.pack) fail('unsupported', `writing ${engine.label} archives is not supported yet`);
  const files = await exportOrder(request.dir, target, request.orderFrom, request.onWarning);
  request.signal?.throwIfAborted();
  const packOptions: PackOptions = {
    ...options,
    // TA 3.1c mounts LZ77 and zlib alike; LZ77 is what Cavedog's own archives use.
    method: request.method ?? (format === 'hpi' ? 'lz77' : undefined),
    trailer: true,
    chunkCache: request.chunkCache,
    onWarning: request.onWarning,
    onProgress: (done, total) => {
      // Cancelling throws out of the writer; writeFileAtomically then removes the temporary file.
      request.signal?.throwIfAborted();
      request.onProgress?.(done, total);
    },
  };
  // The folder the user chose for the archive may not exist yet.
  await mkdir(dirname(target), { recursive: true });
  await writeFileAtomically(target, async (sink) => {
    await engine.pack!(files, sink, packOptions);
    request.signal?.throwIfAborted();
  });
  const size = (await stat(target)).size;
  const durationMs = Math.round((performance.now() - started) * 10) / 10;
  return { target, files: files.length, bytes: files.reduce((n, f) => n + f.size, 0), size, durationMs };
}

/**
 * The build of a watch: each call exports the workspace again, and files whose bytes did not change since
 * the previous build reuse their compressed chunks (the output is the same as a fresh export).
 */
export function repackBuilder(request: Omit<ExportRequest, 'chunkCache'>): () => Promise<ExportResult> {
  const chunks = new RebuildChunkCache();
  return () => exportWorkspace({ ...request, chunkCache: chunks.nextBuild() });
}
