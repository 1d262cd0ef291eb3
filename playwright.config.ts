import { defineConfig } from '@playwright/test';

/**
 * Browser end-to-end tests (tests/e2e) drive Debian's Chromium (never a downloaded browser) against
 * `modpak serve` on a generated install; the fixture in tests/e2e/fixtures.ts starts one server per worker.
 * The Electron test (tests/e2e/electron.spec.ts) skips itself where the Electron binary is missing.
 */
export const chromiumPath = process.env.MODPAK_CHROMIUM ?? '/usr/bin/chromium';
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

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
