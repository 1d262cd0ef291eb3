import { describe, expect, it } from 'vitest';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createStudioHost } from '../../../electron/services/handlers/index.js';
import { hpiV1Amplifier } from './hostile.js';
import { put, quakePak, withScratch } from './build.js';

/**
 * The studio's host survives one request whose work runs out of memory or time (item 4): archive.open and
 * archive.verify of a picked archive run in a worker with limits. An honest archive of 400,000 entries
 * needs far more than a 24 MB heap, so it stands in for a hostile one; the host answers an error and the
 * next calls work.
 */
describe('isolated archive work', () => {
  it('a worker out of memory or time answers an error and the host goes on', async () => {
    await withScratch(async (dir) => {
      const root = join(dir, 'install');
      await mkdir(root);
      const big = await put(join(root, 'big.hpi'), hpiV1Amplifier(1, 400_000));
      const small = await put(join(root, 'pak0.pak'), quakePak([{ name: 'maps/e1m1.bsp', data: 'map' }]));
      const host = await createStudioHost({
        facts: { version: '1', host: 'web', initialRoot: root, demo: false },
        recentFile: null,
        warm: false,
        isolation: { heapMb: 24 },
      });
      try {
        const oom = await host.call('archive.open', { path: big });
        expect(oom).toMatchObject({ ok: false, error: { code: 'failed' } });
        if (!oom.ok)
          expect(oom.error.message).toMatch(/big\.hpi: needs more than the 24 MB allowed to read it; the archive was not opened/);
        expect(await host.call('app.info', {})).toMatchObject({ ok: true });
        const listing = await host.call('archive.open', { path: small });
        expect(listing).toMatchObject({ ok: true, result: { entries: [{ path: 'maps/e1m1.bsp', size: 3 }] } });
        expect(await host.call('archive.verify', { path: small })).toMatchObject({ ok: true, result: { ok: true, files: 1, bytes: 3 } });
      } finally {
        await host.close();
      }
      const slow = await createStudioHost({
        facts: { version: '1', host: 'web', initialRoot: root, demo: false },
        recentFile: null,
        warm: false,
        isolation: { openMs: 1 },
      });
      try {
        const timedOut = await slow.call('archive.open', { path: small });
        expect(timedOut).toMatchObject({ ok: false, error: { code: 'failed' } });
        if (!timedOut.ok) expect(timedOut.error.message).toMatch(/pak0\.pak: took longer than 1 ms; stopped/);
        expect(await slow.call('app.info', {})).toMatchObject({ ok: true });
      } finally {
        await slow.close();
      }
    });
  }, 60_000);
});
