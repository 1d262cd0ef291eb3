import { _electron as electron } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { repoRoot } from './server.js';

/**
 * The desktop shell end to end: Electron starts on the demo install, the window shows the studio, and
 * the page holds exactly the contract bridge (no Node). Runs where the Electron binary exists.
 */
function electronBinary(): string | null {
  const pathFile = join(repoRoot, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(repoRoot, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

const binary = electronBinary();
const MISSING = 'the Electron binary is missing (node_modules/electron/dist): it cannot be downloaded here';
// The list reporter shows a skip as a dash; say why once, on one line.
if (binary === null) console.log(`electron.spec.ts: skipped: ${MISSING}`);

test.describe('Electron', () => {
  test.skip(binary === null, MISSING);

  test('opens the demo install in a sandboxed window with only the contract bridge', async () => {
    const { buildElectronBundles } = await import('../../electron/main/bundle.js');
    await buildElectronBundles(repoRoot);
    const userData = await mkdtemp(join(tmpdir(), 'modpak-electron-'));
    const app = await electron.launch({
      executablePath: binary!,
      // Chromium refuses its OS sandbox to root (CI containers); the page's own sandbox (webPreferences) stays on.
      args: [
        join(repoRoot, 'out', 'main', 'index.cjs'),
        `--user-data-dir=${userData}`,
        '--disable-gpu',
        ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      ],
      env: { ...process.env, ELECTRON_ENABLE_LOGGING: '1' },
    });
    try {
      const win = await app.firstWindow();
      const errors: string[] = [];
      win.on('pageerror', (err) => errors.push(err.message));
      await expect(win).toHaveTitle(/ModPak Studio/);
      expect(win.url()).toBe('modpak://app/index.html');
      const shape = await win.evaluate(() => ({
        bridge: Object.keys((globalThis as unknown as { modpak: object }).modpak).sort(),
        node: typeof (globalThis as { require?: unknown }).require,
        process: typeof (globalThis as { process?: unknown }).process,
      }));
      expect(shape).toEqual({ bridge: ['call', 'on', 'pathForFile'], node: 'undefined', process: 'undefined' });
      const info = await win.evaluate(() =>
        (globalThis as unknown as { modpak: { call(n: string, r: unknown): Promise<unknown> } }).modpak.call('app.info', {}),
      );
      expect(info).toMatchObject({ ok: true, result: { host: 'electron', demo: true } });
      await expect(win.getByRole('list', { name: 'Mount order' })).toBeVisible();
      await win.screenshot({ path: join(repoRoot, 'test-results', 'screenshots', 'electron-home.png') });
      expect(errors).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
