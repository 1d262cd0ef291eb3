import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect, StudioPage, type Studio } from './fixtures.js';
import { startServe, type ServeProcess } from './server.js';

/**
 * The live mod loop in a browser against `modpak serve`, each test on a server (and a generated demo
 * install) of its own, since these tests write into the install: the install and the workspace are
 * followed on disk, and a stopped host shows at once.
 */
async function ownStudio(): Promise<Studio> {
  const serve: ServeProcess = await startServe();
  const info = await serve.call<{ initialRoot: string }>('app.info', {});
  return { ...serve, root: info.initialRoot };
}

test.describe.configure({ timeout: 90_000 });

test('the whole loop: open → override → edit → export → Layering shows the new .ufo winning, no reload', async ({ page }) => {
  const studio = await ownStudio();
  try {
    const sp = new StudioPage(page, studio);
    await sp.goto();
    await expect(page.getByRole('list', { name: 'Mount order' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Screens' });

    // A workspace first, then the file to override, selected on the Files screen.
    await nav.getByRole('button', { name: 'Mods', exact: true }).click();
    await page.getByRole('textbox', { name: 'Workspace folder' }).fill(join(studio.scratch, 'amod'));
    await page.getByRole('button', { name: 'Open workspace' }).click();
    await expect(page.getByRole('region', { name: 'Workspace', exact: true })).toBeVisible();
    await nav.getByRole('button', { name: 'Files', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Search paths' }).fill('armpw');
    await page.getByRole('treeitem', { name: 'units/ARMPW.fbi', exact: true }).click();
    const layering = page.getByRole('region', { name: 'Layering' });
    await expect(layering.locator('[data-role="winner"]')).toContainText('totala1.hpi');
    await page.getByTestId('override-in-mod').click();

    // The editor has it: change a value, save.
    const editor = page.getByRole('textbox', { name: 'File text' });
    await expect(editor).toHaveValue(/Name=Peewee;/);
    await editor.fill((await editor.inputValue()).replace('BuildTime=1000;', 'BuildTime=1000;\r\n\tMaxDamage=999;'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();

    // Export into the install: the impact first (summary beside the button), then the export.
    await expect(page.getByRole('textbox', { name: 'Export target' })).toHaveValue(join(studio.root, 'amod.ufo'));
    await page.getByRole('button', { name: 'Show impact, then export' }).click();
    await expect(page.getByTestId('impact-summary')).toHaveText('wins 1 path');
    await page.getByRole('button', { name: 'Export into the install' }).click();
    await expect(page.getByTestId('export-result')).toContainText('✓ 1 files');

    // Back on Files, nothing clicked: the selection is kept and the new archive wins.
    await nav.getByRole('button', { name: 'Files', exact: true }).click();
    await expect(layering.locator('[data-role="winner"]')).toContainText('amod.ufo');
    await expect(layering.locator('[data-role="shadowed"]').first()).toContainText('totala1.hpi');
    await expect(page.locator('section.preview')).toContainText('MaxDamage=999');
    // And on Home, the mount order has it.
    await nav.getByRole('button', { name: 'Home', exact: true }).click();
    await expect(page.getByRole('list', { name: 'Mount order' })).toContainText('amod.ufo');
    await sp.screenshot('live-loop');
    sp.expectNoErrors();
  } finally {
    await studio.stop();
  }
});

test('a file changed by another program: a clean editor reloads, a dirty one asks before saving', async ({ page }) => {
  const studio = await ownStudio();
  try {
    const sp = new StudioPage(page, studio);
    await sp.goto();
    const nav = page.getByRole('navigation', { name: 'Screens' });
    const ws = join(studio.scratch, 'bmod');
    await nav.getByRole('button', { name: 'Mods', exact: true }).click();
    await page.getByRole('textbox', { name: 'Workspace folder' }).fill(ws);
    await page.getByRole('button', { name: 'Open workspace' }).click();
    await page.getByRole('textbox', { name: 'Path to override' }).fill('units/ARMPW.fbi');
    await page.getByRole('button', { name: 'Override', exact: true }).click();
    const editor = page.getByRole('textbox', { name: 'File text' });
    await expect(editor).toHaveValue(/Name=Peewee;/);
    const file = join(ws, 'units', 'ARMPW.fbi');

    // sed -i in another terminal, with nothing typed yet: the editor shows the new text by itself.
    await writeFile(file, (await readFile(file, 'latin1')).replace('Name=Peewee;', 'Name=Outside;'), 'latin1');
    await expect(editor).toHaveValue(/Name=Outside;/);

    // Now with an edit of ours pending, the file changes again: our text stays, and we are asked.
    await editor.fill((await editor.inputValue()).replace('BuildTime=1000;', 'BuildTime=2000;'));
    await writeFile(file, (await readFile(file, 'latin1')).replace('Name=Outside;', 'Name=Again;'), 'latin1');
    const conflict = page.getByTestId('editor-conflict');
    await expect(conflict).toContainText('changed on disk');
    await expect(editor).toHaveValue(/BuildTime=2000;/);
    // Ctrl+S does not overwrite it.
    await editor.press('Control+s');
    await expect(conflict).toBeVisible();
    expect(await readFile(file, 'latin1')).toContain('Name=Again;');
    await conflict.getByRole('button', { name: 'Compare' }).click();
    await expect(page.getByTestId('conflict-diff')).toContainText('-\tName=Again;');
    await sp.screenshot('live-conflict');
    await conflict.getByRole('button', { name: 'Keep mine (save over it)' }).click();
    await expect(conflict).toBeHidden();
    expect(await readFile(file, 'latin1')).toContain('BuildTime=2000;');
    sp.expectNoErrors();
  } finally {
    await studio.stop();
  }
});

test('the host stops: the page says so at once and how to reconnect', async ({ page }) => {
  const studio = await ownStudio();
  let stopped = false;
  try {
    await page.goto(studio.url);
    await expect(page.getByRole('list', { name: 'Mount order' })).toBeVisible();
    await expect(page.getByTestId('host-lost')).toHaveCount(0);
    await studio.stop();
    stopped = true;
    // No click: the event stream closing is enough.
    await expect(page.getByTestId('host-lost')).toContainText("The studio's host stopped", { timeout: 5_000 });
    await expect(page.getByTestId('host-lost')).toContainText('open the URL it prints');
    await page.screenshot({ path: join('test-results', 'screenshots', 'live-host-stopped.png') });
  } finally {
    if (!stopped) await studio.stop();
  }
});
