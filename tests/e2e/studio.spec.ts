import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { generateDemoInstall } from '../../electron/demo/demo-install.js';

/**
 * The studio in a browser, end to end: `modpak serve` on a freshly generated demo install, driven through
 * Debian's Chromium. Each screen is saved as a screenshot in test-results/ (and attached to the report).
 */

const repo = fileURLToPath(new URL('../..', import.meta.url));

interface Studio {
  url: string;
  root: string;
  scratch: string;
}

/** Build the renderer once, generate a demo install and serve it; stop the server afterwards. */
const test = base.extend<{ studio: Studio; ready: Page }, { served: Studio }>({
  served: [
    async ({}, use) => {
      await build({ configFile: join(repo, 'vite.config.ts'), logLevel: 'error' });
      const scratch = await mkdtemp(join(tmpdir(), 'modpak-e2e-'));
      const root = await generateDemoInstall(join(scratch, 'TotalA'));
      const server: ChildProcess = spawn(process.execPath, [join(repo, 'bin/modpak'), 'serve', root, '--state', join(scratch, 'state')], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`modpak serve printed no URL in 30 s:\n${out}`)), 30_000);
        const onData = (chunk: Buffer) => {
          out += chunk.toString();
          const m = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[0]);
          }
        };
        server.stdout!.on('data', onData);
        server.stderr!.on('data', onData);
        server.on('exit', (code) => reject(new Error(`modpak serve exited with ${code}:\n${out}`)));
      });
      await use({ url, root, scratch });
      server.kill('SIGTERM');
      await rm(scratch, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  studio: async ({ served }, use) => use(served),
  /** The page with the studio loaded and the demo install opened; fails on any uncaught page error. */
  ready: async ({ page, studio }, use) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(studio.url);
    await expect(page.getByRole('list', { name: 'Mount order' })).toBeVisible();
    await use(page);
    expect(errors, 'uncaught errors in the page').toEqual([]);
  },
});

async function screenshot(page: Page, info: TestInfo, name: string): Promise<void> {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await info.attach(name, { path, contentType: 'image/png' });
}

async function showFiles(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Files', exact: true }).click();
  await expect(page.getByRole('tree', { name: 'Files' })).toBeVisible();
}

async function selectPath(page: Page, query: string, path: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search paths' }).fill(query);
  await page.getByRole('treeitem', { name: path, exact: true }).click();
}

test('opens the demo install: the game, the mount order and the ignored archives with reasons', async ({ ready: page, studio }, info) => {
  await expect(page.getByTestId('game-name')).toHaveText('Total Annihilation');
  const order = page.getByRole('list', { name: 'Mount order' }).getByRole('listitem');
  await expect(order.first()).toContainText('rev31.gp3');
  await expect(order.first()).toContainText('gp3');
  await expect(order.filter({ hasText: 'totala3.hpi' })).toContainText('disc');
  const ignored = page.getByRole('list', { name: 'Ignored archives' });
  await expect(ignored.getByRole('listitem').filter({ hasText: 'rev30.gp3' })).toContainText('only rev31.gp3 is mounted');
  await expect(ignored.getByRole('listitem').filter({ hasText: 'Backup/old.hpi' })).toContainText('subfolder');
  await expect(page.getByRole('textbox', { name: 'Install folder' })).toHaveValue(studio.root);
  await screenshot(page, info, 'home');
});

test('searches a path and the Layering panel names the winner; TDF text preview', async ({ ready: page }, info) => {
  await showFiles(page);
  await selectPath(page, 'armcom', 'units/ARMCOM.fbi');
  const layering = page.getByRole('region', { name: 'Layering' });
  await expect(layering.locator('[data-role="winner"]')).toContainText('rev31.gp3');
  await expect(layering.locator('[data-role="shadowed"]')).toContainText('totala1.hpi');
  const text = page.getByTestId('text-preview');
  await expect(text).toContainText('BuildTime=75000;');
  await expect(text.locator('.tok-section')).toHaveText('[UNITINFO]');
  await screenshot(page, info, 'files-text');

  // A glob over file names, and the keyboard: down from the search results to the second match.
  await page.getByRole('searchbox', { name: 'Search paths' }).fill('*.ota');
  await expect(page.getByRole('treeitem')).toHaveCount(10);
  await page.getByRole('tree', { name: 'Files' }).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('treeitem', { selected: true })).toHaveAccessibleName('maps/Great Divide.ota');
  await expect(layering.locator('[data-role="winner"]')).toContainText('totala4.hpi');
});

test('previews a PCX image decoded in the page', async ({ ready: page }, info) => {
  await showFiles(page);
  await selectPath(page, '*.pcx', 'bitmaps/logo.pcx');
  const canvas = page.getByRole('img', { name: 'bitmaps/logo.pcx, 32 × 24 PCX' });
  await expect(canvas).toBeVisible();
  // The pixels really are drawn: several distinct opaque colours on the canvas.
  const colours = await canvas.evaluate((el) => {
    const c = el as unknown as { getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
    const data = c.getContext('2d').getImageData(0, 0, 32, 24).data;
    const seen = new Set<string>();
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] === 255) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
    return seen.size;
  });
  expect(colours).toBeGreaterThan(8);
  await screenshot(page, info, 'files-pcx');
});

test('plays a WAV and shows its format', async ({ ready: page }) => {
  await showFiles(page);
  await selectPath(page, 'beep', 'sounds/beep.wav');
  await expect(page.getByTestId('wav-info')).toContainText(/PCM, mono, \d+ Hz, \d+-bit, 0\.25 s/);
  await expect(page.locator('audio')).toHaveAttribute('src', /^blob:/);
});

test('extracts a folder of the install with progress and writes the winners', async ({ ready: page, studio }, info) => {
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
  await screenshot(page, info, 'files-extract');
});

test('opens a single archive: info, entries in stored order, verify', async ({ ready: page, studio }, info) => {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Archive', exact: true }).click();
  await page.getByRole('textbox', { name: 'Archive file' }).fill(join(studio.root, 'totala1.hpi'));
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  const entries = page.getByRole('listbox', { name: 'Entries' });
  await expect(entries.getByRole('option').first()).toBeVisible();
  await expect(page.getByTestId('archive-format')).toContainText(/hpi/i);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('verify-result')).toContainText('check out');
  await entries.getByRole('option').filter({ hasText: 'bitmaps/logo.pcx' }).click();
  await expect(page.getByRole('img', { name: /logo\.pcx, 32 × 24 PCX/ })).toBeVisible();
  await screenshot(page, info, 'archive');
});

test('definitions: winners and what they hide, searchable', async ({ ready: page }, info) => {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Definitions', exact: true }).click();
  await page.getByRole('tab', { name: 'features' }).click();
  await page.getByRole('searchbox', { name: 'Search definitions' }).fill('carscar05');
  const row = page.getByRole('row').filter({ hasText: 'CarScar05' });
  await expect(row).toContainText('features/urban/cars2.tdf');
  await expect(row).toContainText('cars.tdf');
  await page.getByRole('searchbox', { name: 'Search definitions' }).fill('');
  await screenshot(page, info, 'definitions');
});

test('a folder that is not an install gives a readable error, not a blank screen', async ({ ready: page, studio }, info) => {
  await page.getByRole('textbox', { name: 'Install folder' }).fill(join(studio.scratch, 'no-such-folder'));
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('no-such-folder');
  await expect(page.getByRole('list', { name: 'Mount order' })).toBeVisible();
  await screenshot(page, info, 'error');
});
