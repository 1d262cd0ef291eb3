import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, readFile, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packFolder } from '../../../electron/mods/pack.js';
import { createStudioHost } from '../../../electron/services/handlers/index.js';
import type { StudioHost } from '../../../electron/services/host/host.js';
import type { Envelope } from '../../../electron/services/host/host.js';

/**
 * The real call table behind the host, on an install generated here: two .ufo mods that both provide
 * units/ARMCOM.FBI (TA searches *.ufo in upper-case name order and the first one found wins, so
 * alpha.ufo shadows beta.ufo) and a loose file.
 */
let dir: string;
let root: string;
let host: StudioHost;
const events: { event: string; payload: unknown }[] = [];

async function packUfo(name: string, files: Record<string, string>): Promise<void> {
  const src = join(dir, `src-${name}`);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(src, path, '..'), { recursive: true });
    await writeFile(join(src, path), text);
  }
  await packFolder({ dir: src, target: join(root, name) });
}

function ok<T>(answer: Envelope): T {
  if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return answer.result as T;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modpak-handlers-'));
  root = join(dir, 'install');
  await mkdir(root);
  await packUfo('alpha.ufo', {
    'units/ARMCOM.FBI': '[UNITINFO]\n{\n UnitName=ARMCOM;\n Name=alpha;\n}\n',
    'gamedata/alpha.txt': 'alpha only',
  });
  await packUfo('beta.ufo', { 'units/ARMCOM.FBI': '[UNITINFO]\n{\n UnitName=ARMCOM;\n Name=beta;\n}\n', 'sounds/beta.txt': 'beta only' });
  await mkdir(join(root, 'gamedata'));
  await writeFile(join(root, 'gamedata', 'loose.txt'), 'a loose file');
  host = await createStudioHost({
    facts: { version: '1', host: 'web', initialRoot: root, demo: false },
    recentFile: join(dir, 'recent.json'),
  });
  host.on((event, payload) => events.push({ event, payload }));
});
afterAll(async () => {
  await host?.close();
});

describe('install.* over the layered filesystem', () => {
  it('install.open reports the mount order and stats, and remembers the install', async () => {
    const report = ok<{
      game: string;
      mounted: { archive: string; stage: string; files: number }[];
      root: string;
      stats: { paths: number; shadowedPaths: number; looseFiles: number };
    }>(await host.call('install.open', { root, game: 'ta' }));
    expect(report.game).toBe('ta');
    expect(report.root).toBe(root);
    expect(report.mounted.map((m) => [m.archive, m.stage, m.files])).toEqual([
      ['alpha.ufo', 'ufo', 2],
      ['beta.ufo', 'ufo', 2],
    ]);
    expect(report.stats).toMatchObject({ paths: 4, shadowedPaths: 1, looseFiles: 1 });
    expect(ok<string[]>(await host.call('install.recent', {}))).toEqual([root]);
  });

  it('install.tree, resolve and read name and return the winner', async () => {
    const tree = ok<{ paths: string[]; winners: number[]; layers: number[]; archives: string[] }>(
      await host.call('install.tree', { root }),
    );
    const i = tree.paths.findIndex((p) => p.toUpperCase() === 'UNITS/ARMCOM.FBI');
    expect(i).toBeGreaterThanOrEqual(0);
    expect(tree.archives[tree.winners[i]!]).toBe('alpha.ufo');
    expect(tree.layers[i]).toBe(2);
    const resolved = ok<{ winner: { archive: string }; shadowed: { archive: string }[] }>(
      await host.call('install.resolve', { root, path: 'units/armcom.fbi' }),
    );
    expect(resolved.winner.archive).toBe('alpha.ufo');
    expect(resolved.shadowed.map((s) => s.archive)).toEqual(['beta.ufo']);
    const preview = ok<{ data: string; archive: string; size: number; truncated: boolean }>(
      await host.call('install.read', { root, path: 'units/armcom.fbi' }),
    );
    expect(preview.archive).toBe('alpha.ufo');
    expect(Buffer.from(preview.data, 'base64').toString()).toContain('Name=alpha;');
    const shadowed = ok<{ data: string; archive: string }>(
      await host.call('install.read', { root, path: 'units/armcom.fbi', archive: 'beta.ufo' }),
    );
    expect(shadowed.archive).toBe('beta.ufo');
    expect(Buffer.from(shadowed.data, 'base64').toString()).toContain('Name=beta;');
    const cut = ok<{ data: string; truncated: boolean; size: number }>(
      await host.call('install.read', { root, path: 'gamedata/loose.txt', maxBytes: 3 }),
    );
    expect([Buffer.from(cut.data, 'base64').toString(), cut.truncated, cut.size]).toEqual(['a l', true, 12]);
  });

  it('install.defs names the winning unit', async () => {
    const defs = ok<{ name: string; archive: string | null }[]>(await host.call('install.defs', { root, kind: 'units' }));
    expect(defs.map((d) => [d.name.toUpperCase(), d.archive])).toEqual([['ARMCOM', 'alpha.ufo']]);
  });

  it('install.extract writes the winners with progress events for its job', async () => {
    const target = join(dir, 'extracted');
    events.length = 0;
    const result = ok<{ files: number }>(
      await host.call('install.extract', { root, paths: ['units', 'gamedata/loose.txt'], target, jobId: 'x1' }),
    );
    expect(result.files).toBe(2);
    expect(await readFile(join(target, 'gamedata', 'loose.txt'), 'utf8')).toBe('a loose file');
    expect((await readdir(join(target, 'units'))).map((n) => n.toUpperCase())).toEqual(['ARMCOM.FBI']);
    const progress = events.filter((e) => e.event === 'progress').map((e) => e.payload as { jobId: string; done: number; total: number });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p.jobId === 'x1')).toBe(true);
    expect(progress.at(-1)).toMatchObject({ done: 2, total: 2 });
  });

  it('refuses an install that was never opened or allowed', async () => {
    expect(await host.call('install.tree', { root: dir })).toMatchObject({ ok: false, error: { code: 'not-allowed' } });
  });
});

describe('archive.* on one archive', () => {
  it('opens, reads, verifies and extracts a .ufo', async () => {
    const path = join(root, 'alpha.ufo');
    const listing = ok<{ info: { format: string; files: number }; entries: { path: string }[] }>(await host.call('archive.open', { path }));
    expect(listing.info).toMatchObject({ format: 'hpi', files: 2 });
    expect(
      listing.entries
        .filter((e) => !('dir' in e))
        .map((e) => e.path)
        .sort(),
    ).toEqual(['gamedata/alpha.txt', 'units/ARMCOM.FBI']);
    const preview = ok<{ data: string }>(await host.call('archive.read', { path, entry: 'GAMEDATA/ALPHA.TXT' }));
    expect(Buffer.from(preview.data, 'base64').toString()).toBe('alpha only');
    expect(await host.call('archive.read', { path, entry: 'nope.txt' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(ok<{ ok: boolean; files: number }>(await host.call('archive.verify', { path }))).toMatchObject({ ok: true, files: 2 });
    const target = join(dir, 'alpha-out');
    expect(ok<{ files: number }>(await host.call('archive.extract', { path, target, globs: ['*.txt'] }))).toMatchObject({ files: 1 });
    expect(await readFile(join(target, 'gamedata', 'alpha.txt'), 'utf8')).toBe('alpha only');
  });

  it('a corrupt archive gives a readable failure, not a crash', async () => {
    const bad = join(root, 'broken.hpi');
    await writeFile(bad, Buffer.concat([Buffer.from('HAPI'), Buffer.alloc(60, 0xff)]));
    const answer = await host.call('archive.open', { path: bad });
    expect(answer).toMatchObject({ ok: false, error: { code: 'failed' } });
    if (!answer.ok) expect(answer.error.message.length).toBeGreaterThan(5);
  });
});

describe('workspace.* and mods.* over the mod workflow', () => {
  it('overrides a unit, edits it, and the diff names what it shadows', async () => {
    const ws = join(dir, 'mymod');
    ok(await host.call('workspace.open', { dir: ws, root }));
    expect(
      ok<{ path: string; from: string | null }>(await host.call('workspace.override', { dir: ws, root, path: 'units/ARMCOM.FBI' })).from,
    ).toBe('alpha.ufo');
    const text = ok<{ text: string }>(await host.call('workspace.readText', { dir: ws, path: 'units/ARMCOM.FBI' })).text;
    ok(await host.call('workspace.writeText', { dir: ws, path: 'units/ARMCOM.FBI', text: text.replace('Name=alpha;', 'Name=mine;') }));
    const diff = ok<{ path: string; status: string; base: { archive: string } }[]>(await host.call('mods.diff', { dir: ws, root }));
    expect(diff.map((d) => [d.path, d.status, d.base?.archive])).toEqual([['units/ARMCOM.FBI', 'modified', 'alpha.ufo']]);
  });

  it('mods.impact ranks a workspace under the name it will be exported as, and takes only a file name', async () => {
    const ws = join(dir, 'mymod'); // the workspace of the test above: it overrides units/ARMCOM.FBI
    type Impact = {
      archive: string;
      stage: string;
      rank: number;
      hidden: { path: string; by: string | null }[];
      wins: { path: string; over: string | null }[];
    };
    // Its own name sorts after ALPHA.UFO, which then hides the override...
    const own = ok<Impact>(await host.call('mods.impact', { root, archive: ws }));
    expect(own).toMatchObject({ archive: 'mymod.ufo', stage: 'ufo', rank: 3 });
    expect(own.hidden).toEqual([{ path: 'units/ARMCOM.FBI', by: 'alpha.ufo' }]);
    // ...while a name that sorts first wins over it: the answer follows the name typed for the export.
    const first = ok<Impact>(await host.call('mods.impact', { root, archive: ws, name: '0first.ufo' }));
    expect(first).toMatchObject({ archive: '0first.ufo', stage: 'ufo', rank: 1 });
    expect(first.wins).toEqual([{ path: 'units/ARMCOM.FBI', over: 'alpha.ufo' }]);
    for (const name of ['sub/x.ufo', '..\\x.ufo', '']) {
      expect(await host.call('mods.impact', { root, archive: ws, name }), name).toMatchObject({ ok: false });
    }
    expect(await readdir(root)).not.toContain('0first.ufo');
  });

  it('refuses workspace paths that climb out of it', async () => {
    const ws = join(dir, 'mymod');
    for (const path of ['../escape.txt', '/etc/passwd', 'C:/x.txt']) {
      expect(await host.call('workspace.writeText', { dir: ws, path, text: 'x' }), path).toMatchObject({
        ok: false,
        error: { code: 'not-allowed' },
      });
    }
    expect(await readdir(dir)).not.toContain('escape.txt');
  });

  it('workspace.checkTdf reports problems with line numbers', async () => {
    const check = ok<{ ok: boolean; problems: { line: number }[] }>(
      await host.call('workspace.checkTdf', { text: '[UNITINFO]\n{\n Name=x;\n' }),
    );
    expect(check.ok).toBe(false);
    expect(check.problems[0]!.line).toBeGreaterThan(0);
  });
});
