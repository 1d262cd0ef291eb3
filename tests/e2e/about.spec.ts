import { existsSync } from 'node:fs';
import { test, expect } from './fixtures.js';

/** The About box gives the MCP configuration for the open install, runnable as it stands. */
test('the About box shows the MCP snippet with the current install filled in', async ({ studioPage, studio }) => {
  await studioPage.goto();
  const page = studioPage.page;
  await expect(page.getByRole('list', { name: 'Mount order' })).toBeVisible();
  await page.getByRole('button', { name: 'About' }).click();
  const dialog = page.getByRole('dialog', { name: /ModPak Studio/ });
  await expect(dialog).toBeVisible();
  const config = JSON.parse((await dialog.getByTestId('mcp-snippet').textContent()) ?? '');
  const server = config.mcpServers.modpak;
  expect(server.command).toBe('node');
  expect(server.args.slice(1)).toEqual(['mcp', studio.root]);
  expect(existsSync(server.args[0]), 'the snippet names the real modpak command').toBe(true);
  await studioPage.screenshot('about-mcp');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});
