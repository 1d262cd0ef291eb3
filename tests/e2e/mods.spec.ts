import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect } from './fixtures.js';

/**
 * The mod workflow in the studio, in a browser against `modpak serve` on the demo install: open a
 * workspace, override the file selected on the Files screen, edit it (TDF syntax checked as you type),
 * save, see the override's diff, see the export's impact, export, and watch-and-repack. The export goes to
 * a scratch folder so the shared demo install stays as the other specs expect it. Screenshots of each step
 * land in test-results/screenshots/.
 */
test('override, edit, overrides diff, impact, export and watch', async ({ studioPage, studio }) => {
  const page = studioPage.page;
  await studioPage.goto();
  await expect(page.getByRole('list', { name: 'Mount order' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Screens' });

  // A workspace next to the install, tied to it.
  const workspace = join(studio.scratch, 'e2e-mod');
  await nav.getByRole('button', { name: 'Mods', exact: true }).click();
  await page.getByRole('textbox', { name: 'Workspace folder' }).fill(workspace);
  await page.getByRole('button', { name: 'Open workspace' }).click();
  await expect(page.getByRole('region', { name: 'Workspace', exact: true })).toBeVisible();

  // Select a unit on the Files screen, then Override it from the Mods screen.
  await nav.getByRole('button', { name: 'Files', exact: true }).click();
  await page.getByRole('searchbox', { name: 'Search paths' }).fill('armcom');
  await page.getByRole('treeitem', { name: 'units/ARMCOM.fbi', exact: true }).click();
  await nav.getByRole('button', { name: 'Mods', exact: true }).click();
  await page.getByRole('button', { name: 'Override units/ARMCOM.fbi' }).click();
  const editor = page.getByRole('textbox', { name: 'File text' });
  await expect(editor).toHaveValue(/BuildTime=75000;/);
  await expect(page.getByTestId('tdf-check')).toHaveText('✓ TDF syntax ok');
  await studioPage.screenshot('mods-override');

  // Typing a syntax error is caught as you type; fixing it and changing a value, then saving.
  const original = await editor.inputValue();
  await editor.fill(original.replace(/\}\s*$/, ''));
  await expect(page.getByTestId('tdf-check')).toHaveText(/✗ 1 error/);
  await expect(page.getByRole('list', { name: 'Problems' })).toContainText('is never closed');
  await studioPage.screenshot('mods-editor-error');
  await editor.fill(original.replace('BuildTime=75000', 'BuildTime=60000'));
  await expect(page.getByTestId('tdf-check')).toHaveText(/✓ TDF syntax ok/);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  expect(await readFile(join(workspace, 'units', 'ARMCOM.fbi'), 'latin1')).toContain('BuildTime=60000;');

  // The overrides with the diff beside: the changed key, and the archive it shadows.
  await page.getByRole('button', { name: 'Compare with the install' }).click();
  const overrides = page.getByRole('list', { name: 'Override list' });
  await expect(overrides).toContainText('modified');
  await expect(overrides).toContainText('units/ARMCOM.fbi');
  const diff = page.getByRole('region', { name: 'Diff' });
  await expect(diff.getByTestId('diff-base')).toHaveText('Shadows units/ARMCOM.fbi from rev31.gp3');
  await expect(diff.getByRole('list', { name: 'Changed keys' })).toHaveText('[UNITINFO] BuildTime: 75000 → 60000');
  await expect(diff.getByTestId('unified-diff')).toContainText('+\tBuildTime=60000;');
  await diff.scrollIntoViewIfNeeded();
  await studioPage.screenshot('mods-diff');

  // The impact before writing anything, then the export (into a scratch folder).
  await page.getByRole('button', { name: 'Show impact', exact: true }).click();
  const impact = page.getByRole('region', { name: 'Impact' });
  await expect(impact.getByTestId('impact-rank')).toContainText('e2e-mod.ufo would mount at position');
  await expect(impact.getByTestId('impact-rank')).toContainText('ufo stage');
  // rev31.gp3 ranks above every .ufo: the override is hidden, and the impact says so.
  await expect(impact.getByRole('list', { name: 'Hidden files' })).toContainText('units/ARMCOM.fbi is hidden by rev31.gp3');
  const target = join(studio.scratch, 'exports', 'e2e-mod.ufo');
  await page.getByRole('textbox', { name: 'Export target' }).fill(target);
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(page.getByTestId('export-result')).toContainText('✓ 1 files');
  expect((await readFile(target)).subarray(0, 4).toString('latin1')).toBe('HAPI');
  await impact.scrollIntoViewIfNeeded();
  await studioPage.screenshot('mods-export');

  // Watch: the toggle starts it, a save rebuilds, the last build shows live. Builds are told apart by
  // their number: two in the same second can show the same time and duration.
  await page.getByRole('checkbox', { name: 'Rebuild the target on every change' }).check();
  await expect(page.getByTestId('watch-last')).toContainText(/✓ build 1 · .* ms · 1 files/);
  await editor.fill(original.replace('BuildTime=75000', 'BuildTime=50000'));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('watch-last')).toContainText(/✓ build [2-9] · .* ms · 1 files/, { timeout: 15_000 });
  const rebuilt = await studio.call<{ data: string }>('archive.read', { path: target, entry: 'units/ARMCOM.fbi' });
  expect(Buffer.from(rebuilt.data, 'base64').toString('latin1')).toContain('BuildTime=50000;');
  await page.getByRole('region', { name: 'Watch' }).scrollIntoViewIfNeeded();
  await studioPage.screenshot('mods-watch');
  await page.getByRole('checkbox', { name: 'Rebuild the target on every change' }).uncheck();
  await expect(page.getByRole('checkbox', { name: 'Rebuild the target on every change' })).not.toBeChecked();
});
