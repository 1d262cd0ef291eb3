import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packFolder } from '../../electron/mods/pack.js';
import { test, expect, StudioPage } from './fixtures.js';
import { startServe } from './server.js';

/**
 * A Quake game folder in the browser: the Home screen's mod-folder picker lists the folders beside id1/
 * that hold paks or game files (as the host finds them), and picking one mounts it over id1/.
 */
test.describe.configure({ timeout: 90_000 });

async function quakeFolder(): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), 'modpak-e2e-quake-'));
  const root = join(work, 'quake');
  const src = join(work, 'src');
  for (const [target, path] of [
    ['id1/pak0.pak', 'maps/e1m1.bsp'],
    ['mymod/pak0.pak', 'progs/player.mdl'],
  ] as const) {
    await rm(src, { recursive: true, force: true });
    await mkdir(dirname(join(src, path)), { recursive: true });
    await writeFile(join(src, path), target);
    await mkdir(dirname(join(root, target)), { recursive: true });
    await packFolder({ dir: src, target: join(root, target) });
  }
  await mkdir(join(root, 'docs'));
  await writeFile(join(root, 'docs', 'readme.txt'), 'not a mod');
  await writeFile(join(root, 'quake.exe'), 'MZ');
  return root;
}

test('the mod folder is picked from the folders the host lists, and mounts over id1/', async ({ page }) => {
  const root = await quakeFolder();
  const serve = await startServe({ root });
  try {
    const sp = new StudioPage(page, { ...serve, root });
    await sp.goto();
    const order = page.getByRole('list', { name: 'Mount order' });
    await expect(order).toContainText('id1/pak0.pak');
    await expect(order).not.toContainText('mymod/pak0.pak');
    const picker = page.getByRole('combobox', { name: 'Mod folder' });
    await expect(picker.locator('option')).toHaveText(['none: id1/ alone', 'mymod (1 pak)']);
    await picker.selectOption('mymod');
    await expect(order.locator('li').first()).toContainText('mymod/pak0.pak');
    await expect(order).toContainText('id1/pak0.pak');
    sp.expectNoErrors();
  } finally {
    await serve.stop();
    await rm(dirname(root), { recursive: true, force: true });
  }
});
