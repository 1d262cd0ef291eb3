import { existsSync } from 'node:fs';
// A reader that stops early (`modpak list X | head`) closes the pipe: that is a normal end, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}
// Whatever escapes the commands' own handling still ends as one line, never a stack trace.
const lastWord = (err) => {
  process.stderr.write(`modpak: ${err instanceof Error ? err.message : String(err)}\n`);
  if (process.env.MODPAK_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
  process.exit(1);
};
process.on('uncaughtException', lastWord);
process.on('unhandledRejection', lastWord);

// The bundle (fast start, small footprint): as built by `npm install` (see cli-bundle.mjs), made when
// missing, checked against the sources only with MODPAK_FRESH=1; the sources through tsx otherwise.
// A start with the bundle in place does not load cli-bundle.mjs (its builder and source walk) at all.
const built = new URL('../out/cli/modpak.mjs', import.meta.url);
const builder = () => import('./cli-bundle.mjs');
const bundle =
  !process.env.MODPAK_FRESH && existsSync(built)
    ? built
    : await builder().then((b) => (process.env.MODPAK_FRESH ? b.freshCliBundle() : b.cliBundle()));
let main;
if (bundle) {
  const cli = await import(bundle.href);
  main = cli.main;
  cli.keepWorkerBundlesIn?.(new URL('../out/cli/workers/', import.meta.url));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../electron/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
