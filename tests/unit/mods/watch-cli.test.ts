import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { modpakBin } from '../../helpers/run-cli.js';
import { openArchive } from '../../../electron/formats/index.js';
import { collectFolder } from '../../../electron/mods/pack.js';

/**
 * `modpak watch` as a user runs it (the real bin, a child process): files are changed, added and deleted
 * in bursts while a reader keeps opening the target. The target must open as a complete archive every
 * single time, and end holding exactly the folder's final content; a failing build keeps the previous
 * archive and says so; SIGINT stops it cleanly.
 */
let work: string;
let dir: string;
let target: string;
let child: ChildProcess | null = null;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'modpak-watchcli-'));
  dir = join(work, 'mod');
  target = join(work, 'mod.ufo');
  await mkdir(join(dir, 'units'), { recursive: true });
});
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = null;
  await rm(work, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(25);
  }
}

/** path → content of a whole archive, reading (and so decoding) every file. */
async function archiveContent(file: string): Promise<Record<string, string>> {
  const archive = await openArchive(file);
  try {
    const out: Record<string, string> = {};
    for (const e of archive.entries) if (!e.dir) out[e.path] = Buffer.from(await archive.read(e)).toString('latin1');
    return out;
  } finally {
    await archive.close();
  }
}

async function folderContent(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of await collectFolder(dir)) out[f.path] = Buffer.from(await f.read()).toString('latin1');
  return out;
}

function startWatch(debounce: number) {
  const lines: string[] = [];
  let stderr = '';
  child = spawn(process.execPath, [modpakBin, 'watch', dir, '--target', target, '--debounce', String(debounce)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => lines.push(...c.toString('utf8').split('\n').filter(Boolean)));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child!.on('close', (code) => resolve(code)));
  return { lines, stderr: () => stderr, exited };
}

describe('modpak watch', () => {
  it('fails at once with one line when DIR is not a folder', async () => {
    const { runCli } = await import('../../helpers/run-cli.js');
    const listeners = process.listenerCount('SIGINT');
    const r = await runCli(['watch', join(work, 'nope'), '--target', target]);
    expect(r.code).toBe(1);
    // No signal handler is left behind by a watch that never started.
    expect(process.listenerCount('SIGINT')).toBe(listeners);
    expect(r.stderr).toBe(`modpak: ${join(work, 'nope')}: not a folder\n`);
  });

  it('rebuilds through bursts of changes, adds and deletes; the target always opens whole and ends equal to the folder', async () => {
    for (let i = 0; i < 6; i++)
      await writeFile(join(dir, 'units', `U${i}.FBI`), `[UNITINFO]\r\n{\r\n\tUnitName=U${i};\r\n\tMaxDamage=${i};\r\n}\r\n`);
    const watch = startWatch(80);
    await waitFor(() => watch.lines.some((l) => / built .*: 6 files/.test(l)));

    let opens = 0;
    const failures: string[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) {
        try {
          await archiveContent(target);
          opens++;
        } catch (err) {
          failures.push(err instanceof Error ? err.message : String(err));
        }
        await sleep(5);
      }
    })();

    let events = 0;
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 8; i++) {
        const n = (round * 5 + i) % 14;
        await writeFile(
          join(dir, 'units', `U${n}.FBI`),
          `[UNITINFO]\r\n{\r\n\tUnitName=U${n};\r\n\tMaxDamage=${round * 100 + i};\r\n}\r\n` + 'x'.repeat(round * 3000),
        );
        events++;
      }
      if (round % 2 === 1) {
        await unlink(join(dir, 'units', `U${round}.FBI`)).catch(() => {});
        events++;
      }
      await sleep(round % 2 === 0 ? 30 : 250);
    }
    await mkdir(join(dir, 'weapons'));
    await writeFile(join(dir, 'weapons', 'W.TDF'), '[W]{range=1;}');
    events++;

    const want = await folderContent();
    await waitFor(async () => JSON.stringify(await archiveContent(target).catch(() => null)) === JSON.stringify(want));
    await sleep(400);
    reading = false;
    await reader;
    expect(failures).toEqual([]);
    expect(opens).toBeGreaterThan(5);
    expect(await archiveContent(target)).toEqual(await folderContent());

    const builds = watch.lines.filter((l) => / built /.test(l));
    // Bursts coalesce: far fewer builds than changes, and every build has its one log line with a duration.
    expect(builds.length).toBeGreaterThanOrEqual(2);
    expect(builds.length).toBeLessThan(events / 2);
    for (const line of builds) expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} built .*mod\.ufo: \d+ files, \d+ bytes in [\d.]+ ms$/);

    child!.kill('SIGINT');
    expect(await watch.exited).toBe(0);
    expect(watch.stderr()).toContain('stopped watching');
  });

  it('keeps the previous archive and says why when a build fails, then recovers', async () => {
    await writeFile(join(dir, 'units', 'A.FBI'), '[UNITINFO]{UnitName=A;}');
    const watch = startWatch(50);
    await waitFor(() => watch.lines.some((l) => / built /.test(l)));
    const good = await archiveContent(target);
    await writeFile(join(dir, 'units', 'SNOW☃.FBI'), '[UNITINFO]{UnitName=SNOW;}');
    await waitFor(() => watch.lines.some((l) => / build failed /.test(l)));
    const failed = watch.lines.find((l) => / build failed /.test(l))!;
    expect(failed).toMatch(/build failed after [\d.]+ ms: cannot store the name .*☃.*; the previous mod\.ufo is kept$/);
    expect(await archiveContent(target)).toEqual(good);
    await unlink(join(dir, 'units', 'SNOW☃.FBI'));
    await writeFile(join(dir, 'units', 'B.FBI'), '[UNITINFO]{UnitName=B;}');
    await waitFor(async () => Object.keys(await archiveContent(target)).length === 2);
    expect(await archiveContent(target)).toEqual(await folderContent());
    child!.kill('SIGTERM');
    expect(await watch.exited).toBe(0);
  });
});
