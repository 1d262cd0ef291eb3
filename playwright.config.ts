import { defineConfig } from '@playwright/test';
import { chromiumArgs, findChromium } from './tests/e2e/browser.js';

/**
 * Browser end-to-end tests (tests/e2e) drive a Chromium that is already on the machine or inside an npm
 * package (never a downloaded browser; see tests/e2e/browser.ts) against `modpak serve` on a generated
 * install; the fixture in tests/e2e/fixtures.ts starts one server per worker. The Electron test
 * (tests/e2e/electron.spec.ts) skips itself where the Electron binary is missing.
 */
const chromium = await findChromium();
if (!process.env.MODPAK_QUIET_BROWSER) {
  process.env.MODPAK_QUIET_BROWSER = '1';
  console.log(`browser: ${chromium.source} (${chromium.path})`);
}
export const chromiumPath = chromium.path;
export { chromiumArgs };

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './tests/e2e/global-setup.ts',
  outputDir: 'test-results',
  // Two cores shared with everything else: one worker, tests in order.
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    screenshot: 'only-on-failure',
    trace: 'off',
    viewport: { width: 1280, height: 800 },
  },
});
