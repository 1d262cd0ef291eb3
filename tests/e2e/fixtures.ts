import { test as base, expect, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startServe, repoRoot, type ServeProcess } from './server.js';

/**
 * Browser e2e fixtures:
 * - `studio` (one per worker): `modpak serve` on the generated demo install, a free port, its own cache.
 * - `studioPage`: a page object on it. goto() opens the URL with the token and fails the test on any page
 *   error (uncaught exception, console error, failed request to the host); screenshot(name) saves a PNG
 *   under test-results/screenshots/ (the CI keeps test-results/ as the artifacts folder).
 */
export interface Studio extends ServeProcess {
  /** The install the studio opened first (the demo). */
  root: string;
}

export class StudioPage {
  readonly errors: string[] = [];

  constructor(
    readonly page: Page,
    readonly studio: Studio,
  ) {
    page.on('pageerror', (err) => this.errors.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') this.errors.push(`console error: ${msg.text()}`);
    });
    page.on('requestfailed', (req) => {
      // An event stream torn down by a navigation is not an error.
      if (req.url().startsWith(studio.origin) && !req.url().includes('/api/events'))
        this.errors.push(`request failed: ${req.url()} ${req.failure()?.errorText}`);
    });
  }

  /** Open the studio and check that it started without errors. */
  async goto(query = ''): Promise<void> {
    const response = await this.page.goto(this.studio.url + query);
    expect(response?.status(), 'the page answers 200').toBe(200);
    await this.page.waitForLoadState('load');
    await expect(this.page.locator('#app')).not.toBeEmpty();
    this.expectNoErrors();
  }

  expectNoErrors(): void {
    expect(this.errors, 'no page errors').toEqual([]);
  }

  async screenshot(name: string): Promise<string> {
    const dir = join(repoRoot, 'test-results', 'screenshots');
    await mkdir(dir, { recursive: true });
    const path = join(dir, `${name}.png`);
    await this.page.screenshot({ path, fullPage: true });
    return path;
  }
}

export const test = base.extend<{ studioPage: StudioPage }, { studio: Studio }>({
  studio: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const serve = await startServe();
      try {
        const info = await serve.call<{ initialRoot: string }>('app.info', {});
        await use({ ...serve, root: info.initialRoot });
      } finally {
        await serve.stop();
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  studioPage: async ({ page, studio }, use) => {
    const studioPage = new StudioPage(page, studio);
    await use(studioPage);
    studioPage.expectNoErrors();
  },
});

export { expect };
