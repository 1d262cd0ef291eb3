/**
 * The CLI runs from a bundle of its TypeScript sources (out/cli/modpak.mjs). A bundle starts in ~0.1 s and
 * ~40 MB, where running the sources through the TypeScript loader costs ~0.5 s and a loader thread (~40 MB
 * more). Dependencies stay external (resolved from node_modules as usual), except the small CommonJS
 * packages on every start's path (INLINED): loaded by Node they cost its CommonJS loader and an export
 * scan of each file, and commander would load child_process (and with it net and streams) for the
 * executable subcommands modpak never uses.
 *
 * It is built once, not checked at every start: `npm install` runs this file (`prepare`), as do the test
 * runs (vitest's and Playwright's global setup) and `npm run bench`, and each rebuilds only when a source
 * is newer than the bundle. `bin/modpak` builds it only when it is missing; `MODPAK_FRESH=1` makes it check
 * the sources first (while editing them). Rebuilding also empties out/cli/workers, where the worker
 * bundles made from the same sources are kept (see io/worker-bundle.ts).
 *
 * Run directly (`node bin/cli-bundle.mjs`): rebuild when stale, exit 1 if the bundle cannot be made.
 */
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';

const repo = fileURLToPath(new URL('..', import.meta.url));
const bundlePath = join(repo, 'out', 'cli', 'modpak.mjs');
/** Worker bundles kept beside the CLI bundle, made on first use from the same sources. */
export const workerBundleDir = pathToFileURL(join(repo, 'out', 'cli', 'workers', '/'));
const SOURCE_DIRS = ['electron', 'shared'];
/** Packages bundled in (see above); every other package is imported from node_modules. */
const INLINED = new Set(['commander', 'picomatch']);
/**
 * Inlined packages that most starts never call (picomatch: only `-p` and the mount commands' globs), yet
 * are imported by modules every archive command loads (shared/globs.ts): our sources import a stand-in
 * that evaluates the package on first use (see packagesOutside), so `extract` and `info` without a glob
 * do not run it. Bundled as one chunk either way.
 */
const EVALUATED_ON_USE = new Set(['picomatch']);

/** The newest modification time of any .ts source the CLI may import (a few hundred stats). */
async function newestSource() {
  let newest = 0;
  const walk = async (dir) => {
    for (const item of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, item.name);
      if (item.isDirectory()) await walk(full);
      else if (item.name.endsWith('.ts')) newest = Math.max(newest, (await stat(full)).mtimeMs);
    }
  };
  for (const d of SOURCE_DIRS) await walk(join(repo, d));
  newest = Math.max(newest, (await stat(fileURLToPath(import.meta.url))).mtimeMs);
  return newest;
}

/**
 * Modules find files next to themselves through import.meta.url (worker entries, the repo root): in one
 * bundle every module would see the bundle's URL, so each module's own URL is written in at load time.
 * Occurrences inside quotes (configuration keys that name it) are left alone.
 */
const ownUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: text.replace(/(?<!['"`])\bimport\.meta\.url\b(?!['"`])/g, url), loader: 'ts' };
    });
  },
};

/**
 * Every package external but the INLINED ones; inside those, child_process is required only when used
 * (commander's executable subcommands), through a stand-in that loads it on first property access.
 * Our sources' imports of an EVALUATED_ON_USE package get a stand-in too: a function that evaluates the
 * bundled package when it is first called or a property of it is read (esbuild's import of a CommonJS
 * module only lists the stand-in's own keys and, in Node mode, never asks for __esModule).
 */
const packagesOutside = {
  name: 'packages-outside',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || args.path.startsWith('file:')) {
        const inlined = args.importer.includes('/node_modules/');
        if (inlined && /^node:child_process$/.test(args.path)) return { path: 'lazy-child-process', namespace: 'modpak' };
        return { path: args.path, external: true };
      }
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      if (!INLINED.has(name)) return { path: args.path, external: true };
      const fromSources = args.namespace === 'file' && !args.importer.includes('/node_modules/');
      if (fromSources && EVALUATED_ON_USE.has(name)) return { path: `on-use:${args.path}`, namespace: 'modpak' };
      return undefined;
    });
    build.onLoad({ filter: /^lazy-child-process$/, namespace: 'modpak' }, () => ({
      contents: `module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });`,
      loader: 'js',
    }));
    build.onLoad({ filter: /^on-use:/, namespace: 'modpak' }, (args) => {
      const real = JSON.stringify(args.path.slice('on-use:'.length));
      return {
        contents: [
          `let real;`,
          `const load = () => (real ??= require(${real}));`,
          `module.exports = new Proxy(function onUse() {}, {`,
          `  apply: (_, self, args) => Reflect.apply(load(), self, args),`,
          `  get: (_, key) => (key === '__esModule' ? undefined : load()[key]),`,
          `  has: (_, key) => key in load(),`,
          `});`,
        ].join('\n'),
        loader: 'js',
        resolveDir: repo,
      };
    });
  },
};

/** The bundle as it is, or built when missing (no look at the sources); null when it cannot be made. */
export async function cliBundle() {
  if (await stat(bundlePath).catch(() => null)) return pathToFileURL(bundlePath);
  return freshCliBundle();
}

/** The bundle, rebuilt first when a source is newer; null when it cannot be made (the caller falls back to tsx). */
export async function freshCliBundle() {
  try {
    const built = await stat(bundlePath).catch(() => null);
    if (built && built.mtimeMs >= (await newestSource())) return pathToFileURL(bundlePath);
    const esbuild = await import('esbuild');
    await rm(fileURLToPath(workerBundleDir), { recursive: true, force: true });
    // Commands load what only they need with import(): those modules become chunks beside the bundle,
    // so a start compiles the bundle and the packages every command uses, not the MCP SDK or the web host.
    // Several processes may rebuild at once (parallel tests): each builds in a folder of its own; chunks
    // are named by their content, and the entry's rename, last, is atomic.
    const outDir = join(repo, 'out', 'cli');
    const tmp = join(outDir, `build-${process.pid}`);
    await rm(tmp, { recursive: true, force: true });
    await esbuild.build({
      entryPoints: { modpak: join(repo, 'electron', 'cli', 'main.ts') },
      outdir: tmp,
      outExtension: { '.js': '.mjs' },
      chunkNames: 'chunks/[name]-[hash]',
      splitting: true,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      plugins: [ownUrl, packagesOutside],
      // The inlined CommonJS packages call require() for Node's own modules. Every chunk gets the banner
      // (a start loads 15-20 of them), and only the one with esbuild's require shim ever calls it: each
      // makes its require on first call, not at load.
      banner: {
        js: `import { createRequire as __modpakCreateRequire } from 'node:module'; let __modpakRequire; function require(id) { return (__modpakRequire ??= __modpakCreateRequire(import.meta.url))(id); }`,
      },
      logLevel: 'silent',
    });
    await mkdir(join(outDir, 'chunks'), { recursive: true });
    const chunks = new Set(await readdir(join(tmp, 'chunks')).catch(() => []));
    for (const name of chunks) await rename(join(tmp, 'chunks', name), join(outDir, 'chunks', name));
    await rename(join(tmp, 'modpak.mjs'), bundlePath);
    await rm(tmp, { recursive: true, force: true });
    for (const name of await readdir(join(outDir, 'chunks')))
      if (!chunks.has(name)) await rm(join(outDir, 'chunks', name), { force: true });
    return pathToFileURL(bundlePath);
  } catch {
    return null;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === (await import('node:fs')).realpathSync(process.argv[1])) {
  if ((await freshCliBundle()) === null) {
    process.stderr.write('modpak: the CLI bundle could not be built (is esbuild installed?)\n');
    process.exitCode = 1;
  }
}
