/**
 * The asset viewers at TA scale (issue 13):
 * - decode every GAF and 3DO of a 60,000-entry install (16 archives, bench/util fullAssetInstall): its
 *   anims/, textures/ and objects3d/ hold the real samples of ../shared/samples/ta replicated to the counts of
 *   a real install (about 460 gadget GAFs, 30 texture GAFs, 1,100 models); each GAF read and every frame
 *   composited with the install's palette, each 3DO parsed and built into its mesh, textured from the
 *   install's texture GAFs (the index built once, timed apart). Target: a file's decode within one 60 Hz
 *   frame on average (16 ms).
 * - in headless Chromium against `modpak serve` on the sample installs (tests/helpers/sample-installs): from
 *   the click on a file in the Files tree to its viewer showing it (a canvas holding more than one colour,
 *   a WebGL model drawn, or the script's text), measured inside the page, for each viewer: GAF, 3DO, COB,
 *   TNT, PAL, and the Quake family's LMP, WAL (Quake 2, Daikatana), SPR, PCX, BSP, MDL, MD2, DKM. Target:
 *   under 1 s (the median of 3).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { buildRenderer } from '../electron/main/bundle.js';
import { InstallService } from '../electron/services/install-service.js';
import { assetContext } from '../electron/services/asset-service.js';
import { FormatError } from '../shared/errors.js';
import { readGaf } from '../shared/assets/ta/gaf.js';
import { renderGafFrame } from '../shared/assets/ta/gaf-pixels.js';
import { parse3do } from '../shared/assets/ta/3do.js';
import { threeDoToMesh } from '../shared/assets/ta/3do-mesh.js';
import { installTextureLookup } from '../shared/assets/ta/3do-asset.js';
import { chromiumArgs, findChromium } from '../tests/e2e/browser.js';
import { quakeSamplesInstall, samplesDir, taSamplesInstall } from '../tests/helpers/sample-installs.js';
import { figure, fullAssetInstall, timed } from './util.js';
import { serveAndWait } from '../tests/helpers/serve.js';
import { limit } from './targets.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(): Promise<void> {
  if (!existsSync(join(samplesDir, 'ta'))) {
    console.log(`no samples at ${samplesDir}: skipped`);
    return;
  }
  await decodeAll();
  await viewers();
}

async function decodeAll(): Promise<void> {
  const root = await fullAssetInstall();
  const installs = new InstallService();
  try {
    const opened = await timed(() => installs.open(root));
    const install = opened.value;
    const paths = install.tree().paths;
    const gafs = paths.filter((p) => /\.gaf$/i.test(p));
    const models = paths.filter((p) => /\.3do$/i.test(p));
    figure(`mount (${paths.length} paths, cold)`, `${opened.ms.toFixed(0)} ms`);
    const read = await timed(async () => {
      const out: [string, Uint8Array][] = [];
      for (const p of [...gafs, ...models]) out.push([p, await install.read(p)]);
      return out;
    });
    const bytes = read.value.reduce((n, [, b]) => n + b.length, 0);
    figure(`read ${gafs.length} GAFs + ${models.length} 3DOs (${(bytes / 1048576).toFixed(1)} MB)`, `${read.ms.toFixed(0)} ms`);

    const context = assetContext(install);
    const palette = await context.palette('ta');
    // The generated install keeps its texture GAFs in subfolders of textures/, where TA keeps them at the top.
    const lookup = installTextureLookup({
      ...context,
      list: (glob) => context.list(glob === 'textures/*.gaf' ? 'textures/**/*.gaf' : glob),
    });
    const index = await timed(() => lookup('__warm__'));
    figure('3DO texture index (every texture GAF, once)', `${index.ms.toFixed(0)} ms`);

    let frames = 0;
    let failed = 0;
    const gafBytes = read.value.slice(0, gafs.length);
    const gafRun = await timed(() => {
      for (const [path, data] of gafBytes) {
        try {
          const gaf = readGaf(data, path);
          for (const s of gaf.sequences) {
            for (const f of s.frames) {
              renderGafFrame(data, gaf.variant, f, palette);
              frames++;
            }
          }
        } catch (err) {
          if (!(err instanceof FormatError)) throw err;
          failed++;
        }
      }
    });
    let triangles = 0;
    const modelRun = await timed(async () => {
      for (const [path, data] of read.value.slice(gafs.length)) {
        try {
          const mesh = (await threeDoToMesh(parse3do(data, path), { palette, textures: lookup })).mesh;
          for (const piece of mesh.pieces) for (const p of piece.primitives) triangles += p.positions.length / 9;
        } catch (err) {
          if (!(err instanceof FormatError)) throw err;
          failed++;
        }
      }
    });
    figure(`GAF: ${gafs.length} files, ${frames} frames composited`, `${gafRun.cpu.toFixed(0)} ms CPU (${gafRun.ms.toFixed(0)} wall)`);
    figure(
      `3DO: ${models.length} models, ${triangles} triangles built`,
      `${modelRun.cpu.toFixed(0)} ms CPU (${modelRun.ms.toFixed(0)} wall)`,
    );
    // An overriding file takes the bytes made for another path, so a few .gaf/.3do paths hold opaque data.
    figure('files that are not GAF/3DO bytes (overrides)', String(failed));
    limit('GAF decode, average per file (CPU)', gafRun.cpu / Math.max(1, gafs.length), 16, 'ms');
    limit('3DO decode + mesh, average per file (CPU)', modelRun.cpu / Math.max(1, models.length), 16, 'ms');
  } finally {
    await installs.closeAll();
  }
}

/** Each viewer's file: the install it is in, its path, and what its shown view is. */
const VIEWERS: { viewer: string; install: 'ta' | 'quake'; path: string; shows: 'picture' | 'model' | 'text' }[] = [
  { viewer: 'GAF', install: 'ta', path: 'anims/ARMIMR_gadget.gaf', shows: 'picture' },
  { viewer: 'GAF (textures)', install: 'ta', path: 'textures/ArmImp.gaf', shows: 'picture' },
  { viewer: '3DO', install: 'ta', path: 'objects3d/ARMIMR.3do', shows: 'model' },
  { viewer: 'COB', install: 'ta', path: 'scripts/ARMIMR.cob', shows: 'text' },
  { viewer: 'TNT', install: 'ta', path: 'maps/Great Divide.tnt', shows: 'picture' },
  { viewer: 'PAL', install: 'ta', path: 'palettes/PALETTE.PAL', shows: 'picture' },
  { viewer: 'LMP (conback)', install: 'quake', path: 'gfx/conback.lmp', shows: 'picture' },
  { viewer: 'WAL (Quake 2)', install: 'quake', path: 'textures/lavatest.wal', shows: 'picture' },
  { viewer: 'WAL (Daikatana)', install: 'quake', path: 'textures/dk_wall.wal', shows: 'picture' },
  { viewer: 'SPR', install: 'quake', path: 'progs/flame.spr', shows: 'picture' },
  { viewer: 'PCX', install: 'quake', path: 'pics/colormap.pcx', shows: 'picture' },
  { viewer: 'BSP', install: 'quake', path: 'maps/textured.bsp', shows: 'picture' },
  { viewer: 'MDL', install: 'quake', path: 'progs/player.mdl', shows: 'model' },
  { viewer: 'MD2', install: 'quake', path: 'models/tri.md2', shows: 'model' },
  { viewer: 'DKM', install: 'quake', path: 'models/tri.dkm', shows: 'model' },
];
const ROUNDS = 3;

async function viewers(): Promise<void> {
  const base = await mkdtemp(join(tmpdir(), 'bench-viewers-'));
  const roots = { ta: await taSamplesInstall(join(base, 'ta')), quake: await quakeSamplesInstall(join(base, 'quake')) };
  await buildRenderer(repo);
  const serve = await serveAndWait([roots.ta, '--port', '0', '--state', join(base, 'state')]);
  const browser = await chromium.launch({ executablePath: (await findChromium()).path, args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByRole('list', { name: 'Mount order' }).waitFor({ state: 'visible', timeout: 60_000 });
    let current: 'ta' | 'quake' = 'ta';
    await showFiles(page);
    for (const v of VIEWERS) {
      if (v.install !== current) {
        await page.goto(serve.url);
        await page.getByRole('list', { name: 'Mount order' }).waitFor({ state: 'visible', timeout: 60_000 });
        await openInstall(page, roots[v.install]);
        current = v.install;
      }
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        // Another file first, so each round shows the viewer from nothing.
        await select(page, v.install === 'ta' ? 'units/ARMIMR.fbi' : 'gfx/palette.lmp');
        await page.getByRole('searchbox', { name: 'Search paths' }).fill(v.path);
        await page.getByRole('treeitem', { name: v.path, exact: true }).waitFor();
        // A string, not a function: the page's CSP refuses eval, and the TypeScript runner would add helpers.
        times.push(Number(await page.evaluate(`(${IN_PAGE_FIRST_FRAME})(${JSON.stringify(v.path)}, ${JSON.stringify(v.shows)})`)));
      }
      limit(`first frame: ${v.viewer} (${v.path}), median of ${ROUNDS}`, median(times), 1000, 'ms');
    }
    if (errors.length) console.log(`page errors: ${errors.join('; ')}`);
  } finally {
    await browser.close();
    await serve.stop();
    await rm(base, { recursive: true, force: true });
  }
}

async function showFiles(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Files', exact: true }).click();
  await page.getByRole('tree', { name: 'Files' }).waitFor();
}

async function openInstall(page: Page, root: string): Promise<void> {
  const field = page.getByRole('textbox', { name: 'Install folder' });
  await field.fill(root);
  await field.press('Enter');
  await page.getByRole('region', { name: 'Install summary' }).getByText(root).first().waitFor({ timeout: 60_000 });
  await showFiles(page);
}

async function select(page: Page, path: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search paths' }).fill(path);
  await page.getByRole('treeitem', { name: path, exact: true }).click();
  await page.getByRole('region', { name: 'Layering' }).getByText(path, { exact: true }).first().waitFor();
}

/**
 * Runs in the page: clicks the tree row of `path`, then checks every animation frame until the Preview shows
 * that file's view (an origin line names the path) holding a picture of more than one colour, a drawn model
 * (ready, and more than its background), or text; resolves with the milliseconds from the click.
 */
const IN_PAGE_FIRST_FRAME = `function (path, shows) {
  return new Promise(function (resolve, reject) {
    var row = document.querySelector('[role="treeitem"][aria-label="' + path.replace(/"/g, '\\\\"') + '"]');
    if (!row) { reject(new Error('no row for ' + path)); return; }
    var copy = document.createElement('canvas');
    function colours(canvas) {
      if (!canvas.width || !canvas.height) return 0;
      copy.width = canvas.width; copy.height = canvas.height;
      var ctx = copy.getContext('2d');
      ctx.clearRect(0, 0, copy.width, copy.height);
      ctx.drawImage(canvas, 0, 0);
      var data = ctx.getImageData(0, 0, copy.width, copy.height).data;
      var seen = {}; var n = 0;
      for (var i = 0; i < data.length && n < 8; i += 4) {
        if (data[i + 3] === 0) continue;
        var key = data[i] + ',' + data[i + 1] + ',' + data[i + 2];
        if (!seen[key]) { seen[key] = true; n++; }
      }
      return n;
    }
    function shown() {
      var preview = document.querySelector('[aria-label="Preview"]');
      if (!preview) return false;
      var named = Array.prototype.some.call(preview.querySelectorAll('.asset-facts'), function (f) { return f.textContent.indexOf(path + ' from') >= 0; });
      if (!named) return false;
      if (shows === 'text') { var pre = preview.querySelector('.asset-viewer pre'); return !!pre && pre.textContent.length > 0; }
      if (shows === 'model') { var gl = preview.querySelector('canvas.model-canvas[data-ready="true"]'); return !!gl && colours(gl) > 5; }
      var pic = preview.querySelector('[data-testid="asset-canvas"]'); return !!pic && colours(pic) > 1;
    }
    var started = performance.now();
    var deadline = started + 30000;
    row.click();
    (function check() {
      if (shown()) { resolve(performance.now() - started); return; }
      if (performance.now() > deadline) { reject(new Error(path + ': no view after 30 s')); return; }
      requestAnimationFrame(check);
    })();
  });
}`;
