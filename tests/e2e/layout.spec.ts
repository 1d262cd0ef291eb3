import type { Locator, Page } from '@playwright/test';
import { join } from 'node:path';
import { test, expect, type StudioPage } from './fixtures.js';

/**
 * The layout a modder expects of an archive tool: resizable panes that stay resized, sortable columns,
 * type-ahead, deep links with Back and Forward, and long paths that lose their middle, not their name.
 */

const screensNav = (page: Page) => page.getByRole('navigation', { name: 'Screens' });

async function open(studioPage: StudioPage, hash = ''): Promise<Page> {
  await studioPage.goto(hash);
  await expect(studioPage.page.locator('.install-chip')).toBeVisible();
  return studioPage.page;
}

async function showFiles(page: Page): Promise<void> {
  await screensNav(page).getByRole('button', { name: 'Files', exact: true }).click();
  await expect(page.getByRole('tree', { name: 'Files' })).toBeVisible();
}

const valueOf = async (separator: Locator) => Number(await separator.getAttribute('aria-valuenow'));

test('panes resize by keyboard and by drag, and keep their sizes across a reload', async ({ studioPage }) => {
  const page = await open(studioPage);
  await showFiles(page);
  const columns = page.getByRole('separator', { name: 'Resize the tree and the preview' });
  const rows = page.getByRole('separator', { name: 'Resize the layering and the preview' });
  const tree = page.locator('.files .tree-panel');
  const start = await valueOf(columns);
  const treeWidth = (await tree.boundingBox())!.width;
  await columns.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await expect(columns).toHaveAttribute('aria-valuenow', String(start + 10));
  expect((await tree.boundingBox())!.width).toBeGreaterThan(treeWidth + 50);

  // Drag the layering / preview separator 120 px down: the layering pane grows by that much.
  const layering = page.locator('.side-top');
  const before = (await layering.boundingBox())!.height;
  const box = (await rows.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 + 60, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 + 120, { steps: 4 });
  await page.mouse.up();
  const after = (await layering.boundingBox())!.height;
  expect(Math.abs(after - before - 120)).toBeLessThan(6);
  const dragged = await valueOf(rows);

  await page.reload();
  await expect(page.getByRole('tree', { name: 'Files' })).toBeVisible();
  await expect(columns).toHaveAttribute('aria-valuenow', String(start + 10));
  await expect(rows).toHaveAttribute('aria-valuenow', String(dragged));
  expect(Math.abs((await layering.boundingBox())!.height - after)).toBeLessThan(3);
});

test("the archive's entries sort by each column, and reverse on a second click", async ({ studioPage, studio }) => {
  const page = await open(studioPage);
  const archivePath = join(studio.root, 'totala1.hpi');
  await screensNav(page).getByRole('button', { name: 'Archive', exact: true }).click();
  await page.getByRole('textbox', { name: 'Archive file' }).fill(archivePath);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  const entries = page.getByRole('listbox', { name: 'Entries' });
  await expect(entries.getByRole('option').first()).toBeVisible();

  // The known answer: the host's listing, sorted here by each column (ties in stored order).
  type Entry = { path: string; size: number; packedSize: number; method: string; dir?: true };
  const listing = await studio.call<{ entries: Entry[] }>('archive.open', { path: archivePath });
  const stored = listing.entries.map((e, i) => ({ ...e, i }));
  const by = (key: (e: Entry) => string | number, descending = false) =>
    [...stored]
      .sort((a, b) => {
        const [x, y] = [key(a), key(b)].map((k) => (typeof k === 'string' ? k.toLowerCase() : k));
        return x! < y! ? (descending ? 1 : -1) : x! > y! ? (descending ? -1 : 1) : a.i - b.i;
      })
      .map((e) => e.path);
  const sizeOf = (e: Entry) => (e.dir ? -1 : e.size);
  const packedOf = (e: Entry) => (e.dir ? -1 : e.packedSize);
  const shown = async () => entries.locator('.elided-path').evaluateAll((els) => els.map((e) => e.getAttribute('title')));
  const header = (name: string) =>
    page.getByRole('columnheader').filter({ has: page.getByRole('button', { name: new RegExp(`^${name}`) }) });

  expect(stored.length).toBeGreaterThan(5);
  expect(await shown()).toEqual(stored.map((e) => e.path));
  const cases: [string, string[], string[]][] = [
    ['Path', by((e) => e.path), by((e) => e.path, true)],
    ['Size', by(sizeOf), by(sizeOf, true)],
    ['Packed', by(packedOf), by(packedOf, true)],
    ['Method', by((e) => e.method), by((e) => e.method, true)],
    ['#', stored.map((e) => e.path), stored.map((e) => e.path).reverse()],
  ];
  for (const [name, ascending, descending] of cases) {
    await header(name).getByRole('button').click();
    await expect(header(name)).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(shown).toEqual(ascending);
    await header(name).getByRole('button').click();
    await expect(header(name)).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(shown).toEqual(descending);
    await expect(page.getByRole('columnheader', { name: 'Path' }).or(header('Path'))).toHaveAttribute(
      'aria-sort',
      name === 'Path' ? 'descending' : 'none',
    );
  }
});

test('type-ahead moves through the tree by the names typed', async ({ studioPage }) => {
  const page = await open(studioPage);
  await showFiles(page);
  const tree = page.getByRole('tree', { name: 'Files' });
  // Nothing expanded: the rows are the top-level names, in the tree's order.
  const names = (await tree.getByRole('treeitem').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')!))).map((n) =>
    n.replace(/\/$/, ''),
  );
  const starting = (prefix: string) => names.filter((n) => n.toLowerCase().startsWith(prefix));
  expect(starting('u').length).toBeGreaterThan(1);
  await tree.focus();
  await page.keyboard.type('so');
  await expect(tree.getByRole('treeitem', { selected: true })).toHaveAccessibleName(`${starting('so')[0]}/`);
  await page.keyboard.press('Home');
  await page.keyboard.type('uu');
  await expect(tree.getByRole('treeitem', { selected: true })).toHaveAccessibleName(`${starting('u')[1]}/`);
  await page.keyboard.press('Home');
  await page.keyboard.type('un');
  await expect(tree.getByRole('treeitem', { selected: true })).toHaveAccessibleName(`${starting('un')[0]}/`);
});

test('a deep link opens the place; Back and Forward move between places; a reload keeps it', async ({ studioPage, studio }) => {
  const page = await open(studioPage, `#/files?install=${encodeURIComponent(studio.root)}&path=${encodeURIComponent('units/ARMCOM.fbi')}`);
  const tree = page.getByRole('tree', { name: 'Files' });
  const winner = page.getByRole('region', { name: 'Layering' }).locator('[data-role="winner"]');
  const atArmcom = async () => {
    await expect(tree.getByRole('treeitem', { selected: true })).toHaveAccessibleName('units/ARMCOM.fbi');
    await expect(winner).toContainText('rev31.gp3');
  };
  await atArmcom();
  await screensNav(page).getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/#\/search\?install=/);
  await page.goBack();
  await atArmcom();
  await expect(screensNav(page).getByRole('button', { name: 'Files', exact: true })).toHaveAttribute('aria-current', 'page');
  await page.goForward();
  await expect(screensNav(page).getByRole('button', { name: 'Search', exact: true })).toHaveAttribute('aria-current', 'page');
  await page.goBack();
  await atArmcom();
  await page.reload();
  await atArmcom();
  // The token stays in the query, so the reloaded page still reaches its host.
  expect(new URL(page.url()).searchParams.get('token')).toBe(studio.token);
  studioPage.expectNoErrors();
});

test('a long path in a narrow pane loses its middle, and its file name stays whole', async ({ studioPage, studio }) => {
  const page = studioPage.page;
  await page.setViewportSize({ width: 1024, height: 700 });
  await open(studioPage, `#/files?install=${encodeURIComponent(studio.root)}&path=${encodeURIComponent('features/urban/cars2.tdf')}`);
  await page.getByRole('separator', { name: 'Resize the tree and the preview' }).focus();
  await page.keyboard.press('End');
  const path = page.getByRole('region', { name: 'Layering' }).locator('.panel-title .elided-path');
  await expect(path).toHaveAttribute('title', 'features/urban/cars2.tdf');
  const fit = await path.evaluate((el) => {
    const head = el.querySelector('.elided-head')!;
    const tail = el.querySelector('.elided-tail')!;
    return {
      headCut: head.scrollWidth > head.clientWidth,
      tailWhole: tail.scrollWidth <= tail.clientWidth,
      tail: tail.getAttribute('data-text'),
    };
  });
  expect(fit).toEqual({ headCut: true, tailWhole: true, tail: 'cars2.tdf' });
  await studioPage.screenshot('layout-elided-1024');
});

test("the Mods screen's workspace | editor split resizes by keyboard and by drag, and keeps its size across a reload", async ({
  studioPage,
  studio,
}) => {
  const page = await open(studioPage);
  const workspaceDir = join(studio.scratch, 'e2e-split-mod');
  const openWorkspace = async () => {
    await screensNav(page).getByRole('button', { name: 'Mods', exact: true }).click();
    await page.getByRole('textbox', { name: 'Workspace folder' }).fill(workspaceDir);
    await page.getByRole('button', { name: 'Open workspace' }).click();
    await expect(page.getByRole('region', { name: 'Workspace', exact: true })).toBeVisible();
  };
  await openWorkspace();
  const separator = page.getByRole('separator', { name: 'Resize the workspace files and the editor' });
  const files = page.getByRole('region', { name: 'Workspace', exact: true });
  const editor = page.getByRole('region', { name: 'Editor', exact: true });
  const start = await valueOf(separator);
  const filesWidth = (await files.boundingBox())!.width;
  const editorWidth = (await editor.boundingBox())!.width;
  await separator.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await expect(separator).toHaveAttribute('aria-valuenow', String(start + 10));
  expect((await files.boundingBox())!.width).toBeGreaterThan(filesWidth + 50);
  expect((await editor.boundingBox())!.width).toBeLessThan(editorWidth - 50);

  // Drag it 100 px to the left: the files pane shrinks by that much.
  const before = (await files.boundingBox())!.width;
  const box = (await separator.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 50, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2 - 100, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const after = (await files.boundingBox())!.width;
  expect(Math.abs(before - after - 100)).toBeLessThan(6);
  const dragged = await valueOf(separator);

  await page.reload();
  await expect(page.locator('.install-chip')).toBeVisible();
  await openWorkspace();
  await expect(separator).toHaveAttribute('aria-valuenow', String(dragged));
  expect(Math.abs((await files.boundingBox())!.width - after)).toBeLessThan(3);
});
