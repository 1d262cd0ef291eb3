/**
 * The page's own clock for the studio bench. Playwright's `waitFor` polls at 0, 20, 50, 100, 100 ms and
 * then every 500 ms, so a figure taken with it lands on those steps: the first-tree figure of the sixth
 * stop (1,072–1,084 ms in three runs) was the summary seen at the 770 ms poll plus the click plus the
 * tree's 270 ms poll. Here the page is asked on every animation frame instead, and times come from
 * `performance.now()` in the page, from the Enter key's own event time.
 */
import type { Page } from '@playwright/test';

/** Installs the clock: the time of the next Enter keydown in the page (call before pressing it). */
export async function armEnterClock(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.__modpakEnter = undefined;
    document.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' && window.__modpakEnter === undefined) window.__modpakEnter = e.timeStamp;
    }, { capture: true, once: true });
  })()`);
}

/**
 * Checks `test` (an expression) on every animation frame until it is true; resolves with the page time
 * of that frame. A string evaluated by the page itself: `waitForFunction` would need eval, which the
 * studio's Content-Security-Policy forbids, and the TypeScript runner would add helpers to a function.
 */
async function seenOnFrame(page: Page, test: string): Promise<number> {
  return (await page.evaluate(`new Promise(function (resolve, reject) {
    const until = performance.now() + 60000;
    function frame() {
      if (${test}) resolve(performance.now());
      else if (performance.now() > until) reject(new Error('not seen in 60 s: ' + ${JSON.stringify(test)}));
      else requestAnimationFrame(frame);
    }
    frame();
  })`)) as number;
}

/** The page time of the first frame where the Install summary names `root`. */
export function summaryShown(page: Page, root: string): Promise<number> {
  return seenOnFrame(
    page,
    `Array.from(document.querySelectorAll('[aria-label="Install summary"]')).some(function (r) {
      return r.textContent.includes(${JSON.stringify(root)}) && r.getClientRects().length > 0;
    })`,
  );
}

/** The page time of the first frame with a row of the Files tree on screen. */
export function firstRowShown(page: Page): Promise<number> {
  return seenOnFrame(
    page,
    `(function () {
      const row = document.querySelector('[role="tree"][aria-label="Files"] [role="treeitem"]');
      return row !== null && row.getClientRects().length > 0;
    })()`,
  );
}

/** Where the time from Enter went, in ms from the Enter key (page clock). */
export interface OpenPhases {
  /** install.open's answer (the mount, on the host). */
  opened: number;
  /** install.tree asked, its first byte, its last byte. */
  treeAsked: number;
  treeFirstByte: number;
  treeLastByte: number;
  treeKiB: number;
  /** The store holds the tree (parsed, folder model built): the `modpak:tree-loaded` mark. */
  treeLoaded: number;
}

export async function openPhases(page: Page): Promise<OpenPhases> {
  return (await page.evaluate(`(() => {
    const enter = window.__modpakEnter;
    const call = (name) => performance.getEntriesByType('resource').find((r) => r.name.includes('/api/call/' + name) && r.startTime >= enter);
    const open = call('install.open');
    const tree = call('install.tree');
    const loaded = performance.getEntriesByName('modpak:tree-loaded').filter((m) => m.startTime >= enter)[0];
    return {
      opened: open ? open.responseEnd - enter : NaN,
      treeAsked: tree ? tree.startTime - enter : NaN,
      treeFirstByte: tree ? tree.responseStart - enter : NaN,
      treeLastByte: tree ? tree.responseEnd - enter : NaN,
      treeKiB: tree ? tree.encodedBodySize / 1024 : NaN,
      treeLoaded: loaded ? loaded.startTime - enter : NaN,
    };
  })()`)) as OpenPhases;
}

/** The Enter key's page time. */
export async function enterTime(page: Page): Promise<number> {
  return (await page.evaluate('window.__modpakEnter')) as number;
}
