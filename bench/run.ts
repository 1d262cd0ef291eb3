/**
 * `npm run bench`: runs every bench/*.bench.ts in name order (or those named on the command line:
 * `npm run bench -- hpi vfs`). Each module exports `run(): Promise<void>` and prints its own figures.
 * Benchmarks build their corpora from code under .bench/ (git-ignored), never from timed tests.
 */
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';

const here = fileURLToPath(new URL('.', import.meta.url));
const wanted = process.argv.slice(2);
const files = (await readdir(here)).filter((f) => f.endsWith('.bench.ts')).sort();
for (const file of files) {
  const name = file.replace(/\.bench\.ts$/, '');
  if (wanted.length > 0 && !wanted.some((w) => name.includes(w))) continue;
  console.log(`\n== ${name} ==`);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { run: () => Promise<void> };
  await mod.run();
}
