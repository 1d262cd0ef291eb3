import type { Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, type StudioPage } from './fixtures.js';

/**
 * The studio in a browser, end to end: `modpak serve` on the generated demo install (tests/e2e/fixtures.ts),
 * driven through Debian's Chromium. Each screen is saved as a screenshot in test-results/screenshots/.
 */

/** The studio loaded, the demo install opened by itself (app.info's initialRoot). */
async function open(studioPage: StudioPage): Promise<Page> {
  await studioPage.goto();
  await expect(studioPage.page.getByRole('list', { name: 'Mount order' })).toBeVisible();
  return studioPage.page;
}

async function showFiles(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Files', exact: true }).click();
  await expect(page.getByRole('tree', { name: 'Files' })).toBeVisible();
}

async function selectPath(page: Page, query: string, path: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search paths' }).fill(query);
  await page.getByRole('treeitem', { name: path, exact: true }).click();
}

test('opens the demo install: the game, the mount order and the ignored archives with reasons', async ({ studioPage, studio }) => {
  const page = await open(studioPage);
  await expect(page.getByTestId('game-name')).toHaveText('Total Annihilation');
  const order = page.getByRole('list', { name: 'Mount order' }).getByRole('listitem');
  await expect(order.first()).toContainText('rev31.gp3');
  await expect(order.first()).toContainText('gp3');
  await expect(order.filter({ hasText: 'totala3.hpi' })).toContainText('disc');
  const ignored = page.getByRole('list', { name: 'Ignored archives' });
  await expect(ignored.getByRole('listitem').filter({ hasText: 'rev30.gp3' })).toContainText('only rev31.gp3 is mounted');
  await expect(ignored.getByRole('listitem').filter({ hasText: 'Backup/old.hpi' })).toContainText('subfolder');
  await expect(page.getByRole('textbox', { name: 'Install folder' })).toHaveValue(studio.root);
  await studioPage.screenshot('home');
});

test('searches a path and the Layering panel names the winner; TDF text preview', async ({ studioPage }) => {
  const page = await open(studioPage);
  await showFiles(page);
  // The marks a benchmark reads: the tree arrived, then its first rows were drawn.
  await expect
    .poll(() => page.evaluate(() => ['modpak:tree-loaded', 'modpak:tree-rendered'].map((n) => performance.getEntriesByName(n).length)))
    .toEqual([1, 1]);
  await selectPath(page, 'armcom', 'units/ARMCOM.fbi');
  expect(await page.evaluate(() => performance.getEntriesByName('modpak:filter').length)).toBeGreaterThan(0);
  const layering = page.getByRole('region', { name: 'Layering' });
  await expect(layering.locator('[data-role="winner"]')).toContainText('rev31.gp3');
  await expect(layering.locator('[data-role="shadowed"]')).toContainText('totala1.hpi');
  const text = page.getByTestId('text-preview');
  await expect(text).toContainText('BuildTime=75000;');
  await expect(text.locator('.tok-section')).toHaveText('[UNITINFO]');
  await studioPage.screenshot('files-text');
  // What the override hides: totala1.hpi's own ARMCOM.fbi, without rev31.gp3's BuildTime.
  await layering.getByRole('button', { name: 'Preview from totala1.hpi' }).click();
  await expect(page.getByRole('region', { name: 'Preview' })).toContainText('from totala1.hpi');
  await expect(text).toContainText('Name=Commander;');
  await expect(text).not.toContainText('BuildTime=75000');

  // A glob over file names, and the keyboard: down from the search results to the second match.
  await page.getByRole('searchbox', { name: 'Search paths' }).fill('*.ota');
  await expect(page.getByRole('treeitem')).toHaveCount(10);
  await page.getByRole('tree', { name: 'Files' }).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('treeitem', { selected: true })).toHaveAccessibleName('maps/Great Divide.ota');
  await expect(layering.locator('[data-role="winner"]')).toContainText('totala4.hpi');
});

test('previews a PCX image with its palette named', async ({ studioPage }) => {
  const page = await open(studioPage);
  await showFiles(page);
  await selectPath(page, '*.pcx', 'bitmaps/logo.pcx');
  const canvas = page.getByRole('img', { name: 'bitmaps/logo.pcx: picture frame 1, 32 × 24' });
  await expect(canvas).toBeVisible();
  await expect(page.getByTestId('asset-palette')).toContainText("bitmaps/logo.pcx's own palette");
  // The pixels really are drawn: several distinct opaque colours on the canvas.
  const colours = await canvas.evaluate((el) => {
    const c = el as unknown as {
      getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
    };
    const data = c.getContext('2d').getImageData(0, 0, 32, 24).data;
    const seen = new Set<string>();
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] === 255) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
    return seen.size;
  });
  expect(colours).toBeGreaterThan(8);
  await studioPage.screenshot('files-pcx');
});

test('plays a WAV and shows its format', async ({ studioPage }) => {
  const page = await open(studioPage);
  await showFiles(page);
  await selectPath(page, 'beep', 'sounds/beep.wav');
  await expect(page.getByTestId('wav-info')).toContainText(/PCM, mono, \d+ Hz, \d+-bit, 0\.25 s/);
  await expect(page.locator('audio')).toHaveAttribute('src', /^blob:/);
});

test('extracts a folder of the install with progress and writes the winners', async ({ studioPage, studio }) => {
  const page = await open(studioPage);
  await showFiles(page);
  await page.getByRole('treeitem', { name: 'units/', exact: true }).click();
  const target = join(studio.scratch, 'extracted');
  await page.getByRole('textbox', { name: 'Extract to folder' }).fill(target);
  await page.getByRole('button', { name: 'Extract', exact: true }).click();
  const job = page.getByRole('region', { name: 'Jobs' }).locator('.job').last();
  await expect(job).toHaveAttribute('data-state', 'done');
  await expect(job).toContainText(`written to ${target}`);
  await expect(job.getByRole('progressbar')).toBeVisible();
  expect(await readFile(join(target, 'units/ARMCOM.fbi'), 'latin1')).toContain('BuildTime=75000');
  expect(await readFile(join(target, 'units/CORCOM.fbi'), 'latin1')).toContain('Loose commander');
  expect(existsSync(join(target, 'units/old/ARMOLD.fbi'))).toBe(true);
  await studioPage.screenshot('files-extract');
});

test('opens a single archive: info, entries in stored order, verify', async ({ studioPage, studio }) => {
  const page = await open(studioPage);
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Archive', exact: true }).click();
  await page.getByRole('textbox', { name: 'Archive file' }).fill(join(studio.root, 'totala1.hpi'));
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  const entries = page.getByRole('listbox', { name: 'Entries' });
  await expect(entries.getByRole('option').first()).toBeVisible();
  await expect(page.getByTestId('archive-format')).toContainText(/hpi/i);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('verify-result')).toContainText('check out');
  await entries.getByRole('option').filter({ hasText: 'bitmaps/logo.pcx' }).click();
  await expect(page.getByRole('img', { name: /logo\.pcx: picture frame 1, 32 × 24/ })).toBeVisible();
  await studioPage.screenshot('archive');
});

test('definitions: winners and what they hide, searchable', async ({ studioPage }) => {
  const page = await open(studioPage);
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Definitions', exact: true }).click();
  await page.getByRole('tab', { name: 'features' }).click();
  await page.getByRole('searchbox', { name: 'Search definitions' }).fill('carscar05');
  const row = page.getByRole('row').filter({ hasText: 'CarScar05' });
  await expect(row).toContainText('features/urban/cars2.tdf');
  await expect(row).toContainText('cars.tdf');
  await page.getByRole('searchbox', { name: 'Search definitions' }).fill('');
  await studioPage.screenshot('definitions');
});

test('a folder that is not an install gives a readable error, not a blank screen', async ({ studioPage, studio }) => {
  const page = await open(studioPage);
  await page.getByRole('textbox', { name: 'Install folder' }).fill(join(studio.scratch, 'no-such-folder'));
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('no-such-folder');
  await expect(page.getByRole('list', { name: 'Mount order' })).toBeVisible();
  await studioPage.screenshot('error');
});
