import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * bin/modpak runs the CLI bundle as `npm install` built it, without looking at the sources (start-up):
 * the test run rebuilds it first when a source is newer, so every spawned CLI runs the code under test.
 */
export default function globalSetup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../bin/cli-bundle.mjs', import.meta.url))], { stdio: 'inherit' });
}
