import { build } from 'vite';
import { fileURLToPath } from 'node:url';

/** Build the renderer once before the browser tests (about 2 s): they run against out/renderer. */
export default async function globalSetup(): Promise<void> {
  await build({ configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)), logLevel: 'warn' });
}
