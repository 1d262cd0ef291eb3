import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { readdir, readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test, expect, type StudioPage } from './fixtures.js';

/**
 * What archive-tool users reach for first, in a browser against `modpak serve` on the demo install (the
 * server runs with a home folder of its own in the scratch folder, holding Downloads): the context menus
 * by right-click and by keyboard, drops onto a workspace and onto the window, the host's folder browser,
 * and extraction's default target with the question before overwriting. Axe scans the open menu and the
 * folder browser.
 */

async function open(studioPage: StudioPage): Promise<Page> {
  await studioPage.goto();
  await expect(studioPage.page.getByRole('list', { name: 'Mount order' })).toBeVisible();
  return studioPage.page;
}

const screen = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name, exact: true }).click();

/** The page's DataTransfer (this file is typechecked without the DOM library). */
interface TransferLike {
  items: { add(file: unknown): unknown };
}

async function serious(page: Page, selector: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include(selector).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('context menus: right-click and keyboard on Files rows, mount-order rows; axe on the open menu', async ({ studioPage }) => {
  const page = await open(studioPage);

  // Mount order: the keyboard's ContextMenu key on a focused row, then Open archive.
  const firstRow = page.getByRole('list', { name: 'Mount order' }).getByRole('listitem').first();
  await firstRow.focus();
  await page.keyboard.press('ContextMenu');
  const menu = page.getByRole('menu');
  await expect(menu).toHaveAccessibleName('rev31.gp3: actions');
  await expect(menu.getByRole('menuitem')).toHaveText(['Extract…', 'Copy path', 'Open archive']);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(firstRow).toBeFocused();

  // Files: a right-click on a row.
  await screen(page, 'Files');
  await page.getByRole('searchbox', { name: 'Search paths' }).fill('armcom');
  const row = page.getByRole('treeitem', { name: 'units/ARMCOM.fbi', exact: true });
  await row.click({ button: 'right' });
  await expect(menu).toHaveAccessibleName('units/ARMCOM.fbi: actions');
  await expect(menu.getByRole('menuitem')).toHaveText([
    'Extract…',
    'Copy path',
    'Override in mod',
    'Open containing archive',
    'Compare with winner',
  ]);
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  expect(await serious(page, '[role="menu"]')).toEqual([]);
  await studioPage.screenshot('menu-files');

  // Compare with winner by mouse: the winner and the shadowed copy side by side.
  await menu.getByRole('menuitem', { name: 'Compare with winner' }).click();
  await expect(menu).toBeHidden();
  await expect(page.getByRole('region', { name: 'Compare' })).toBeVisible();

  // By keyboard: Shift+F10 on the tree, Down to "Open containing archive", Enter.
  await page.getByRole('tree', { name: 'Files' }).focus();
  await page.keyboard.press('Shift+F10');
  await expect(menu).toBeVisible();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Open containing archive' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('archive-format')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Archive file' })).toHaveValue(/\.(ufo|hpi|gp3)$/);
  await expect(page.getByRole('listbox', { name: 'Entries' }).locator('[aria-selected="true"]')).toContainText(/ARMCOM\.fbi/i);

  // An Archive entry's menu, and its Extract… naming that entry alone.
  await page.getByRole('listbox', { name: 'Entries' }).focus();
  await page.keyboard.press('Shift+F10');
  await menu.getByRole('menuitem', { name: 'Extract…' }).click();
  await expect(page.getByText(/Extract units\/ARMCOM\.fbi to/i)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Extract archive to folder' })).toBeFocused();
});

test('drops: files onto a workspace are added; an archive dropped on the window opens', async ({ studioPage, studio }) => {
  const page = await open(studioPage);
  await screen(page, 'Mods');
  const workspace = join(studio.scratch, 'e2e-drop');
  await page.getByRole('textbox', { name: 'Workspace folder' }).fill(workspace);
  await page.getByRole('button', { name: 'Open workspace' }).click();
  const zone = page.getByTestId('workspace-drop');
  await expect(zone).toBeVisible();

  const dropped = await page.evaluateHandle(() => {
    const transfer = new (globalThis as unknown as { DataTransfer: new () => TransferLike }).DataTransfer();
    transfer.items.add(new File(['[UNITINFO]\n{\n\tUnitName=DROPPED;\n}\n'], 'DROPPED.FBI'));
    transfer.items.add(new File([new Uint8Array([0, 1, 2, 255])], 'bytes.bin'));
    return transfer;
  });
  await zone.dispatchEvent('dragover', { dataTransfer: dropped });
  await zone.dispatchEvent('drop', { dataTransfer: dropped });
  await expect(page.getByTestId('drop-note')).toHaveText('Added 2 files: DROPPED.FBI, bytes.bin');
  await expect(page.getByRole('list', { name: 'Workspace files' })).toContainText('DROPPED.FBI');
  expect(await readFile(join(workspace, 'DROPPED.FBI'), 'utf8')).toContain('UnitName=DROPPED;');
  expect([...(await readFile(join(workspace, 'bytes.bin')))]).toEqual([0, 1, 2, 255]);

  // The smallest archive of the install, dropped anywhere: the Archive screen opens its temporary copy.
  const names = (await readdir(studio.root)).filter((n) => /\.(ufo|hpi)$/i.test(n));
  const sizes = await Promise.all(names.map(async (n) => [(await stat(join(studio.root, n))).size, n] as const));
  const smallest = sizes.sort((a, b) => a[0] - b[0])[0]![1];
  const bytes = (await readFile(join(studio.root, smallest))).toString('base64');
  const archive = await page.evaluateHandle(
    ({ name, data }) => {
      const raw = atob(data);
      const transfer = new (globalThis as unknown as { DataTransfer: new () => TransferLike }).DataTransfer();
      transfer.items.add(new File([Uint8Array.from(raw, (c) => c.charCodeAt(0))], name));
      return transfer;
    },
    { name: smallest, data: bytes },
  );
  await page.locator('main.content').dispatchEvent('drop', { dataTransfer: archive });
  await expect(page.getByTestId('archive-format')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Archive file' })).toHaveValue(
    new RegExp(`modpak-dropped-.*${smallest.replace('.', '\\.')}$`),
  );
});

test('the folder browser: places, a folder, choose; axe on the dialog', async ({ studioPage, studio }) => {
  const page = await open(studioPage);
  await page.getByRole('button', { name: 'Browse…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open a game install' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('folder-path')).toHaveText(studio.root);
  const places = dialog.getByRole('navigation', { name: 'Places' }).getByRole('button');
  await expect(places).toHaveText(['Home', 'Downloads', `Install: ${basename(studio.root)}`]);
  expect(await serious(page, '[role="dialog"]')).toEqual([]);
  await studioPage.screenshot('folder-browser');

  // Home, then up is not offered (the server's home is the top of what it shows); dot-folders never show.
  await places.filter({ hasText: 'Home' }).click();
  await expect(dialog.getByTestId('folder-path')).toHaveText(join(studio.scratch, 'home'));
  await expect(dialog.getByRole('button', { name: 'Up one folder' })).toBeDisabled();
  await expect(dialog.getByRole('list', { name: 'Subfolders' }).getByRole('button')).toHaveText(['📁 Downloads']);

  // Back to the install, chosen: it opens.
  await places.filter({ hasText: 'Install:' }).click();
  await dialog.getByRole('button', { name: 'Choose this folder' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Install folder' })).toHaveValue(studio.root);
  await expect(page.getByTestId('game-name')).toHaveText('Total Annihilation');
});

test('extraction: a default target in Downloads, a question before overwriting, the folder named when done', async ({
  studioPage,
  studio,
}) => {
  const page = await open(studioPage);
  await screen(page, 'Files');
  await page.getByRole('treeitem', { name: 'units/', exact: true }).click();
  const expected = join(studio.scratch, 'home', 'Downloads', `${basename(studio.root)}-units`);
  const field = page.getByRole('textbox', { name: 'Extract to folder' });
  await expect(field).toHaveValue(expected);
  await expect(field).not.toHaveAttribute('placeholder', /\/tmp\/extracted/);
  await page.getByRole('button', { name: 'Extract', exact: true }).click();
  await expect(page.getByTestId('extract-done')).toContainText(`Extracted to ${expected}`);
  expect(existsSync(join(expected, 'units', 'ARMCOM.fbi'))).toBe(true);

  await page.getByRole('button', { name: 'Extract', exact: true }).click();
  const question = page.getByRole('alertdialog', { name: 'Folder exists' });
  await expect(question).toContainText(`${expected} already holds files`);
  await studioPage.screenshot('extract-overwrite');
  await question.getByRole('button', { name: 'Extract over it' }).click();
  await expect(page.getByTestId('extract-done')).toContainText(`Extracted to ${expected}`);
  await expect(page.getByRole('region', { name: 'Jobs' }).locator('.job').last()).toHaveAttribute('data-state', 'done');
});
