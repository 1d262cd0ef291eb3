import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { withScratch } from '../build.js';

/**
 * I/O fault injection: the N-th read, then the N-th write, of files in the test's folder fails (EIO,
 * ENOSPC), for every N a small `pack` and a small `extract` make. The faults come from a preload module
 * in the child process that wraps node:fs itself (faults.mjs), so this holds however the code reads and
 * writes. Every run must end in one clear line and exit 1, leave no temporary or partial file, keep the
 * previous target whole, and leave the sources as they were.
 */
const preload = fileURLToPath(new URL('./faults.mjs', import.meta.url));
const driver = fileURLToPath(new URL('./drive.mjs', import.meta.url));

interface Run {
  code: number | null;
  stderr: string;
  counts: { read: number; write: number; injected: boolean };
}

interface Planned {
  /** Only files under it count. */
  dir: string;
  fault: string | null;
  args: string[];
}

/** Run every planned command in one child process (faults.mjs preloaded, drive.mjs calling the CLI). */
async function runPlan(scratch: string, plan: readonly Planned[]): Promise<Run[]> {
  const planFile = join(scratch, 'plan.json');
  const resultFile = join(scratch, 'results.json');
  await writeFile(planFile, JSON.stringify(plan));
  const stderr = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', preload, driver, planFile, resultFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    let text = '';
    child.stderr.on('data', (c: Buffer) => (text += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
  const results = JSON.parse(await readFile(resultFile, 'utf8').catch(() => 'null')) as Run[] | null;
  if (!results) throw new Error(`the driver gave no results: ${stderr}`);
  return results;
}

/** Every fault a run with `counts` can meet: each read fails with EIO, each write with ENOSPC and with EIO. */
function faultsFor(counts: Run['counts']): string[] {
  const faults: string[] = [];
  for (let n = 1; n <= counts.read; n++) faults.push(`read:${n}:EIO`);
  for (let n = 1; n <= counts.write; n++) faults.push(`write:${n}:ENOSPC`, `write:${n}:EIO`);
  return faults;
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir, { recursive: true, withFileTypes: true })).filter((d) => d.isFile())) {
    const path = join(name.parentPath, name.name);
    out[path.slice(dir.length + 1)] = sha(await readFile(path));
  }
  return out;
}

function expectOneClearLine(run: Run, fault: string) {
  expect(run.counts.injected, fault).toBe(true);
  expect(run.code, `${fault}: ${run.stderr}`).toBe(1);
  const lines = run.stderr.split('\n').filter((l) => l !== '');
  expect(lines, fault).toHaveLength(1);
  expect(lines[0], fault).toMatch(
    fault.endsWith('EIO') ? /^modpak: \S.*: input\/output error/ : /^modpak: \S.*: no space left on the device$/,
  );
}

const sources: Record<string, string | Uint8Array> = {
  'units/ARMCOM.fbi': '[UNITINFO]\r\n{\r\n\tUnitName=ARMCOM;\r\n\tMaxDamage=3000;\r\n}\r\n',
  'scripts/big.bin': Uint8Array.from({ length: 200_000 }, (_, i) => (i * 31) ^ (i >> 9)),
  'readme.txt': 'a small mod\n',
};

async function writeSources(src: string) {
  for (const [path, data] of Object.entries(sources)) {
    await mkdir(join(src, path, '..'), { recursive: true });
    await writeFile(join(src, path), data);
  }
}

const runDir = (scratch: string, fault: string | null) => join(scratch, fault ? fault.replaceAll(':', '-') : 'clean');

describe('I/O faults: the N-th read or write fails, for every N (item F)', () => {
  it('pack: one line, exit 1, the previous archive intact, no temporary file, the sources unchanged', async () => {
    await withScratch(async (scratch) => {
      const prepare = async (fault: string | null): Promise<Planned> => {
        const dir = runDir(scratch, fault);
        await writeSources(join(dir, 'src'));
        await mkdir(join(dir, 'out'));
        await writeFile(join(dir, 'out', 'mod.ufo'), 'the previous archive');
        return { dir, fault, args: ['pack', join(dir, 'src'), '--target', join(dir, 'out', 'mod.ufo'), '--method', 'zlib'] };
      };
      const [clean] = await runPlan(scratch, [await prepare(null)]);
      expect(clean!.code, clean!.stderr).toBe(0);
      expect(clean!.counts.read).toBeGreaterThanOrEqual(3);
      expect(clean!.counts.write).toBeGreaterThan(0);
      expect((await readFile(join(runDir(scratch, null), 'out', 'mod.ufo'))).subarray(0, 4).toString()).toBe('HAPI');
      const before = await snapshot(join(runDir(scratch, null), 'src'));
      const faults = faultsFor(clean!.counts);
      const runs = await runPlan(scratch, await Promise.all(faults.map(prepare)));
      for (const [i, fault] of faults.entries()) {
        const dir = runDir(scratch, fault);
        expectOneClearLine(runs[i]!, fault);
        expect(await readdir(join(dir, 'out')), fault).toEqual(['mod.ufo']);
        expect(await readFile(join(dir, 'out', 'mod.ufo'), 'utf8'), fault).toBe('the previous archive');
        expect(await snapshot(join(dir, 'src')), fault).toEqual(before);
      }
    });
  }, 120_000);

  /**
   * A command that writes the archive's files into the folder `out`: one holding a file of one of their
   * names (`previous`), or none (flatten wants a new folder).
   */
  async function writesIntoFolder(
    scratch: string,
    withPrevious: boolean,
    command: (dir: string) => { setup: (archive: Uint8Array) => Promise<void>; args: string[] },
  ) {
    const seed = join(scratch, 'seed');
    await writeSources(join(seed, 'src'));
    const archive = join(scratch, 'mod.ufo');
    const [built] = await runPlan(scratch, [
      { dir: seed, fault: null, args: ['pack', join(seed, 'src'), '--target', archive, '--method', 'zlib'] },
    ]);
    expect(built!.code, built!.stderr).toBe(0);
    const archiveBytes = await readFile(archive);
    const whole = Object.fromEntries(
      Object.entries(sources).map(([p, d]) => [p, sha(typeof d === 'string' ? new TextEncoder().encode(d) : d)]),
    );
    const previous = 'the file that was there before';
    const prepare = async (fault: string | null): Promise<Planned> => {
      const dir = runDir(scratch, fault);
      await mkdir(dir, { recursive: true });
      if (withPrevious) {
        await mkdir(join(dir, 'out', 'units'), { recursive: true });
        await writeFile(join(dir, 'out', 'units', 'ARMCOM.fbi'), previous);
      }
      const { setup, args } = command(dir);
      await setup(archiveBytes);
      return { dir, fault, args };
    };
    const [clean] = await runPlan(scratch, [await prepare(null)]);
    expect(clean!.code, clean!.stderr).toBe(0);
    expect(await snapshot(join(runDir(scratch, null), 'out'))).toEqual(whole);
    const faults = faultsFor(clean!.counts);
    expect(faults.length).toBeGreaterThanOrEqual(6);
    const runs = await runPlan(scratch, await Promise.all(faults.map(prepare)));
    for (const [i, fault] of faults.entries()) {
      const dir = runDir(scratch, fault);
      expectOneClearLine(runs[i]!, fault);
      // Every file left is whole (written before the fault) or the one that was there before; no temporaries.
      const left = await snapshot(join(dir, 'out')).catch(() => ({}));
      for (const [path, hash] of Object.entries(left)) {
        const was =
          withPrevious && path === join('units', 'ARMCOM.fbi') ? [whole[path], sha(new TextEncoder().encode(previous))] : [whole[path]];
        expect(was, `${fault}: ${path}`).toContain(hash);
      }
      const source = Object.keys(await snapshot(dir)).find((p) => p.endsWith('.ufo'))!;
      expect(sha(await readFile(join(dir, source))), fault).toBe(sha(archiveBytes));
    }
  }

  it('extract: one line, exit 1, the file that was there stays, no temporary or partial file, the archive unchanged', async () => {
    await withScratch((scratch) =>
      writesIntoFolder(scratch, true, (dir) => ({
        setup: (archive) => writeFile(join(dir, 'archive.ufo'), archive),
        args: ['extract', join(dir, 'archive.ufo'), '-t', join(dir, 'out')],
      })),
    );
  }, 120_000);

  it('mount flatten: the same, for the mount-side extraction of an install', async () => {
    await withScratch((scratch) =>
      writesIntoFolder(scratch, false, (dir) => ({
        setup: async (archive) => {
          await mkdir(join(dir, 'TA'), { recursive: true });
          await writeFile(join(dir, 'TA', 'mod.ufo'), archive);
        },
        args: ['mount', 'flatten', join(dir, 'TA'), join(dir, 'out'), '--game', 'ta'],
      })),
    );
  }, 120_000);
});
