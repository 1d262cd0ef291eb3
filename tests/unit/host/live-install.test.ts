import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { writeRecord } from '../../../electron/mods/workspace.js';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createCallTable, createServices, createStudioHost } from '../../../electron/services/handlers/index.js';
import { StudioHost } from '../../../electron/services/host/host.js';
import { PathAllowlist } from '../../../electron/services/host/allowlist.js';
import { InstallService } from '../../../electron/services/install-service.js';
import { generateDemoInstall } from '../../../electron/demo/demo-install.js';
import { writeHpi } from '../../../electron/demo/writer.js';
import { unitFbi } from '../../../electron/demo/content.js';
import type { Events, EventName } from '../../../shared/contract.js';

/** A folder the host accepts as an install: it holds a game archive (the host opens nothing else). */
const asInstall = (root: string) =>
  writeHpi(join(root, 'totala1.hpi'), [{ path: 'docs/readme.txt', data: new TextEncoder().encode('hi\r\n') }]);

/**
 * The install and the workspace followed on disk: a new archive, a changed one, a gone one each re-mount
 * the install (re-opening only what changed) and reach the studio as `install.changed`; a workspace file
 * changed by another program reaches it as `workspace.changed` with its hash, and a save over it is refused.
 */
let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'modpak-live-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The studio's host as the web build starts it, on `root`. */
const webHost = (root: string) =>
  createStudioHost({ facts: { version: '1', host: 'web', initialRoot: root, demo: false }, recentFile: null, warm: false });

/** An install `TA<tag>` holding one game archive, and an empty workspace `ws<tag>` beside it. */
async function installAndWorkspace(tag: string): Promise<{ root: string; ws: string }> {
  const root = join(base, `TA${tag}`);
  await mkdir(root);
  await writeFile(join(root, 'TOTALA.EXE'), 'MZ');
  await asInstall(root);
  const ws = join(base, `ws${tag}`);
  await mkdir(ws);
  await writeRecord(ws, { version: 1 });
  return { root, ws };
}

const sha = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');

function record(host: StudioHost) {
  const seen: { event: EventName; payload: unknown }[] = [];
  host.on((event, payload) => seen.push({ event, payload }));
  return {
    seen,
    of: <E extends EventName>(event: E) => seen.filter((s) => s.event === event).map((s) => s.payload as Events[E]),
  };
}

async function ok<T>(p: Promise<{ ok: boolean; result?: unknown; error?: unknown }>): Promise<T> {
  const env = await p;
  if (!env.ok) throw new Error(JSON.stringify(env.error));
  return env.result as T;
}

describe('the install followed on disk', () => {
  it('a .ufo written into the install wins at once: install.changed with the new order, resolve sees it', async () => {
    const root = await generateDemoInstall(join(base, 'TA1'));
    const host = await webHost(root);
    const events = record(host);
    try {
      await ok(host.call('install.open', { root }));
      expect(
        (await ok<{ winner: { archive: string } }>(host.call('install.resolve', { root, path: 'units/ARMPW.fbi' }))).winner.archive,
      ).toBe('totala1.hpi');
      await writeHpi(join(root, 'armpw.ufo'), [{ path: 'units/ARMPW.fbi', data: unitFbi('ARMPW', 'Peewee', { MaxDamage: '999' }) }]);
      await expect.poll(() => events.of('install.changed').length, { timeout: 10_000 }).toBeGreaterThan(0);
      const changed = events.of('install.changed').at(-1)!;
      expect(changed.root).toBe(root);
      expect(changed.changed).toContain('armpw.ufo');
      expect(changed.mounted.filter((m) => m.stage === 'ufo').map((m) => m.archive)).toEqual([
        'AFark.ufo',
        'armpw.ufo',
        'zeta.ufo',
        '_extra.ufo',
      ]);
      expect(
        (await ok<{ winner: { archive: string } }>(host.call('install.resolve', { root, path: 'units/ARMPW.fbi' }))).winner.archive,
      ).toBe('armpw.ufo');
      // The re-mount was reported as progress of its own job.
      expect(events.of('progress').some((p) => p.jobId === 'install.remount' && p.done === p.total)).toBe(true);

      // The archive goes: the old winner is back.
      const before = events.of('install.changed').length;
      await rm(join(root, 'armpw.ufo'));
      await expect.poll(() => events.of('install.changed').length, { timeout: 10_000 }).toBeGreaterThan(before);
      expect(
        events
          .of('install.changed')
          .at(-1)!
          .mounted.some((m) => m.archive === 'armpw.ufo'),
      ).toBe(false);
      expect(
        (await ok<{ winner: { archive: string } }>(host.call('install.resolve', { root, path: 'units/ARMPW.fbi' }))).winner.archive,
      ).toBe('totala1.hpi');

      // A loose file that changes size: the tree says the new size.
      const loose = events.of('install.changed').length;
      await writeFile(join(root, 'docs', 'notes.txt'), 'longer notes than before\r\n'.repeat(10));
      await expect.poll(() => events.of('install.changed').length, { timeout: 10_000 }).toBeGreaterThan(loose);
      const tree = await ok<{ paths: string[]; sizes: number[] }>(host.call('install.tree', { root }));
      expect(tree.sizes[tree.paths.indexOf('docs/notes.txt')]).toBe(260);
    } finally {
      await host.close();
    }
  });

  it('a re-mount re-opens only the archive that changed', async () => {
    const root = await generateDemoInstall(join(base, 'TA2'));
    const installs = new InstallService();
    try {
      await installs.open(root);
      const pool = installs.poolOf(root)!;
      const first = pool.opened;
      expect(first).toBeGreaterThan(15);
      await writeHpi(join(root, 'new.ufo'), [{ path: 'units/NEW.fbi', data: unitFbi('NEW', 'New') }]);
      const again = await installs.open(root, { refresh: true });
      expect(pool.opened - first).toBe(1);
      expect(again.resolve('units/NEW.fbi').winner?.archive).toBe('new.ufo');
      // Rewritten in place (a watch rebuild renamed over it): that one archive again, nothing else.
      await writeHpi(join(root, 'new.ufo'), [{ path: 'units/NEW.fbi', data: unitFbi('NEW', 'Newer') }]);
      const third = await installs.open(root, { refresh: true });
      expect(pool.opened - first).toBe(2);
      expect(new TextDecoder().decode(await third.read('units/NEW.fbi'))).toContain('Newer');
      // The replaced mount still reads through its own archives (they stay open until it is closed).
      expect(new TextDecoder().decode(await again.read('units/NEW.fbi'))).toContain('Name=New;');
    } finally {
      await installs.closeAll();
    }
  });

  it('opening another install stops following the old one and stops its watchers', async () => {
    const rootA = await generateDemoInstall(join(base, 'TA3'));
    const rootB = join(base, 'other');
    await mkdir(rootB);
    await writeFile(join(rootB, 'TOTALA.EXE'), 'MZ');
    await asInstall(rootB);
    const ws = join(base, 'ws3');
    await mkdir(join(ws, 'units'), { recursive: true });
    await writeRecord(ws, { version: 1 });
    await writeFile(join(ws, 'units', 'A.FBI'), '[UNITINFO]{UnitName=A;}');
    const options = { facts: { version: '1', host: 'web' as const, initialRoot: rootA, demo: false }, recentFile: null, warm: false };
    let host: StudioHost | null = null;
    const services = createServices(options, (event, payload) => host?.emit(event, payload));
    const allowlist = new PathAllowlist();
    await allowlist.grant(rootA, 'folder');
    await allowlist.grant(rootB, 'folder');
    host = new StudioHost(createCallTable(options, services), { allowlist, jobs: services.jobs });
    host.onClose(() => services.live.close());
    host.onClose(() => services.mods.close());
    host.onClose(() => services.installs.closeAll());
    try {
      await ok(host.call('install.open', { root: rootA }));
      expect(services.live.root).toBe(rootA);
      await ok(host.call('workspace.open', { dir: ws, root: rootA }));
      await ok(host.call('watch.start', { dir: ws, target: join(base, 'ws3.ufo'), debounceMs: 20 }));
      await ok(host.call('install.open', { root: rootB, game: 'ta' }));
      expect(services.live.root).toBe(rootB);
      expect(await ok(host.call('watch.status', { dir: ws }))).toMatchObject({ running: false });
    } finally {
      await host.close();
    }
  });
});

describe('the workspace followed on disk, and saves that would lose an edit', () => {
  it('an outside change arrives with its hash; a save with the old hash is refused until the user chooses', async () => {
    const { root, ws } = await installAndWorkspace('4');
    await mkdir(join(ws, 'units'));
    const original = '[UNITINFO]\r\n{\r\n\tUnitName=A;\r\n\tMaxDamage=10;\r\n}\r\n';
    await writeFile(join(ws, 'units', 'A.FBI'), original);
    const host = await webHost(root);
    const events = record(host);
    try {
      await ok(host.call('install.open', { root }));
      await ok(host.call('workspace.open', { dir: ws, root }));
      const read = await ok<{ text: string; hash: string }>(host.call('workspace.readText', { dir: ws, path: 'units/A.FBI' }));
      expect(read.hash).toBe(sha(original));

      // Another editor (sed -i) changes the file.
      const outside = original.replace('MaxDamage=10', 'MaxDamage=99');
      await writeFile(join(ws, 'units', 'A.FBI'), outside);
      await expect
        .poll(
          () =>
            events
              .of('workspace.changed')
              .flatMap((e) => e.files)
              .find((f) => f.path === 'units/A.FBI')?.hash,
          { timeout: 10_000 },
        )
        .toBe(sha(outside));

      // The studio's save with the hash it loaded is refused, and the outside edit is still there.
      const mine = original.replace('UnitName=A;', 'UnitName=A;\r\n\tName=Mine;');
      const refused = await host.call('workspace.writeText', { dir: ws, path: 'units/A.FBI', text: mine, expectedHash: read.hash });
      expect(refused).toMatchObject({ ok: false, error: { code: 'conflict' } });
      expect((refused as { error: { message: string } }).error.message).toMatch(/units\/A\.FBI changed on disk since you opened it/);
      expect((await ok<{ text: string }>(host.call('workspace.readText', { dir: ws, path: 'units/A.FBI' }))).text).toBe(outside);

      // With the hash it has now, or "keep mine" (no hash), the save goes through.
      const saved = await ok<{ hash: string }>(
        host.call('workspace.writeText', { dir: ws, path: 'units/A.FBI', text: mine, expectedHash: sha(outside) }),
      );
      expect(saved.hash).toBe(sha(mine));
      // A new file must not exist yet when the hash is null.
      expect(await host.call('workspace.writeText', { dir: ws, path: 'units/A.FBI', text: '', expectedHash: null })).toMatchObject({
        ok: false,
        error: { code: 'conflict' },
      });
      expect(await host.call('workspace.writeText', { dir: ws, path: 'units/A.FBI', text: 'x' })).toMatchObject({ ok: true });
    } finally {
      await host.close();
    }
  });

  it('a file saved into a new folder is reported as that file alone, never the folder as a deleted file', async () => {
    const { root, ws } = await installAndWorkspace('4b');
    const host = await webHost(root);
    const events = record(host);
    try {
      await ok(host.call('install.open', { root }));
      await ok(host.call('workspace.open', { dir: ws, root }));
      const text = '[WEAPON]\r\n{\r\n\tName=ZAP;\r\n}\r\n';
      const saved = await ok<{ hash: string }>(
        host.call('workspace.writeText', { dir: ws, path: 'weapons/ZAP.TDF', text, expectedHash: null }),
      );
      const files = () => events.of('workspace.changed').flatMap((e) => e.files);
      await expect.poll(() => files().find((f) => f.path === 'weapons/ZAP.TDF')?.hash, { timeout: 10_000 }).toBe(saved.hash);
      // A later change, reported after every batch before it.
      await writeFile(join(ws, 'later.txt'), 'x');
      await expect.poll(() => files().some((f) => f.path === 'later.txt'), { timeout: 10_000 }).toBe(true);
      // The studio takes every entry as a file: a folder with no hash would read as a file deleted by
      // another program, and the impact worked out since would be thrown away.
      expect(files().map((f) => f.path)).toEqual(['weapons/ZAP.TDF', 'later.txt']);
    } finally {
      await host.close();
    }
  });
});

describe('export errors', () => {
  it('name the target and say why, never the temporary file', async () => {
    const { root, ws } = await installAndWorkspace('5');
    await mkdir(join(ws, 'units'));
    await writeFile(join(ws, 'units', 'A.FBI'), '[UNITINFO]{UnitName=A;}');
    const host = await webHost(root);
    try {
      await ok(host.call('workspace.open', { dir: ws, root }));
      const answer = await host.call('mods.export', { dir: ws, target: '/proc/x.ufo' });
      expect(answer.ok).toBe(false);
      const message = (answer as { error: { message: string } }).error.message;
      expect(message).toContain('cannot create /proc/x.ufo: /proc does not accept new files');
      expect(message).not.toMatch(/\.tmp/);
    } finally {
      await host.close();
    }
  });
});

describe('a workspace opened from an archive of the install', () => {
  it("proposes the archive's own name, which replaces it and wins what it won (not the folder's name)", async () => {
    const root = await generateDemoInstall(join(base, 'TA6'));
    const host = await webHost(root);
    try {
      await ok(host.call('install.open', { root }));
      const opened = await ok<{ exportName: string | null; dir: string }>(
        host.call('workspace.fromArchive', { archive: join(root, 'zeta.ufo'), dir: join(base, 'zmod'), root }),
      );
      expect(opened.exportName).toBe('zeta.ufo');
      // The impact under the proposed name: it wins zeta.ufo's paths over what is below (not over itself).
      const proposed = await ok<{ wins: { path: string; over: string | null }[]; hidden: unknown[]; replaces: string | null }>(
        host.call('mods.impact', { root, archive: opened.dir }),
      );
      expect(proposed.replaces).toBe('zeta.ufo');
      expect(proposed.wins.map((w) => w.path).sort()).toEqual(['gamedata/mods.txt', 'units/CORZETA.fbi', 'weapons/zeta.tdf']);
      // Under the folder's name it would sort after zeta.ufo, which would hide all of it.
      const folderName = await ok<{ wins: unknown[]; hidden: { by: string | null }[] }>(
        host.call('mods.impact', { root, archive: opened.dir, name: 'zmod.ufo' }),
      );
      expect(folderName.wins).toEqual([]);
      expect(folderName.hidden.every((h) => h.by === 'zeta.ufo')).toBe(true);
      // An archive from elsewhere whose paths nobody else has: its own name wins them.
      const elsewhere = join(base, 'elsewhere.ufo');
      await writeHpi(elsewhere, [{ path: 'units/X.fbi', data: unitFbi('X', 'X') }]);
      await host.grant(elsewhere, 'file');
      expect(
        (await ok<{ exportName: string | null }>(host.call('workspace.fromArchive', { archive: elsewhere, dir: join(base, 'emod'), root })))
          .exportName,
      ).toBe('elsewhere.ufo');
    } finally {
      await host.close();
    }
  });

  it('an archive from outside the install: proposes a name that wins its paths, not its own name that sorts after the original', async () => {
    const root = await generateDemoInstall(join(base, 'TA7'));
    const host = await webHost(root);
    try {
      await ok(host.call('install.open', { root }));
      // zeta.ufo's paths under a name that TA reads after zeta.ufo: as it is, zeta.ufo hides every one.
      const outside = join(base, 'downloads', 'zzz.ufo');
      await mkdir(dirname(outside), { recursive: true });
      await copyFile(join(root, 'zeta.ufo'), outside);
      await host.grant(outside, 'file');
      const own = await ok<{ wins: unknown[]; hidden: { by: string | null }[] }>(host.call('mods.impact', { root, archive: outside }));
      expect(own.wins).toEqual([]);
      expect(own.hidden.length).toBe(3);
      const opened = await ok<{ exportName: string | null; dir: string }>(
        host.call('workspace.fromArchive', { archive: outside, dir: join(base, 'zzzmod'), root }),
      );
      expect(opened.exportName).not.toBeNull();
      expect(opened.exportName).not.toBe('zzz.ufo');
      expect(opened.exportName!.toLowerCase().endsWith('zzz.ufo')).toBe(true);
      const proposed = await ok<{ wins: { path: string }[]; hidden: unknown[]; replaces: string | null }>(
        host.call('mods.impact', { root, archive: opened.dir, name: opened.exportName! }),
      );
      expect(proposed.hidden).toEqual([]);
      expect(proposed.replaces).toBeNull();
      expect(proposed.wins.map((w) => w.path).sort()).toEqual(['gamedata/mods.txt', 'units/CORZETA.fbi', 'weapons/zeta.tdf']);
    } finally {
      await host.close();
    }
  });
});

describe('a file the host wrote into the followed install', () => {
  it('is re-mounted at once, the watcher echo of the same bytes is skipped, and a file outside is ignored', async () => {
    const { LiveFolders } = await import('../../../electron/services/live-install.js');
    const root = join(base, 'first-hand');
    await mkdir(root, { recursive: true });
    await asInstall(root);
    const remounts: string[] = [];
    const installs = new InstallService();
    const changed: string[][] = [];
    const live = new LiveFolders({
      remount: async (r, o) => {
        remounts.push(r);
        return installs.open(r, { ...o, refresh: true });
      },
      emit: (event, payload) => {
        if (event === 'install.changed') changed.push((payload as Events['install.changed']).changed);
      },
    });
    try {
      await live.followInstall(root, {});
      const target = join(root, 'mine.ufo');
      await writeHpi(target, [{ path: 'units/MINE.fbi', data: unitFbi('MINE', 'Mine') }]);
      await live.written(target);
      await live.idle();
      expect(remounts).toHaveLength(1);
      expect(changed.at(-1)).toEqual(['mine.ufo']);
      expect((await installs.get(root)).resolve('units/mine.fbi').winner?.archive).toBe('mine.ufo');
      // What the file watcher reports for the same bytes is the echo of that write: no second re-mount.
      await (live as unknown as { remount(root: string, paths: string[]): Promise<void> }).remount(root, ['mine.ufo']);
      expect(remounts).toHaveLength(1);
      // Rewritten since: a report of it re-mounts again.
      await live.written(target);
      await writeHpi(target, [
        { path: 'units/MINE.fbi', data: unitFbi('MINE', 'Mine, again') },
        { path: 'units/TWO.fbi', data: unitFbi('TWO', 'Two') },
      ]);
      await live.idle();
      await (live as unknown as { remount(root: string, paths: string[]): Promise<void> }).remount(root, ['mine.ufo']);
      expect(remounts.length).toBeGreaterThanOrEqual(3);
      const before = remounts.length;
      await live.written(join(base, 'elsewhere.ufo'));
      await live.idle();
      expect(remounts).toHaveLength(before);
    } finally {
      await live.close();
      await installs.closeAll();
    }
  });
});
