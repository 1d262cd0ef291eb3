/**
 * The CLI runs from a bundle of its TypeScript sources (out/cli/modpak.cjs). The bundle, with its code
 * cache (see warmUp), starts in ~50 ms and ~40 MB, where running the sources through the TypeScript loader
 * costs ~0.5 s and a loader thread (~40 MB more). Dependencies stay external (resolved from node_modules as
 * usual), except the small CommonJS packages on every start's path (INLINED): from node_modules each costs a
 * resolution and files to read, and commander would load child_process (and with it net and streams) for
 * the executable subcommands modpak never uses.
 *
 * It is built once, not checked at every start: `npm install` runs this file (`prepare`), as do the test
 * runs (vitest's and Playwright's global setup) and `npm run bench`, and each rebuilds only when a source
 * is newer than the bundle. `bin/modpak` builds it only when it is missing; `MODPAK_FRESH=1` makes it check
 * the sources first (while editing them). Rebuilding also empties out/cli/workers, where the worker
 * bundles made from the same sources are kept (see io/worker-bundle.ts).
 *
 * Run directly (`node bin/cli-bundle.mjs`): rebuild when stale, exit 1 if the bundle cannot be made.
 */
import { readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { modpakNodeFlags } from './node-flags.cjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(repo, 'out', 'cli');
const bundlePath = join(outDir, 'modpak.cjs');
const codeCacheDir = join(outDir, 'code-cache');
/** Worker bundles kept beside the CLI bundle, made on first use from the same sources. */
export const workerBundleDir = pathToFileURL(join(repo, 'out', 'cli', 'workers', '/'));
const SOURCE_DIRS = ['electron', 'shared'];
/** Packages bundled in (see above); every other package is imported from node_modules. */
const INLINED = new Set(['commander', 'picomatch']);
/**
 * Inlined packages that most starts never call (picomatch: only `-p` and the mount commands' globs), yet
 * are imported by modules every archive command loads (shared/globs.ts): our sources import a stand-in
 * that evaluates the package on first use (see packagesOutside), so `extract` and `info` without a glob
 * do not run it.
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
    // One CommonJS file, not ES module chunks: node compiles it with a code cache (code-cache.cjs), which
    // Node 20 has no way to do for ES modules. Commands still load what only they need with import(),
    // which esbuild turns into modules evaluated on first use: a start runs the bundle's own code and
    // the packages every command uses, not the MCP SDK or the web host.
    // Several processes may rebuild at once (parallel tests): each writes a file of its own, and the rename is atomic.
    const tmp = `${bundlePath}.${process.pid}.tmp`;
    await esbuild.build({
      entryPoints: [join(repo, 'electron', 'cli', 'main.ts')],
      outfile: tmp,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      plugins: [ownUrl, packagesOutside],
      // import() of a package becomes require() (node loads ES module packages that way too): code compiled
      // through vm.Script may import() only with an experimental loader option, which warns on stderr.
      supported: { 'dynamic-import': false },
      // A third less to read at every start and a smaller code cache; names stay, for stack traces.
      minifyWhitespace: true,
      minifySyntax: true,
      logLevel: 'silent',
    });
    await rm(codeCacheDir, { recursive: true, force: true });
    await rename(tmp, bundlePath);
    // The ES module bundle and chunks earlier versions wrote.
    await rm(join(outDir, 'chunks'), { recursive: true, force: true });
    await rm(join(outDir, 'modpak.mjs'), { force: true });
    warmUp();
    return pathToFileURL(bundlePath);
  } catch {
    return null;
  }
}

/**
 * The new bundle's code cache, made by bin/modpak running the commonest commands once on small archives
 * (electron/cli/warm-up.ts) under the node flags it always runs with. A failed warm-up costs only speed:
 * the next start that finds no cache writes one.
 */
function warmUp() {
  const bin = join(repo, 'bin', 'modpak');
  spawnSync(process.execPath, [...modpakNodeFlags(), bin], {
    env: { ...process.env, MODPAK_WARM_UP: '1', MODPAK_FRESH: '', NODE_OPTIONS: '', NODE_EXTRA_CA_CERTS: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 120_000,
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === (await import('node:fs')).realpathSync(process.argv[1])) {
  if ((await freshCliBundle()) === null) {
    process.stderr.write('modpak: the CLI bundle could not be built (is esbuild installed?)\n');
    process.exitCode = 1;
  }
}
