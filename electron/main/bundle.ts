import { basename, join } from 'node:path';
import { workerBuildOptions } from '../io/worker-bundle.js';

/**
 * Build everything Electron loads, into out/:
 *   out/renderer/        the Vue renderer (vite, vite.config.ts)
 *   out/main/index.cjs   the main process, one CommonJS file (esbuild; only `electron` left external)
 *   out/preload/index.cjs the preload, one self-contained CommonJS file as a sandboxed preload must be
 *   out/main/<worker>.mjs  the worker threads (extraction, compression), self-contained ES modules: a
 *                          packaged app has no sources to bundle them from (see io/worker-bundle.ts)
 * Plain Node: used by `modpak studio`, `npm run dist` and the bundle tests.
 */
export const mainBundlePath = (repo: string, out = join(repo, 'out')) => join(out, 'main', 'index.cjs');
export const preloadBundlePath = (repo: string, out = join(repo, 'out')) => join(out, 'preload', 'index.cjs');

export async function buildRenderer(repo: string): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: join(repo, 'vite.config.ts'), logLevel: 'warn' });
}

/** Bundle main, preload and the workers from the sources in `repo` into `out` (default: repo/out). */
export async function buildElectronBundles(repo: string, out = join(repo, 'out')): Promise<void> {
  const esbuild = await import('esbuild');
  const common = {
    bundle: true,
    platform: 'node' as const,
    format: 'cjs' as const,
    target: 'node22',
    external: ['electron'],
    sourcemap: true,
    logLevel: 'warning' as const,
  };
  await esbuild.build({
    ...common,
    // Worker bundles come prebuilt (buildWorkerBundles); esbuild is only imported, at run time, by a
    // source checkout that has none: never bundle it.
    external: ['electron', 'esbuild'],
    entryPoints: [join(repo, 'electron', 'main', 'index.ts')],
    outfile: mainBundlePath(repo, out),
    // The shared modules locate files from import.meta.url; in a CommonJS bundle that is this file's URL.
    define: { 'import.meta.url': '__modpakFileUrl' },
    banner: { js: 'const __modpakFileUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
  await esbuild.build({
    ...common,
    // A sandboxed preload has only a small require (electron and a few modules): everything else is inlined.
    platform: 'browser',
    entryPoints: [join(repo, 'electron', 'preload', 'index.ts')],
    outfile: preloadBundlePath(repo, out),
  });
  // Built with the main bundle, so the two are never from different sources.
  await buildWorkerBundles(repo, out);
}

/**
 * Every worker entry. Each bundle lands beside the main bundle under the entry's name, which is where the
 * pools look once their `new URL('./x-worker.ts', import.meta.url)` is resolved against out/main/index.cjs.
 */
export const WORKER_ENTRIES = [
  'electron/services/extract-worker.ts',
  'electron/services/planned-extract-worker.ts',
  'electron/mods/compress-worker.ts',
  'electron/services/archive-task-worker.ts',
];

export const workerBundlePath = (entry: string, repo: string, out = join(repo, 'out')) =>
  join(out, 'main', basename(entry).replace(/\.ts$/, '.mjs'));

export async function buildWorkerBundles(repo: string, out = join(repo, 'out')): Promise<void> {
  const esbuild = await import('esbuild');
  for (const entry of WORKER_ENTRIES) {
    await esbuild.build({ ...workerBuildOptions(join(repo, entry)), logLevel: 'warning', outfile: workerBundlePath(entry, repo, out) });
  }
}

export async function buildStudio(repo: string): Promise<void> {
  await buildRenderer(repo);
  await buildElectronBundles(repo);
}
