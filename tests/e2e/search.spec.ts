import { test, expect } from './fixtures.js';

/**
 * The Search screen on the demo install, which plants the mistakes the checks look for (ARMFARK and
 * CORZETA share UnitNumber 42, two weapons share ID 7, ARMFARK's Weapon1 names no weapon).
 */
test('search inside files lists path, line and winning archive, and a result opens its file', async ({ studioPage }) => {
  await studioPage.goto();
  const page = studioPage.page;
  await expect(page.getByRole('list', { name: 'Mount order' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('searchbox', { name: 'Regular expression' }).fill('unitnumber=42');
  await page.getByRole('button', { name: 'Search', exact: true }).last().click();
  const results = page.getByRole('table', { name: 'Search results' });
  await expect(results.getByRole('row')).toHaveCount(3);
  await expect(results).toContainText('units/ARMFARK.fbi');
  await expect(results).toContainText('AFark.ufo');
  await expect(results).toContainText('units/CORZETA.fbi');
  await expect(results).toContainText('zeta.ufo');
  await studioPage.screenshot('search-results');
  await results.getByRole('button', { name: 'units/CORZETA.fbi' }).click();
  await expect(page.getByRole('treeitem', { name: 'units/CORZETA.fbi', exact: true })).toBeVisible();
});

test('the sanity checks name the duplicate UnitNumber, the duplicate weapon ID and the missing weapon', async ({ studioPage }) => {
  await studioPage.goto();
  const page = studioPage.page;
  await expect(page.getByRole('list', { name: 'Mount order' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('button', { name: 'Run checks' }).click();
  const problems = page.getByRole('list', { name: 'Problems' });
  await expect(problems.getByRole('listitem')).toHaveCount(3);
  await expect(problems).toContainText('UnitNumber 42');
  await expect(problems).toContainText('weapon ID 7');
  await expect(problems).toContainText('Weapon1=FARK_CANNON');
  await studioPage.screenshot('sanity-checks');
});

test('the unit table lists the winning units with their fields, sorts and filters', async ({ studioPage }) => {
  await studioPage.goto();
  const page = studioPage.page;
  await expect(page.getByRole('list', { name: 'Mount order' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Units', exact: true }).click();
  const table = page.getByRole('table', { name: 'Units' });
  // ARMCOM is won by rev31.gp3, the patch, over totala1.hpi's copy.
  const armcom = table.getByRole('row').filter({ hasText: 'ARMCOM' });
  await expect(armcom).toContainText('rev31.gp3');
  await expect(armcom).toContainText('Commander');
  await page.getByRole('searchbox', { name: 'Filter units' }).fill('zeta.ufo');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('CORZETA');
  await page.getByRole('searchbox', { name: 'Filter units' }).fill('');
  await table.getByRole('button', { name: /^Unit/ }).click();
  const first = await table.getByRole('row').nth(1).textContent();
  await table.getByRole('button', { name: /^Unit/ }).click();
  const firstDescending = await table.getByRole('row').nth(1).textContent();
  expect(first).not.toBe(firstDescending);
  await expect(table.getByRole('columnheader', { name: /^Unit/ })).toHaveAttribute('aria-sort', 'ascending');
  await studioPage.screenshot('unit-table');
});
