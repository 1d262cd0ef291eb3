import type { Locator, Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, StudioPage, type Studio } from './fixtures.js';
import { startServe } from './server.js';
import { quakeSamplesInstall, samplesDir, taSamplesInstall } from '../helpers/sample-installs.js';

/**
 * The viewers on real sample files inside real installs (tests/helpers/sample-installs.ts), one
 * `modpak serve` for the whole file: a TA install (ARMIMR whole, more models, shadowed copies) and a Quake
 * game folder opened from the Home screen (the quakespasm PAK's gfx/conback.lmp, Quake 2 and Daikatana
 * WALs, a sprite, the models, both BSPs, a WAD2 and a WAD3). Each preview must hold a picture (not one
 * colour) and name the palette it used; a screenshot of each goes to test-results/screenshots/.
 */
test.describe.configure({ mode: 'serial' });

let base: string;
let quake: string;
let studio: Studio;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  base = await mkdtemp(join(tmpdir(), 'e2e-samples-'));
  const ta = await taSamplesInstall(join(base, 'ta'));
  quake = await quakeSamplesInstall(join(base, 'quake'));
  const serve = await startServe({ root: ta });
  studio = { ...serve, root: ta };
});

test.afterAll(async () => {
  await studio?.stop();
  if (base) await rm(base, { recursive: true, force: true });
});

async function open(page: Page, root?: string): Promise<StudioPage> {
  const studioPage = new StudioPage(page, studio);
  await studioPage.goto();
  await expect(page.getByRole('list', { name: 'Mount order' })).toBeVisible();
  if (root) {
    await page.getByRole('textbox', { name: 'Install folder' }).fill(root);
    await page.getByRole('textbox', { name: 'Install folder' }).press('Enter');
    await expect(page.getByRole('region', { name: 'Install summary' }).getByText(root).first()).toBeVisible({ timeout: 30_000 });
  }
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Files', exact: true }).click();
  await expect(page.getByRole('tree', { name: 'Files' })).toBeVisible();
  return studioPage;
}

async function selectPath(page: Page, path: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search paths' }).fill(path);
  await page.getByRole('treeitem', { name: path, exact: true }).click();
}

/** Distinct colours and the spread of brightness of any canvas (2D or WebGL with a kept buffer), copied onto a 2D canvas. */
function canvasStats(canvas: Locator): Promise<{ colours: number; variance: number; opaque: number }> {
  return canvas.evaluate((el) => {
    // The e2e tsconfig has no DOM types: the little of the canvas API used here, typed by hand.
    type Canvas2d = {
      width: number;
      height: number;
      getContext(kind: '2d'): {
        drawImage(source: unknown, x: number, y: number): void;
        getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
      };
    };
    const source = el as unknown as Canvas2d;
    const copy = (globalThis as unknown as { document: { createElement(tag: 'canvas'): Canvas2d } }).document.createElement('canvas');
    copy.width = source.width;
    copy.height = source.height;
    const ctx = copy.getContext('2d');
    ctx.drawImage(source, 0, 0);
    const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
    const colours = new Set<number>();
    let sum = 0;
    let sumSq = 0;
    let opaque = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] === 0) continue;
      opaque++;
      colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
      const y = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
      sum += y;
      sumSq += y * y;
    }
    const n = Math.max(1, opaque);
    return { colours: colours.size, variance: sumSq / n - (sum / n) ** 2, opaque };
  });
}

/** A WebGL model drawn: ready, and more than the background (rendering is on demand: poll). */
async function expectModelDrawn(canvas: Locator): Promise<void> {
  await expect(canvas).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  await expect.poll(async () => (await canvasStats(canvas)).colours, { timeout: 15_000 }).toBeGreaterThan(5);
}

/** A picture drawn: opaque pixels in several colours. */
async function expectPicture(canvas: Locator, minColours = 2): Promise<void> {
  await expect(canvas).toBeVisible();
  const stats = await canvasStats(canvas);
  expect(stats.opaque).toBeGreaterThan(0);
  expect(stats.colours).toBeGreaterThanOrEqual(minColours);
}

const bosPieces = /^piece\s+([^;]+);/m
  .exec(readFileSync(join(samplesDir, 'ta/armimr/scripts/ARMIMR.bos'), 'latin1'))![1]!
  .split(',')
  .map((s) => s.trim());

test('a 3DO in the Files preview: WebGL through SwiftShader, textured from the install, its piece tree', async ({ page }) => {
  const studioPage = await open(page);
  await selectPath(page, 'objects3d/ARMIMR.3do');
  const preview = page.getByRole('region', { name: 'Preview' });
  await expectModelDrawn(preview.locator('canvas.model-canvas'));
  const pieces = preview.getByRole('treeitem');
  // The BOS piece line names every object of the model (the unit test checks the same against the file).
  await expect(pieces).toHaveCount(bosPieces.length);
  for (const name of bosPieces) await expect(pieces.filter({ hasText: new RegExp(`^\\s*${name}\\b`, 'i') })).toHaveCount(1);
  await expect(preview.getByTestId('asset-format')).toHaveText('3DO model (TA)');
  await expect(preview).toContainText('palettes/PALETTE.PAL from totala1.hpi');
  // ArmImp.gaf (in the install) textures part of it; Cavedog's stock textures are not among the samples,
  // so those are named as missing, and fewer than all.
  const textures = Number(await preview.locator('.facts div').filter({ hasText: 'Textures' }).locator('dd').textContent());
  const missing = await preview.locator('.model-missing-name').count();
  expect(missing).toBeGreaterThan(0);
  expect(missing).toBeLessThan(textures);
  await studioPage.screenshot('samples-files-3do');
  studioPage.expectNoErrors();
});

test('compare: the winning 3DO beside the one it shadows, both drawn', async ({ page }) => {
  const studioPage = await open(page);
  await selectPath(page, 'objects3d/screamer.3do');
  const layering = page.getByRole('region', { name: 'Layering' });
  await layering.getByRole('button', { name: 'Compare totala1.hpi with the winner' }).click();
  const compare = page.getByRole('region', { name: 'Compare' });
  await expect(compare.locator('[data-role="compare-winner"]')).toContainText('rev31.gp3');
  const canvases = compare.locator('canvas.model-canvas');
  await expect(canvases).toHaveCount(2);
  await expectModelDrawn(canvases.nth(0));
  await expectModelDrawn(canvases.nth(1));
  // Two different models: their piece counts differ (armthund's tree over screamer's).
  const labels = [await canvases.nth(0).getAttribute('aria-label'), await canvases.nth(1).getAttribute('aria-label')];
  expect(labels[0]).not.toBe(labels[1]);
  await studioPage.screenshot('samples-compare-3do');
  studioPage.expectNoErrors();
});

test("a COB: its pieces checked against the unit's 3DO; a palette: the index under the pointer", async ({ page }) => {
  const studioPage = await open(page);
  await selectPath(page, 'scripts/ARMIMR.cob');
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview).toContainText(`Pieces in the model${bosPieces.join(', ')}`);
  await expect(preview).toContainText('Pieces missing from the modelnone');
  await studioPage.screenshot('samples-files-cob');

  await selectPath(page, 'palettes/PALETTE.PAL');
  const canvas = preview.getByTestId('asset-canvas');
  await expect(canvas).toBeVisible();
  const box = (await canvas.boundingBox())!;
  // Row 2, column 5 of the 16 × 16 grid: index 37, its colour from the file's own bytes.
  await page.mouse.move(box.x + (box.width * 5.5) / 16, box.y + (box.height * 2.5) / 16);
  const pal = readFileSync(join(samplesDir, 'ta/palettes/PALETTE.PAL'));
  await expect(preview.getByTestId('swatch-hover')).toHaveText(
    `Index 37 · RGB ${pal[148]}, ${pal[149]}, ${pal[150]} · #${[pal[148]!, pal[149]!, pal[150]!].map((v) => v.toString(16).padStart(2, '0')).join('')}`,
  );
  await studioPage.screenshot('samples-pal-hover');
  studioPage.expectNoErrors();
});

/** Each Quake-family preview: the path, the palette named under it, and whether it is a model. */
const QUAKE_PREVIEWS: { path: string; palette: string | RegExp; model?: boolean; shot: string }[] = [
  { path: 'gfx/conback.lmp', palette: 'gfx/palette.lmp from id1/pak1.pak', shot: 'lmp-conback' },
  { path: 'textures/lavatest.wal', palette: 'pics/colormap.pcx from id1/pak1.pak', shot: 'wal-quake2' },
  { path: 'textures/dk_wall.wal', palette: 'palette of textures/dk_wall.wal', shot: 'wal-daikatana' },
  { path: 'progs/flame.spr', palette: 'gfx/palette.lmp from id1/pak1.pak', shot: 'spr' },
  { path: 'pics/colormap.pcx', palette: "pics/colormap.pcx's own palette", shot: 'pcx' },
  { path: 'maps/textured.bsp', palette: 'gfx/palette.lmp from id1/pak1.pak', shot: 'bsp-quake' },
  { path: 'maps/hl.bsp', palette: /own/, shot: 'bsp-halflife' },
  { path: 'progs/player.mdl', palette: 'gfx/palette.lmp from id1/pak1.pak', model: true, shot: 'mdl' },
  { path: 'models/tri.md2', palette: '', model: true, shot: 'md2' },
  { path: 'models/tri.dkm', palette: '', model: true, shot: 'dkm' },
];

test('every Quake-family preview in Files: a picture, and the palette it used named under it', async ({ page }) => {
  test.setTimeout(120_000);
  const studioPage = await open(page, quake);
  const preview = page.getByRole('region', { name: 'Preview' });
  for (const item of QUAKE_PREVIEWS) {
    await selectPath(page, item.path);
    await expect(preview.getByTestId('asset-format').last(), item.path).toBeVisible({ timeout: 20_000 });
    if (item.model) {
      await expectModelDrawn(preview.locator('canvas.model-canvas'));
      // A model names its palette among its facts (MDL skins are paletted; MD2/DKM skins are files they name).
      if (item.palette) await expect(preview.locator('.facts')).toContainText(`Palette${item.palette}`);
      else await expect(preview.locator('.facts')).toContainText('Skin namesmodels/a/skin.pcx');
    } else {
      await expectPicture(preview.getByTestId('asset-canvas').first());
      await expect(preview.getByTestId('asset-palette').first(), item.path).toContainText(item.palette);
    }
    if (item.path.endsWith('.bsp')) {
      // The texture grid and the entity lump as text.
      await expect(preview.getByText('worldspawn').first()).toBeVisible();
    }
    await studioPage.screenshot(`samples-quake-${item.shot}`);
  }
  // conback.lmp is the quakespasm PAK's, inside id1/pak0.pak.
  await selectPath(page, 'gfx/conback.lmp');
  await expect(page.getByRole('region', { name: 'Layering' }).locator('[data-role="winner"]')).toContainText('id1/pak0.pak');
  studioPage.expectNoErrors();
});

test('compare a Quake 2 WAL: the winner beside the copy it shadows, two different pictures', async ({ page }) => {
  const studioPage = await open(page, quake);
  await selectPath(page, 'textures/lavatest.wal');
  await page.getByRole('region', { name: 'Layering' }).getByRole('button', { name: 'Compare id1/pak1.pak with the winner' }).click();
  const compare = page.getByRole('region', { name: 'Compare' });
  const canvases = compare.getByTestId('asset-canvas');
  await expect(canvases).toHaveCount(2, { timeout: 20_000 });
  await expectPicture(canvases.nth(0));
  await expectPicture(canvases.nth(1));
  await expect(compare.getByTestId('asset-palette')).toHaveCount(2);
  await expect(compare.getByTestId('asset-palette').nth(1)).toContainText('pics/colormap.pcx from id1/pak1.pak');
  expect(await canvases.nth(0).getAttribute('aria-label')).not.toBe(await canvases.nth(1).getAttribute('aria-label'));
  await studioPage.screenshot('samples-quake-compare-wal');
  studioPage.expectNoErrors();
});

test('a WAD in the Archive screen: its lumps listed and previewed with the open install’s palette', async ({ page }) => {
  const studioPage = await open(page, quake);
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Archive', exact: true }).click();
  const field = page.getByRole('textbox', { name: 'Archive file' });
  const entries = page.getByRole('listbox', { name: 'Entries' });
  const preview = page.getByRole('region', { name: 'Preview' });
  await field.fill(join(quake, 'id1', 'cr8_czg.wad'));
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('archive-format')).toContainText(/wad/i);
  await entries.getByRole('option').first().click();
  await expect(preview.getByRole('group', { name: 'Preview mode' }).getByRole('button').first()).toHaveText('MIPTEX');
  await expectPicture(preview.getByTestId('asset-canvas').first(), 4);
  await expect(preview.getByTestId('asset-palette')).toContainText('gfx/palette.lmp from id1/pak1.pak');
  await expect(preview.getByRole('list', { name: 'Sequences' }).getByRole('button')).toHaveCount(4);
  await studioPage.screenshot('samples-archive-wad2');

  // A WAD3 lump carries its palette; a PAK entry previews with the same viewers.
  await field.fill(join(quake, 'id1', 'hl.wad'));
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Archive info' })).toContainText('WAD3');
  await entries.getByRole('option').filter({ hasText: 'bongs2' }).click();
  await expectPicture(preview.getByTestId('asset-canvas').first(), 4);
  await expect(preview.getByTestId('asset-palette')).toContainText('palette of bongs2');
  await field.fill(join(quake, 'id1', 'pak0.pak'));
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('archive-format')).toContainText(/pak/i);
  await entries.getByRole('option').filter({ hasText: 'gfx/conback.lmp' }).click();
  await expectPicture(preview.getByTestId('asset-canvas').first(), 4);
  await expect(preview.getByTestId('asset-palette')).toContainText('gfx/palette.lmp from id1/pak1.pak');
  await studioPage.screenshot('samples-archive-pak-conback');
  studioPage.expectNoErrors();
});
