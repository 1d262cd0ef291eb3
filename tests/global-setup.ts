import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * bin/modpak runs the CLI bundle as `npm install` built it, without looking at the sources (start-up):
 * the test run rebuilds it first when a source is newer, so every spawned CLI runs the code under test.
 *
 * The tests make their scratch folders with `tmpdir()`: the run points TMPDIR (inherited by the test
 * processes and every CLI they start) at a folder of its own and removes it at the end, so a run leaves
 * nothing behind in the machine's temporary folder.
 */
export default function globalSetup(): () => void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../bin/cli-bundle.mjs', import.meta.url))], { stdio: 'inherit' });
  const scratch = mkdtempSync(join(tmpdir(), 'modpak-tests-'));
  process.env.TMPDIR = scratch;
  return () => rmSync(scratch, { recursive: true, force: true });
}
