import { test, expect } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type ViteDevServer } from 'vite';
import vue from '@vitejs/plugin-vue';
import { repoRoot } from './server.js';

/**
 * The ModelViewer drawing real models with WebGL in headless Chromium (SwiftShader): a page of its own
 * (tests/renderer/model-viewer-page) served by Vite on 127.0.0.1 with the shared samples, until the studio's
 * Files preview shows models. The canvas must hold a picture (many distinct colours, not the background
 * alone); a screenshot of each is saved under test-results/screenshots/.
 */
const samples = fileURLToPath(new URL('../../../shared/samples/', import.meta.url));
let server: ViteDevServer;
let origin = '';

test.beforeAll(async () => {
  server = await createServer({
    configFile: false,
    root: join(repoRoot, 'tests/renderer/model-viewer-page'),
    plugins: [vue()],
    logLevel: 'error',
    server: { host: '127.0.0.1', port: 0, strictPort: false, fs: { allow: [repoRoot, samples] }, hmr: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  await server.listen();
  const address = server.httpServer!.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  origin = `http://127.0.0.1:${address.port}`;
});

test.afterAll(async () => {
  await server?.close();
});

interface CanvasStats {
  width: number;
  height: number;
  colours: number;
  variance: number;
}

/** Distinct colours and the spread of brightness over the canvas, read back through toDataURL by the page. */
function canvasStats(page: import('@playwright/test').Page): Promise<CanvasStats> {
  return page.evaluate(() => (globalThis as unknown as { modelViewerStats(): Promise<CanvasStats> }).modelViewerStats());
}

for (const [label, file] of [
  ['armimr-3do', 'ta/armimr/objects3d/ARMIMR.3do'],
  ['screamer-3do', 'ta/objects3d/screamer.3do'],
] as const) {
  test(`ModelViewer draws ${file} with WebGL`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const url = `${origin}/?file=${encodeURIComponent(`/@fs${join(samples, file)}`)}&palette=${encodeURIComponent(`/@fs${join(samples, 'ta/palettes/PALETTE.PAL')}`)}`;
    await page.goto(url);
    const canvas = page.locator('canvas.model-canvas');
    await expect(canvas).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
    await expect(page.locator('.model-gl-error')).toHaveCount(0);
    // Rendering is on demand: give the first frame time to land.
    await expect.poll(async () => (await canvasStats(page)).colours, { timeout: 15_000 }).toBeGreaterThan(20);
    const before = await canvasStats(page);
    expect(before.variance).toBeGreaterThan(50);
    const dir = join(repoRoot, 'test-results', 'screenshots');
    await mkdir(dir, { recursive: true });
    await page.screenshot({ path: join(dir, `model-viewer-${label}.png`) });

    // Selecting a piece changes the picture (it is highlighted); the wireframe toggle does too.
    await page.locator('[role="treeitem"]').nth(1).click();
    await expect(page.locator('[role="treeitem"]').nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect
      .poll(async () => (await canvasStats(page)).colours !== before.colours || (await canvasStats(page)).variance !== before.variance)
      .toBe(true);
    await page.locator('input[name="wireframe"]').check();
    await expect.poll(async () => (await canvasStats(page)).variance, { timeout: 10_000 }).not.toBe(before.variance);
    await page.screenshot({ path: join(dir, `model-viewer-${label}-wireframe.png`) });
    expect(errors).toEqual([]);
  });
}

test('ModelViewer animates a Quake MDL: the frame slider moves the model', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(
    `${origin}/?fixture=mdl&quakePalette=${encodeURIComponent(`/@fs${join(samples, 'quake-assets/quake/gfx/palette.lmp')}`)}`,
  );
  const canvas = page.locator('canvas.model-canvas');
  await expect(canvas).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  await expect.poll(async () => (await canvasStats(page)).colours, { timeout: 15_000 }).toBeGreaterThan(5);
  const first = await canvasStats(page);
  const slider = page.locator('input[type="range"]');
  await expect(slider).toHaveAttribute('max', '2');
  await slider.fill('2');
  await expect(canvas).toHaveAttribute('data-frame', '2');
  await expect(page.locator('.model-frames')).toContainText('walk2');
  await expect.poll(async () => (await canvasStats(page)).variance, { timeout: 10_000 }).not.toBe(first.variance);
  // The camera is fitted to every frame's bounds: the moved model is still in view.
  expect((await canvasStats(page)).colours).toBeGreaterThan(5);
  const dir = join(repoRoot, 'test-results', 'screenshots');
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, 'model-viewer-mdl-frame2.png') });
  expect(errors).toEqual([]);
});
