import { fileURLToPath } from 'node:url';

/**
 * Worker threads run their code bundled once per process by esbuild (the bundler the Electron build already
 * uses) into plain JavaScript started from a data: URL. A worker running through the TypeScript loader
 * instead carries its own loader thread and transforms (about 45 MB more each); bundled, about 5 MB.
 * Callers fall back to working in-process where this cannot work (no esbuild, no sources: a packaged build).
 */
const bundles = new Map<string, Promise<URL>>();

export function bundledWorker(entry: URL): Promise<URL> {
  const key = entry.href;
  let pending = bundles.get(key);
  if (!pending) {
    pending = (async () => {
      const path = fileURLToPath(entry);
      const esbuild = await import('esbuild');
      const built = await esbuild.build({
        entryPoints: [path],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        write: false,
        logLevel: 'silent',
        // CommonJS dependencies bundled into ESM still call require() for Node's own modules.
        banner: { js: `import { createRequire as __modpakRequire } from 'node:module'; const require = __modpakRequire(${JSON.stringify(path)});` },
      });
      return new URL(`data:text/javascript;base64,${Buffer.from(built.outputFiles[0]!.contents).toString('base64')}`);
    })();
    // A failed bundle is not cached: the caller falls back, and a later call may try again.
    pending.catch(() => bundles.delete(key));
    bundles.set(key, pending);
  }
  return pending;
}
