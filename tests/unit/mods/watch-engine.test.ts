import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RepackWatcher } from '../../../electron/mods/watch.js';
import { writeFileAtomically } from '../../../electron/io/byte-sink.js';
import { collectFolder } from '../../../electron/mods/pack.js';
import { isWorkspaceJunk } from '../../../electron/mods/junk.js';

/**
 * The watch engine's scheduling, with a build that really re-reads the folder and writes a snapshot of it
 * (path → content) through writeFileAtomically. Archive-format builds are covered in watch-archive.test.ts.
 */

let work: string;
let dir: string;
let target: string;
const watchers: RepackWatcher[] = [];

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'modpak-watch-'));
  dir = join(work, 'mod');
  target = join(work, 'out.json');
  await mkdir(dir);
});
afterEach(async () => {
  for (const w of watchers.splice(0)) await w.close();
  await rm(work, { recursive: true, force: true });
});

async function snapshotBuild(options: { delayMs?: number; failWhen?: (files: string[]) => boolean; buildsStarted?: { n: number } } = {}) {
  const files = (await collectFolder(dir, undefined, target)).filter((f) => !isWorkspaceJunk(f.path));
  if (options.buildsStarted) options.buildsStarted.n++;
  const content: Record<string, string> = {};
  for (const f of files) content[f.path] = Buffer.from(await f.read()).toString('utf8');
  if (options.failWhen?.(Object.keys(content))) throw new Error('refused: the folder holds a file named FAIL');
  await writeFileAtomically(target, async (sink) => {
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    await sink.write(new TextEncoder().encode(JSON.stringify(content)));
  });
  return { files: files.length };
}

async function folderContent(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of await collectFolder(dir, undefined, target)) {
    if (!isWorkspaceJunk(f.path)) out[f.path] = Buffer.from(await f.read()).toString('utf8');
  }
  return out;
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function start(extra: Partial<Parameters<typeof RepackWatcher.start>[0]> & { build: () => Promise<{ files: number }> }) {
  const logs: string[] = [];
  const w = await RepackWatcher.start({ dir, target, debounceMs: 80, writeSettleMs: 30, onLog: (l) => logs.push(l), ...extra });
  watchers.push(w);
  return { w, logs };
}

describe('RepackWatcher', () => {
  it('builds once on start, then coalesces a burst of writes into one more build', async () => {
    await writeFile(join(dir, 'a.txt'), 'one');
    const { w, logs } = await start({ build: () => snapshotBuild(), debounceMs: 250 });
    await w.idle();
    expect(w.buildCount).toBe(1);
    expect(JSON.parse(await readFile(target, 'utf8'))).toEqual({ 'a.txt': 'one' });
    for (let i = 0; i < 20; i++) await writeFile(join(dir, `f${i}.txt`), `v${i}`);
    await waitFor(async () => JSON.stringify(JSON.parse(await readFile(target, 'utf8'))) === JSON.stringify(await folderContent()));
    await w.idle();
    // 20 files written back to back is one burst: at most a second rebuild when chokidar spreads the events.
    expect(w.buildCount).toBeGreaterThanOrEqual(2);
    expect(w.buildCount).toBeLessThanOrEqual(3);
    expect(logs.every((l) => /^built .*out\.json: \d+ files in [\d.]+ ms$/.test(l))).toBe(true);
    expect(w.status()).toMatchObject({ running: true, state: 'ok', lastBuild: { ok: true, files: 21, number: w.buildCount } });
  });

  it('runs one build at a time and queues exactly one rebuild for changes made during a build', async () => {
    await writeFile(join(dir, 'a.txt'), 'one');
    let concurrent = 0;
    let maxConcurrent = 0;
    const build = async () => {
      concurrent++;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      try {
        return await snapshotBuild({ delayMs: 900 });
      } finally {
        concurrent--;
      }
    };
    const { w } = await start({ build });
    await w.idle();
    expect(w.buildCount).toBe(1);
    // Three bursts, each after the debounce, all while the second build sleeps: one build runs, one is queued.
    await writeFile(join(dir, 'a.txt'), 'two');
    await waitFor(() => w.status().state === 'building');
    await writeFile(join(dir, 'b.txt'), 'b');
    await new Promise((r) => setTimeout(r, 150));
    await writeFile(join(dir, 'c.txt'), 'c');
    await new Promise((r) => setTimeout(r, 150));
    await unlink(join(dir, 'b.txt'));
    expect(w.buildCount).toBe(2);
    await waitFor(() => w.buildCount === 3);
    await w.idle();
    expect(maxConcurrent).toBe(1);
    expect(w.buildCount).toBe(3);
    expect(JSON.parse(await readFile(target, 'utf8'))).toEqual({ 'a.txt': 'two', 'c.txt': 'c' });
  });

  it('keeps the previous target and says why when a build fails, then recovers', async () => {
    await writeFile(join(dir, 'a.txt'), 'good');
    const { w, logs } = await start({ build: () => snapshotBuild({ failWhen: (files) => files.includes('FAIL') }) });
    await w.idle();
    const before = await readFile(target);
    await writeFile(join(dir, 'FAIL'), 'x');
    await waitFor(() => w.status().state === 'failed');
    expect(await readFile(target)).toEqual(before);
    expect(logs.at(-1)).toMatch(
      /^build failed after [\d.]+ ms: refused: the folder holds a file named FAIL; the previous out\.json is kept$/,
    );
    expect(w.status().lastBuild).toMatchObject({ ok: false, number: w.buildCount });
    expect((await readdir(work)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    await unlink(join(dir, 'FAIL'));
    await waitFor(() => w.status().state === 'ok');
    expect(JSON.parse(await readFile(target, 'utf8'))).toEqual({ 'a.txt': 'good' });
  });

  it('ignores its own target inside the folder and editor junk, so it never rebuilds itself in a loop', async () => {
    target = join(dir, 'mod.json');
    await writeFile(join(dir, 'a.txt'), 'one');
    const { w } = await start({ build: () => snapshotBuild() });
    await w.idle();
    await writeFile(join(dir, '.a.txt.swp'), 'swap');
    await writeFile(join(dir, 'a.txt~'), 'backup');
    await new Promise((r) => setTimeout(r, 500));
    await w.idle();
    expect(w.buildCount).toBe(1);
    expect(JSON.parse(await readFile(target, 'utf8'))).toEqual({ 'a.txt': 'one' });
  });

  it('rebuilds from the periodic listing check when a change never produced an event', async () => {
    await writeFile(join(dir, 'a.txt'), 'one');
    const { w, logs } = await start({ build: () => snapshotBuild(), verifyEveryMs: 200 });
    await w.idle();
    // Simulate a lost event (a rename race, a network share): chokidar stops reporting anything.
    await (w as unknown as { watcher: { close(): Promise<void> } }).watcher.close();
    await writeFile(join(dir, 'a.txt'), 'two, unannounced');
    await waitFor(async () => JSON.parse(await readFile(target, 'utf8'))['a.txt'] === 'two, unannounced');
    expect(logs).toContain('the folder changed without a watch event: rebuilding');
    expect(w.buildCount).toBe(2);
    // Nothing changes any more: the check does not rebuild again.
    await new Promise((r) => setTimeout(r, 600));
    expect(w.buildCount).toBe(2);
  });

  it('close() waits for the running build and starts no other', async () => {
    await writeFile(join(dir, 'a.txt'), 'one');
    const { w } = await start({ build: () => snapshotBuild({ delayMs: 300 }) });
    await waitFor(() => w.status().state === 'building');
    await new Promise((r) => setTimeout(r, 100));
    await writeFile(join(dir, 'a.txt'), 'two');
    await new Promise((r) => setTimeout(r, 150));
    await w.close();
    expect(w.status()).toMatchObject({ running: false, state: 'ok' });
    const count = w.buildCount;
    await writeFile(join(dir, 'b.txt'), 'late');
    await new Promise((r) => setTimeout(r, 300));
    expect(w.buildCount).toBe(count);
    expect(JSON.parse(await readFile(target, 'utf8'))).toEqual({ 'a.txt': 'one' });
  });
});
