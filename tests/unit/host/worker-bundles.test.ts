import { describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildWorkerBundles, WORKER_ENTRIES, workerBundlePath } from '../../../electron/main/bundle.js';
import { bundledWorker } from '../../../electron/io/worker-bundle.js';
import { chunkViews } from '../../../electron/formats/hpi/chunks.js';
import { fileChunks } from '../formats/hpi/fixtures.js';
import type { CompressReply, CompressRequest } from '../../../electron/mods/compress-pool.js';
import { decodeChunkAt } from '../../../electron/formats/hpi/sqsh.js';
import { openBytes, packFile, packToBytes, sampleBytes } from '../formats/hpi/fixtures.js';

/**
 * A packaged app has no sources and no esbuild: its workers run from bundles built with the main bundle
 * (out/main/<name>.mjs). Here each bundle is copied alone into an empty folder far from the repository,
 * so it can only work if it is self-contained, and the pools' lookup must find it where the `.ts` entry
 * would have been.
 */
const repo = join(import.meta.dirname, '..', '..', '..');

async function isolatedBundles(): Promise<{ dir: string; entryUrl: (name: string) => URL }> {
  const out = await mkdtemp(join(tmpdir(), 'modpak-workers-out-'));
  await buildWorkerBundles(repo, out);
  const dir = await mkdtemp(join(tmpdir(), 'modpak-workers-alone-'));
  for (const entry of WORKER_ENTRIES) {
    const bundle = workerBundlePath(entry, repo, out);
    await copyFile(bundle, join(dir, bundle.split(/[\\/]/).pop()!));
  }
  await rm(out, { recursive: true, force: true });
  // The URL a pool resolves for its entry, `new URL('./x-worker.ts', import.meta.url)`, no .ts beside it.
  return { dir, entryUrl: (name) => pathToFileURL(join(dir, `${name}.ts`)) };
}

function message<T>(worker: Worker, type?: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: T & { type?: string }) => {
      if (type && m.type !== type) return;
      worker.off('message', onMessage);
      resolve(m);
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
}

describe('prebuilt worker bundles (what a packaged app runs)', () => {
  it('extract and compress from their bundles alone, found where the TypeScript entry would be', async () => {
    const { dir, entryUrl } = await isolatedBundles();
    try {
      // Extraction: a real archive, one batch, the bytes on disk.
      const text = sampleBytes(1, 150_000, 'text');
      const runs = sampleBytes(2, 70_000, 'runs');
      const archive = join(dir, 'mod.ufo');
      const bytes = await packToBytes([packFile('units/armcom.fbi', text), packFile('anims/armcom.gaf', runs)]);
      await writeFile(archive, bytes);
      const entries = (await openBytes(bytes)).entries;
      const indexOf = (path: string) => entries.findIndex((e) => e.path === path);
      const extractUrl = await bundledWorker(entryUrl('extract-worker'));
      expect(extractUrl.protocol).toBe('data:');
      const extractor = new Worker(extractUrl, { workerData: { path: archive, root: join(dir, 'x'), keepGoing: false } });
      try {
        await message(extractor, 'ready');
        const outs = [join(dir, 'x', 'units', 'armcom.fbi'), join(dir, 'x', 'anims', 'armcom.gaf')];
        extractor.postMessage({
          type: 'batch',
          items: [
            { index: indexOf('units/armcom.fbi'), out: outs[0] },
            { index: indexOf('anims/armcom.gaf'), out: outs[1] },
          ],
        });
        const done = await message<{ type: string; files: [number, unknown][]; message?: string }>(extractor);
        expect(done.type, done.message).toBe('batch-done');
        expect(new Uint8Array(await readFile(outs[0]!))).toEqual(text);
        expect(new Uint8Array(await readFile(outs[1]!))).toEqual(runs);
      } finally {
        await extractor.terminate();
      }

      // Compression: the same chunks as this thread makes.
      const compressor = new Worker(await bundledWorker(entryUrl('compress-worker')));
      try {
        compressor.postMessage({ id: 7, data: text, method: 1, into: null, lent: false } satisfies CompressRequest);
        const reply = await message<CompressReply>(compressor);
        expect(reply.id).toBe(7);
        if ('error' in reply) throw new Error(reply.error.message);
        if (reply.laid === null) throw new Error('text came back to be stored');
        const chunks = chunkViews(reply.laid);
        expect(chunks).toEqual(fileChunks(text, 1));
        const first = decodeChunkAt(chunks[0]!, 0, 0, 65536);
        expect(first.data).toEqual(text.subarray(0, 65536));
      } finally {
        await compressor.terminate();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
