import { join } from 'node:path';

/**
 * Build everything Electron loads, into out/:
 *   out/renderer/        the Vue renderer (vite, vite.config.ts)
 *   out/main/index.cjs   the main process, one CommonJS file (esbuild; only `electron` left external)
 *   out/preload/index.cjs the preload, one self-contained CommonJS file as a sandboxed preload must be
 * Plain Node: used by `modpak studio`, `npm run dist` and the bundle tests.
 */
export const mainBundlePath = (repo: string, out = join(repo, 'out')) => join(out, 'main', 'index.cjs');
export const preloadBundlePath = (repo: string, out = join(repo, 'out')) => join(out, 'preload', 'index.cjs');

export async function buildRenderer(repo: string): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: join(repo, 'vite.config.ts'), logLevel: 'warn' });
}

/** Bundle main and preload from the sources in `repo` into `out` (default: repo/out). */
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
    // The archive service builds its extraction worker with esbuild at run time when esbuild is there
    // (a source checkout) and extracts in-process when it is not (a packaged app): never bundle it.
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
}

export async function buildStudio(repo: string): Promise<void> {
  await buildRenderer(repo);
  await buildElectronBundles(repo);
}
