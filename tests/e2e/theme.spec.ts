import { test, expect } from './fixtures.js';

/** The light theme follows the system's preference, and the switch overrides it and is remembered. */
const background = (page: import('@playwright/test').Page) => page.evaluate<string>('getComputedStyle(document.body).backgroundColor');

test('the theme follows prefers-color-scheme, and the switch wins over it across a reload', async ({ studioPage }) => {
  const page = studioPage.page;
  await page.emulateMedia({ colorScheme: 'light' });
  await studioPage.goto();
  await expect(page.getByRole('list', { name: 'Mount order' })).toBeVisible();
  expect(await background(page)).toBe('rgb(246, 247, 249)');
  await studioPage.screenshot('home-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await background(page)).toBe('rgb(21, 23, 28)');
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('light');
  expect(await background(page)).toBe('rgb(246, 247, 249)');
  await page.reload();
  await expect(page.getByRole('list', { name: 'Mount order' })).toBeVisible();
  expect(await background(page)).toBe('rgb(246, 247, 249)');
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
  expect(await background(page)).toBe('rgb(21, 23, 28)');
});

test("Ctrl+F focuses the current screen's filter", async ({ studioPage }) => {
  const page = studioPage.page;
  await studioPage.goto();
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Files', exact: true }).click();
  await expect(page.getByRole('tree', { name: 'Files' })).toBeVisible();
  await page.getByRole('tree', { name: 'Files' }).click();
  await page.keyboard.press('Control+f');
  await expect(page.getByRole('searchbox', { name: 'Search paths' })).toBeFocused();
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Units', exact: true }).click();
  await page.keyboard.press('Control+f');
  await expect(page.getByRole('searchbox', { name: 'Filter units' })).toBeFocused();
});
