import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Worker threads run their code as one self-contained JavaScript bundle started from a data: URL.
 *
 * - In a source checkout, esbuild (the bundler the Electron build already uses) bundles the worker's
 *   TypeScript entry once per process. A worker running through the TypeScript loader instead carries its
 *   own loader thread and transforms (about 45 MB more each); bundled, about 5 MB.
 * - In a packaged app there are no sources and no esbuild: `npm run build` writes each worker's bundle
 *   beside the main bundle (`out/main/<name>.mjs`, see `buildWorkerBundles`), and the entry's `.mjs`
 *   sibling is used when it exists. It is read with the main process's fs (which reads inside app.asar)
 *   and started from a data: URL, so no worker ever loads a file from the archive itself.
 *
 * - The CLI runs from its own bundle and keeps the worker bundles beside it (`keepWorkerBundlesIn`): made
 *   once by esbuild, then started from the file, so a command does not pay esbuild (~0.3 s of CPU, and
 *   the workers waiting for it) at every start. Whoever rebuilds the CLI bundle empties that folder.
 *
 * Callers fall back to working in-process when neither is there.
 */
const bundles = new Map<string, Promise<URL>>();
let keptIn: URL | null = null;

/** Keep worker bundles as files in `dir` (a file: URL ending in '/') and start workers from them. */
export function keepWorkerBundlesIn(dir: URL): void {
  keptIn = dir;
}

async function build(entry: URL): Promise<Uint8Array> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({ ...workerBuildOptions(fileURLToPath(entry)), write: false });
  return result.outputFiles[0]!.contents;
}

/** The bundle as a file in the kept folder, made there first when missing (atomically: several processes may race). */
async function kept(dir: URL, entry: URL): Promise<URL> {
  const file = new URL(basename(fileURLToPath(entry)).replace(/\.ts$/, '.mjs'), dir);
  if (await stat(file).catch(() => null)) return file;
  const code = await build(entry);
  await mkdir(fileURLToPath(dir), { recursive: true });
  const tmp = `${fileURLToPath(file)}.${process.pid}.tmp`;
  await writeFile(tmp, code);
  await rename(tmp, file);
  return file;
}

/** The esbuild options that turn a worker entry into one self-contained ES module (build time and run time). */
export function workerBuildOptions(entryPath: string) {
  return {
    entryPoints: [entryPath],
    bundle: true,
    platform: 'node' as const,
    format: 'esm' as const,
    target: 'node20',
    logLevel: 'silent' as const,
    // CommonJS dependencies bundled into ESM still call require() for Node's own modules; every package is
    // inlined, so only built-ins are required and any absolute path serves as the base.
    banner: { js: `import { createRequire as __modpakRequire } from 'node:module'; const require = __modpakRequire(process.execPath);` },
  };
}

const dataUrl = (code: Uint8Array) => new URL(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);

/** A prebuilt bundle next to where the entry would be (`x.ts` → `x.mjs`), or null. */
async function prebuilt(entry: URL): Promise<URL | null> {
  if (!entry.pathname.endsWith('.ts')) return null;
  const code = await readFile(fileURLToPath(new URL(entry.href.replace(/\.ts$/, '.mjs')))).catch(() => null);
  return code ? dataUrl(code) : null;
}

export function bundledWorker(entry: URL): Promise<URL> {
  const key = entry.href;
  let pending = bundles.get(key);
  if (!pending) {
    pending = (async () => {
      const built = await prebuilt(entry);
      if (built) return built;
      if (keptIn) return kept(keptIn, entry);
      return dataUrl(await build(entry));
    })();
    // A failed bundle is not cached: the caller falls back, and a later call may try again.
    pending.catch(() => bundles.delete(key));
    bundles.set(key, pending);
  }
  return pending;
}

/**
 * Worker threads to start beside the calling thread for work spread over every core: one per other core
 * (at least one, at most three). The calling thread takes part too, so every core is busy and the process
 * carries one isolate fewer than with a worker per core.
 */
export function workersBesideThisThread(): number {
  return Math.max(1, Math.min(3, availableParallelism() - 1));
}
