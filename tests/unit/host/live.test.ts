import { describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStudioHost } from '../../../electron/services/handlers/index.js';
import type { Events } from '../../../shared/contract.js';

/** The real table's live behaviour: cancelling a real extraction, watch builds as events, native pickers. */
describe('live calls through the real table', () => {
  it('jobs.cancel stops a running install.extract part-way', async () => {
    const root = await mkdtemp(join(tmpdir(), 'modpak-cancel-'));
    await mkdir(join(root, 'maps'));
    for (let i = 0; i < 400; i++) await writeFile(join(root, 'maps', `m${i}.txt`), `map ${i}\n`.repeat(200));
    const host = await createStudioHost({
      facts: { version: '1', host: 'web', initialRoot: root, demo: false },
      recentFile: null,
      warm: false,
    });
    try {
      expect(await host.call('install.open', { root, game: 'ta' })).toMatchObject({ ok: true, result: { stats: { looseFiles: 400 } } });
      const target = join(root, '..', `${root.split('/').pop()}-out`);
      let cancel: Promise<unknown> | null = null;
      host.on((event, payload) => {
        if (event === 'progress' && !cancel && (payload as Events['progress']).jobId === 'big')
          cancel = host.call('jobs.cancel', { jobId: 'big' });
      });
      const answer = await host.call('install.extract', { root, paths: ['maps'], target, jobId: 'big' });
      expect(answer).toEqual({ ok: false, error: { code: 'cancelled', message: 'cancelled' } });
      expect(await cancel).toEqual({ ok: true, result: { cancelled: true } });
      const written = await readdir(join(target, 'maps')).catch(() => []);
      expect(written.length).toBeLessThan(400);
    } finally {
      await host.close();
    }
  });

  it('watch.start repacks on a change and the status arrives as watch events', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modpak-watch-'));
    const root = join(dir, 'install');
    const ws = join(dir, 'mod');
    await mkdir(root);
    const host = await createStudioHost({
      facts: { version: '1', host: 'web', initialRoot: root, demo: false },
      recentFile: null,
      warm: false,
    });
    const statuses: Events['watch'][] = [];
    host.on((event, payload) => {
      if (event === 'watch') statuses.push(payload as Events['watch']);
    });
    try {
      // A new folder: the host created the workspace, so it may write it.
      expect(await host.call('workspace.open', { dir: ws, root })).toMatchObject({ ok: true });
      await mkdir(join(ws, 'units'), { recursive: true });
      await writeFile(join(ws, 'units', 'A.FBI'), '[UNITINFO]{UnitName=A;}');
      const target = join(root, 'mod.ufo');
      expect(await host.call('watch.start', { dir: ws, target, debounceMs: 50 })).toMatchObject({ ok: true, result: { running: true } });
      await writeFile(join(ws, 'units', 'B.FBI'), '[UNITINFO]{UnitName=B;}');
      await expect.poll(() => statuses.find((s) => s.lastBuild?.ok), { timeout: 15_000 }).toBeTruthy();
      expect(statuses.every((s) => s.target === target)).toBe(true);
      const listing = await host.call('archive.open', { path: target });
      expect(listing.ok && (listing.result as { entries: { path: string }[] }).entries.map((e) => e.path)).toEqual(
        expect.arrayContaining(['units/A.FBI', 'units/B.FBI']),
      );
      expect(await host.call('watch.stop', { dir: ws })).toMatchObject({ ok: true, result: { running: false } });
    } finally {
      await host.close();
    }
  });

  it('a folder picked in the native dialog becomes reachable; a cancelled pick grants nothing', async () => {
    const picked = await mkdtemp(join(tmpdir(), 'modpak-pick-'));
    await writeFile(join(picked, 'x.txt'), 'x');
    const answers: (string | null)[] = [null, picked];
    const host = await createStudioHost({
      facts: { version: '1', host: 'electron', initialRoot: null, demo: false },
      recentFile: null,
      dialogs: { pickFolder: async () => answers.shift() ?? null, pickFile: async () => null },
    });
    try {
      expect(await host.call('app.info', {})).toMatchObject({ ok: true, result: { capabilities: { pickFolder: true, pickFile: true } } });
      expect(await host.call('dialog.pickFolder', { title: 'Open' })).toEqual({ ok: true, result: null });
      expect(host.allowlist.allows(join(picked, 'x.txt'))).toBe(false);
      expect(await host.call('dialog.pickFolder', {})).toEqual({ ok: true, result: picked });
      expect(host.allowlist.allows(join(picked, 'x.txt'))).toBe(true);
    } finally {
      await host.close();
    }
  });
});
