/**
 * The studio in headless Chromium against `modpak serve` on the generated full TA install (16 archives,
 * 60,000 entries):
 * - open → first rendered tree: from submitting the install's path on the Home screen of a running
 *   `modpak serve` (a cold mount) to the first row of the Files tree on screen (issue 15: ≤ 1.0 s), on
 *   the page's clock and seen frame by frame (studio-clock.ts), with the phases in between;
 * - filtering the tree by a glob: from the keystroke into "Search paths" to the filtered rows painted,
 *   measured inside the page (target < 100 ms).
 * The install is generated once (bench/util.ts fullInstall, shared with the vfs bench).
 */
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { buildRenderer } from '../electron/main/bundle.js';
import { createStudioHost } from '../electron/services/handlers/index.js';
import { chromiumArgs, findChromium } from '../tests/e2e/browser.js';
import { join } from 'node:path';
import { figure, fullInstall, scratch, time } from './util.js';
import { serveAndWait } from '../tests/helpers/serve.js';
import { limit } from './targets.js';
import { armEnterClock, enterTime, firstRowShown, openPhases, summaryShown, type OpenPhases } from './studio-clock.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
const GLOBS = ['*.fbi', 'units/**', 'features/**/*.tdf', '**/sub1/*.pcx', 'arm*'];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(): Promise<void> {
  const root = await fullInstall();
  await buildRenderer(repo);
  const browser = await chromium.launch({ executablePath: (await findChromium()).path, args: chromiumArgs });
  try {
    // The host's share, for reading the figures below: a cold mount and the tree's JSON.
    {
      const host = await createStudioHost({ facts: { version: 'bench', host: 'web', initialRoot: null, demo: false }, recentFile: null });
      await host.grant(root);
      const opened = await time(() => host.call('install.open', { root }));
      if (!opened.value.ok) throw new Error(opened.value.error.message);
      const tree = await time(() => host.call('install.tree', { root }));
      figure('host: install.open (mount, cold)', `${opened.ms.toFixed(0)} ms`);
      figure(
        `host: install.tree, built during install.open (${(JSON.stringify(tree.value).length / 1048576).toFixed(1)} MB of JSON)`,
        `${tree.ms.toFixed(0)} ms`,
      );
      await host.close();
    }

    // The studio as a user runs it: `modpak serve` in its own process (on the small demo install), the
    // page loaded; the clock starts when the full install's path is submitted on the Home screen (a cold
    // mount: that server never saw it) and stops when the first row of the Files tree is on screen.
    const cold: number[] = [];
    const reopen: number[] = [];
    const phases: (OpenPhases & { summary: number; clicked: number; firstRow: number })[] = [];
    let filter: { glob: string; dom: number; painted: number; matches: string }[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const serve = await serveDemo(join(await scratch('studio'), 'cache'));
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        const openFromHome = async () => {
          await page.goto(serve.url);
          await page.getByRole('list', { name: 'Mount order' }).waitFor({ state: 'visible', timeout: 60_000 });
          const field = page.getByRole('textbox', { name: 'Install folder' });
          await field.fill(root);
          await armEnterClock(page);
          await field.press('Enter');
          const summary = await summaryShown(page, root);
          const clicked = await page.evaluate('performance.now()');
          await page.getByRole('button', { name: 'Browse files' }).click();
          const firstRow = await firstRowShown(page);
          const enter = await enterTime(page);
          return {
            summary: summary - enter,
            clicked: (clicked as number) - enter,
            firstRow: firstRow - enter,
            ...(await openPhases(page)),
          };
        };
        const opened = await openFromHome();
        cold.push(opened.firstRow);
        phases.push(opened);
        if (attempt === 0) filter = await measureFilters(page);
        // The same studio, reloaded: the install is mounted already, so this is the page's and the wire's share.
        reopen.push((await openFromHome()).firstRow);
        if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
        await page.close();
      } finally {
        await serve.stop();
      }
    }
    const mid = (pick: (p: (typeof phases)[number]) => number) => median(phases.map(pick)).toFixed(0);
    figure('  from Enter: install.open answered (mount)', `${mid((p) => p.opened)} ms`);
    figure('  summary on screen / Browse files clicked', `${mid((p) => p.summary)} / ${mid((p) => p.clicked)} ms`);
    figure(
      `  install.tree asked / first byte / last byte (${mid((p) => p.treeKiB)} KiB)`,
      `${mid((p) => p.treeAsked)} / ${mid((p) => p.treeFirstByte)} / ${mid((p) => p.treeLastByte)} ms`,
    );
    figure('  tree held by the store (parsed, model built)', `${mid((p) => p.treeLoaded)} ms`);
    figure('  first tree row on screen', `${mid((p) => p.firstRow)} ms`);
    figure('studio: open install (cold) → first rendered tree', `${median(cold).toFixed(0)} ms`);
    limit('issue 15: studio open → first tree (median)', median(cold), 1000, 'ms');
    figure('studio: reload, open (mounted) → first tree', `${median(reopen).toFixed(0)} ms`);
    for (const f of filter) figure(`studio: filter "${f.glob}" (${f.matches}) → painted`, `${f.painted.toFixed(1)} ms`, '< 100 ms');
    figure('studio: filter by a glob, median → painted', `${median(filter.map((f) => f.painted)).toFixed(1)} ms`, '< 100 ms');
  } finally {
    await browser.close();
  }
}

/** `modpak serve` with no ROOT: the demo, generated into `cache`. */
function serveDemo(cache: string) {
  return serveAndWait(['--port', '0', '--state', join(cache, 'state')], { ...process.env, XDG_CACHE_HOME: cache });
}

/**
 * Type each glob into "Search paths" inside the page and time, with the page's own clock, until Vue has
 * updated the tree (a DOM mutation) and until the next frame is painted. The box is cleared in between.
 */
async function measureFilters(page: Page): Promise<{ glob: string; dom: number; painted: number; matches: string }[]> {
  const out: { glob: string; dom: number; painted: number; matches: string }[] = [];
  for (const glob of GLOBS) {
    // A string, not a function: the TypeScript runner would add helpers the page does not have.
    const result = (await page.evaluate(`(${IN_PAGE_FILTER})(${JSON.stringify(glob)})`)) as {
      dom: number;
      painted: number;
      matches: string;
    };
    out.push({ glob, ...result });
  }
  return out;
}

/** Runs in the page: set the search box, wait for Vue's DOM update and the next painted frame. */
const IN_PAGE_FILTER = `async function (glob) {
  const input = document.querySelector('input[aria-label="Search paths"]');
  const count = document.querySelector('[data-testid="match-count"]');
  async function setValue(value) {
    const started = performance.now();
    let dom = 0;
    const changed = new Promise(function (resolve) {
      const observer = new MutationObserver(function () {
        dom = performance.now() - started;
        observer.disconnect();
        resolve();
      });
      observer.observe(count, { childList: true, subtree: true, characterData: true });
    });
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await changed;
    await new Promise(function (resolve) { requestAnimationFrame(function () { setTimeout(resolve, 0); }); });
    return { dom: dom, painted: performance.now() - started };
  }
  const timed = await setValue(glob);
  const matches = String(count.textContent).trim().replace(/\\s+/g, ' ');
  await setValue('');
  return { dom: timed.dom, painted: timed.painted, matches: matches };
}`;
