import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.js';

/** Fill the screens that start empty, so the scan and the screenshots see their rows, splitters and paths. */
async function fillScreen(page: Page, name: string, root: string): Promise<void> {
  if (name === 'Files') {
    await page.getByRole('searchbox', { name: 'Search paths' }).fill('cars2');
    await page.getByRole('treeitem', { name: 'features/urban/cars2.tdf', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Layering' }).locator('[data-role="winner"]')).toBeVisible();
  } else if (name === 'Archive' && !(await page.getByRole('listbox', { name: 'Entries' }).isVisible())) {
    await page.getByRole('textbox', { name: 'Archive file' }).fill(join(root, 'totala1.hpi'));
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('listbox', { name: 'Entries' }).getByRole('option').nth(1).click();
  }
}

/**
 * An axe-core scan of every screen in both themes: no serious or critical violation (contrast included),
 * each screen saved as a screenshot at 1440 × 900 and 1024 × 700.
 */
for (const scheme of ['dark', 'light'] as const) {
  test(`every screen passes axe with no serious or critical violation (${scheme})`, async ({ studioPage, studio }) => {
    // Seven screens, each scanned and saved at two sizes: more than the default minute on a loaded machine.
    test.setTimeout(150_000);
    const page = studioPage.page;
    await page.emulateMedia({ colorScheme: scheme });
    await studioPage.goto();
    await expect(page.getByRole('list', { name: 'Mount order' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Screens' });
    const names = await nav.getByRole('button').allTextContents();
    expect(names.length).toBeGreaterThanOrEqual(6);
    for (const name of names.map((n) => n.trim())) {
      await nav.getByRole('button', { name, exact: true }).click();
      await fillScreen(page, name, studio.root);
      await page.waitForTimeout(300);
      const result = await new AxeBuilder({ page }).analyze();
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(
        bad.map(
          (v) =>
            `${name}: ${v.id} (${v.impact}): ${v.nodes
              .slice(0, 3)
              .map((n) => n.target.join(' '))
              .join(', ')}`,
        ),
      ).toEqual([]);
      for (const [width, height] of [
        [1440, 900],
        [1024, 700],
      ] as const) {
        await page.setViewportSize({ width, height });
        await studioPage.screenshot(`${name.toLowerCase()}-${scheme}-${width}`);
      }
    }
  });
}
