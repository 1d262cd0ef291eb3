import { build } from 'vite';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Build the renderer once before the browser tests (about 2 s): they run against out/renderer. */
export default async function globalSetup(): Promise<void> {
  // `modpak serve` runs the CLI bundle as built: rebuilt here when a source is newer (see bin/cli-bundle.mjs).
  execFileSync(process.execPath, [fileURLToPath(new URL('../../bin/cli-bundle.mjs', import.meta.url))], { stdio: 'inherit' });
  await build({ configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)), logLevel: 'warn' });
}
