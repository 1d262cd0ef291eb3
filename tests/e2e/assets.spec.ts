import type { Locator, Page } from '@playwright/test';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, type StudioPage } from './fixtures.js';
import { runCli } from '../helpers/run-cli.js';
import { decodePng } from '../../shared/assets/png.js';

/**
 * The asset viewers in the browser: the demo install's anims/DEMOFX.gaf (rev31.gp3's copy wins over
 * totala1.hpi's), its palettes/PALETTE.PAL, and compare mode. The canvas must hold exactly the pixels the
 * CLI exports for the same file of the same install.
 */
async function open(studioPage: StudioPage): Promise<Page> {
  await studioPage.goto();
  await expect(studioPage.page.getByRole('list', { name: 'Mount order' })).toBeVisible();
  const page = studioPage.page;
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Files', exact: true }).click();
  await expect(page.getByRole('tree', { name: 'Files' })).toBeVisible();
  return page;
}

async function selectPath(page: Page, query: string, path: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search paths' }).fill(query);
  await page.getByRole('treeitem', { name: path, exact: true }).click();
}

/** The canvas's own pixels (getImageData), as RGBA bytes. */
function canvasPixels(canvas: Locator): Promise<{ width: number; height: number; rgba: number[] }> {
  return canvas.evaluate((el) => {
    const c = el as unknown as {
      width: number;
      height: number;
      getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
    };
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    return { width: c.width, height: c.height, rgba: Array.from(data) };
  });
}

/** What `modpak gaf export FILE --install ROOT` writes for frame `frame` of `sequence`. */
async function cliFrame(root: string, path: string, sequence: string, frame: number) {
  const dir = await mkdtemp(join(tmpdir(), 'e2e-gaf-'));
  try {
    const run = await runCli(['gaf', 'export', path, '--install', root, '-t', dir]);
    expect(run.code, run.stderr).toBe(0);
    return decodePng(new Uint8Array(await readFile(join(dir, sequence, `${frame}.png`))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('a GAF: sequences, the frame on a checkerboard equal to the CLI PNG, play, the install palette', async ({ studioPage, studio }) => {
  const page = await open(studioPage);
  await selectPath(page, 'demofx', 'anims/DEMOFX.gaf');
  const preview = page.getByRole('region', { name: 'Preview' });
  const canvas = preview.getByTestId('asset-canvas');
  await expect(canvas).toBeVisible();
  await expect(preview.getByTestId('asset-format')).toHaveText('GAF (TA)');
  await expect(preview.getByTestId('asset-palette')).toContainText('palettes/PALETTE.PAL from totala1.hpi');
  await expect(preview.getByRole('list', { name: 'Sequences' }).getByRole('button')).toHaveCount(2);

  const expected = await cliFrame(studio.root, 'anims/DEMOFX.gaf', 'demofx', 0);
  const shown = await canvasPixels(canvas);
  expect([shown.width, shown.height]).toEqual([expected.width, expected.height]);
  expect(Buffer.from(shown.rgba).equals(Buffer.from(expected.rgba))).toBe(true);
  // Transparent corners really are transparent, and the ring is drawn.
  expect(shown.rgba[3]).toBe(0);
  expect(new Set(shown.rgba.filter((_, i) => i % 4 === 3))).toEqual(new Set([0, 255]));

  // The layered last frame, through the strip, is the CLI's too.
  await preview.getByRole('option', { name: 'Frame 7' }).click();
  await expect(preview.getByTestId('frame-counter')).toHaveText('7 / 7');
  const layered = await cliFrame(studio.root, 'anims/DEMOFX.gaf', 'demofx', 6);
  expect(Buffer.from((await canvasPixels(canvas)).rgba).equals(Buffer.from(layered.rgba))).toBe(true);

  await preview.getByTestId('play').click();
  await expect(preview.getByTestId('frame-counter')).not.toHaveText('7 / 7');
  await preview.getByTestId('play').click();
  await preview.getByRole('button', { name: 'Zoom in' }).click();
  await expect(preview.getByTestId('zoom')).toHaveText(/^\d+×$/);
  await studioPage.screenshot('files-gaf');

  // The Hex tab is still there.
  await preview.getByRole('group', { name: 'Preview mode' }).getByRole('button', { name: 'Hex' }).click();
  await expect(preview.getByTestId('hex-view')).toContainText('00 01 01 00');
});

test('compare: the winning GAF beside the one it shadows, and a TDF as a diff', async ({ studioPage }) => {
  const page = await open(studioPage);
  await selectPath(page, 'demofx', 'anims/DEMOFX.gaf');
  const layering = page.getByRole('region', { name: 'Layering' });
  await expect(layering.locator('[data-role="shadowed"]')).toContainText('totala1.hpi');
  await layering.getByRole('button', { name: 'Compare totala1.hpi with the winner' }).click();
  const compare = page.getByRole('region', { name: 'Compare' });
  const canvases = compare.getByTestId('asset-canvas');
  await expect(canvases).toHaveCount(2);
  await expect(compare.locator('[data-role="compare-winner"]')).toContainText('rev31.gp3');
  await expect(compare.locator('[data-role="compare-shadowed"]')).toContainText('totala1.hpi');
  const [winner, shadowed] = [await canvasPixels(canvases.nth(0)), await canvasPixels(canvases.nth(1))];
  expect([winner.width, winner.height]).toEqual([shadowed.width, shadowed.height]);
  expect(Buffer.from(winner.rgba).equals(Buffer.from(shadowed.rgba))).toBe(false);
  await studioPage.screenshot('files-gaf-compare');

  await selectPath(page, 'armcom', 'units/ARMCOM.fbi');
  await layering.getByRole('button', { name: 'Compare totala1.hpi with the winner' }).click();
  const diff = page.getByRole('region', { name: 'Compare' }).getByTestId('compare-diff');
  await expect(diff).toContainText('+\tBuildTime=75000;');
  await expect(diff.locator('.u-add')).not.toHaveCount(0);
  await studioPage.screenshot('files-tdf-compare');
});

test('a palette: the 16 × 16 swatch with its facts', async ({ studioPage }) => {
  const page = await open(studioPage);
  await selectPath(page, 'palette', 'palettes/PALETTE.PAL');
  const preview = page.getByRole('region', { name: 'Preview' });
  const canvas = preview.getByTestId('asset-canvas');
  await expect(canvas).toHaveAttribute('data-width', '16');
  const pixels = await canvasPixels(canvas);
  expect(new Set(pixels.rgba.filter((_, i) => i % 4 === 3))).toEqual(new Set([255]));
  await expect(preview).toContainText('Unused bytes');
  await studioPage.screenshot('files-pal');
});

test("from a unit's FBI: its build picture and gadget GAF in one click", async ({ studioPage }) => {
  const page = await open(studioPage);
  await selectPath(page, 'armpw', 'units/ARMPW.fbi');
  const related = page.getByRole('navigation', { name: 'Related files' });
  await expect(related.getByRole('button')).toHaveCount(2);
  await expect(related).toContainText('unitpics/ARMPW.pcx');
  await studioPage.screenshot('files-fbi-related');
  await related.getByRole('button', { name: /Build button/ }).click();
  await expect(page.getByRole('treeitem', { selected: true })).toHaveAccessibleName('anims/ARMPW_gadget.gaf');
  await expect(page.getByRole('region', { name: 'Preview' }).getByTestId('asset-canvas')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Layering' })).toContainText('totala1.hpi');
});
