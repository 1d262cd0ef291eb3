import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { packFormatFromExtension, type PackFile, type PackFormatId, type PackOptions } from '../formats/index.js';
import type { ChunkCache } from '../formats/archive.js';
import type { GameId } from '../../shared/vfs-types.js';
import { isTemporaryFileOf } from '../io/byte-sink.js';
import { RebuildChunkCache } from './chunk-cache.js';
import { orderLike, storedOrder, writeArchive } from './pack.js';
import { readRecord, workspaceFiles } from './workspace.js';

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
  /** The game the archive is for, when the format is not given: a Daikatana `.pak` is written in Daikatana's layout. */
  game?: GameId;
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

/** The workspace's files in the order they will be written, and what a rewrite of `orderFrom` keeps. */
export async function exportOrder(
  dir: string,
  target: string | null,
  orderFrom?: string,
  onWarning?: (m: string) => void,
): Promise<{ files: PackFile[]; carry?: Record<string, Uint8Array> }> {
  const excluded = target ? resolve(target) : null;
  const root = resolve(dir);
  let files = await workspaceFiles(dir, onWarning);
  // A target inside the workspace (packing in place) is never part of its own input.
  if (excluded) {
    files = files.filter((f) => {
      const abs = resolve(root, f.path);
      return abs !== excluded && !(dirname(abs) === dirname(excluded) && isTemporaryFileOf(f.path.split('/').pop() ?? '', excluded));
    });
  }
  if (orderFrom) {
    const stored = await storedOrder(orderFrom);
    return { files: orderLike(files, stored.order), carry: stored.carry };
  }
  const order = (await readRecord(dir))?.order;
  return { files: order ? orderLike(files, order) : files };
}

/**
 * The archive format an export to `target` is written in: the target's extension says it (.ufo .hpi .ccx
 * .gp3 → HPI, .pak → Quake's PAK), except that a `.pak` for Daikatana takes Daikatana's own layout (72-byte
 * entries), the only one its engine reads.
 */
export function exportFormatFor(target: string, game?: GameId): PackFormatId | null {
  const byName = packFormatFromExtension(target);
  return byName === 'pak' && game === 'daikatana' ? 'daikatana' : byName;
}

export async function exportWorkspace(request: ExportRequest): Promise<ExportResult> {
  const started = performance.now();
  const target = resolve(request.target);
  const { files, carry } = await exportOrder(request.dir, target, request.orderFrom, request.onWarning);
  request.signal?.throwIfAborted();
  const format = request.format ?? exportFormatFor(target, request.game);
  // The folder the user chose for the archive may not exist yet.
  await mkdir(dirname(target), { recursive: true });
  const { size } = await writeArchive({
    files,
    target,
    format: format ?? undefined,
    formatHint: 'use .ufo, .hpi, .ccx, .gp3 or .pak',
    options: {
      // TA 3.1c mounts LZ77 and zlib alike; LZ77 is what Cavedog's own archives use.
      method: request.method ?? (format === 'hpi' ? 'lz77' : undefined),
      trailer: true,
      carry,
      chunkCache: request.chunkCache,
      onWarning: request.onWarning,
      onProgress: (done, total) => {
        // Cancelling throws out of the writer; writeFileAtomically then removes the temporary file.
        request.signal?.throwIfAborted();
        request.onProgress?.(done, total);
      },
    },
    beforeCommit: () => request.signal?.throwIfAborted(),
  });
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
