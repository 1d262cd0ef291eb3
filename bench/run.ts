/**
 * `npm run bench`: runs every bench/*.bench.ts in name order (or those named on the command line:
 * `npm run bench -- hpi vfs`). Each module exports `run(): Promise<void>` and prints its own figures.
 * Benchmarks build their corpora from code under .bench/ (git-ignored), never from timed tests.
 *
 * Each module runs in a process of its own (same node flags), so no figure carries the heap, caches or
 * compiled code that an earlier benchmark left behind.
 */
import { spawnSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { emptyTrash } from './targets.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const self = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);

if (args[0] === '--module') {
  const mod = (await import(pathToFileURL(join(here, args[1]!)).href)) as { run: () => Promise<void> };
  await mod.run();
} else {
  // Benchmarks of the CLI as shipped run its bundle as built: rebuilt first when a source is newer.
  spawnSync(process.execPath, [join(here, '..', 'bin', 'cli-bundle.mjs')], { stdio: 'inherit' });
  // What an interrupted run left; the folders the benchmarks discard go only once all have run.
  await emptyTrash();
  const files = (await readdir(here)).filter((f) => f.endsWith('.bench.ts')).sort();
  let failed = 0;
  for (const file of files) {
    const name = file.replace(/\.bench\.ts$/, '');
    if (args.length > 0 && !args.some((w) => name.includes(w))) continue;
    console.log(`\n== ${name} ==`);
    const child = spawnSync(process.execPath, [...process.execArgv, self, '--module', file], { stdio: 'inherit' });
    if (child.status !== 0) {
      failed++;
      console.log(`${name}: failed (${child.signal ?? `exit ${child.status}`})`);
    }
  }
  await emptyTrash();
  process.exitCode = failed > 0 ? 1 : 0;
}
