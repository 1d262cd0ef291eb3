#!/usr/bin/env node
// `npm start`: the studio in Electron (`modpak studio [ROOT]`). Where the Electron binary is missing it
// prints one line naming the browser alternative (`npm run web`) and exits non-zero.
// `node bin/studio.mjs --build` only builds out/ (renderer, main, preload), for `npm run dist`.
import { register } from 'tsx/esm/api';

register();
const args = process.argv.slice(2);
if (args[0] === '--build') {
  const { buildStudio } = await import('../electron/main/bundle.ts');
  const { fileURLToPath } = await import('node:url');
  await buildStudio(fileURLToPath(new URL('..', import.meta.url)));
} else {
  const { main } = await import('../electron/cli/main.ts');
  process.exitCode = await main(['studio', ...args]);
}
