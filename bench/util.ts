import { performance } from 'node:perf_hooks';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateFullInstall } from '../electron/demo/full-install.js';
import { fileURLToPath } from 'node:url';

/** Shared helpers for benchmarks: timing, a scratch folder, and a figure printer. */
export const scratchDir = fileURLToPath(new URL('../.bench/', import.meta.url));

export async function scratch(name: string): Promise<string> {
  const dir = `${scratchDir}${name}`;
  await mkdir(dir, { recursive: true });
  return dir;
}

export async function time<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

export function figure(label: string, value: string, target?: string): void {
  console.log(`${label.padEnd(44)} ${value.padStart(14)}${target ? `   (target ${target})` : ''}`);
}

export const mbps = (bytes: number, ms: number) => `${(bytes / 1048576 / (ms / 1000)).toFixed(1)} MB/s`;

/** Wall time plus this process's CPU time: on a shared, busy machine the second says what the code costs. */
export async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; cpu: number; value: T }> {
  const cpu0 = process.cpuUsage();
  const { ms, value } = await time(fn);
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpu: (cpu.user + cpu.system) / 1000, value };
}

const FULL_INSTALL = { archives: 16, entries: 60_000 };

/**
 * The generated full TA install (16 archives, 60,000 entries) that the vfs and studio benchmarks share:
 * generated once under .bench/ and reused while the generator's options stay the same.
 */
export async function fullInstall(): Promise<string> {
  const stampText = `full-install v1 ${JSON.stringify(FULL_INSTALL)}`;
  const dir = join(await scratch('full-install'), 'ta');
  const stamp = await readFile(join(dir, '.stamp'), 'utf8').catch(() => '');
  if (stamp !== stampText) {
    await rm(dir, { recursive: true, force: true });
    const made = await time(() => generateFullInstall(dir, FULL_INSTALL));
    await writeFile(join(dir, '.stamp'), stampText);
    figure('generate the full install (once)', `${(made.ms / 1000).toFixed(1)} s`);
  }
  return dir;
}

/**
 * The 60,000-entry install of fullInstall whose GAF and 3DO files are the real TA samples
 * (../shared/samples/ta), replicated at the counts of a real install: one anims/ file in 12 a gadget GAF,
 * one textures/ file in 200 a texture GAF, one objects3d/ file in 5 a model; the rest of those folders is
 * opaque `.dat`. Generated once under .bench/ (stored, not compressed: decoding is what it is for).
 */
export async function fullAssetInstall(): Promise<string> {
  const ta = fileURLToPath(new URL('../../shared/samples/ta/', import.meta.url));
  const read = async (path: string) => new Uint8Array(await readFile(join(ta, path)));
  const gadgets = [await read('armimr/anims/ARMIMR_gadget.gaf'), await read('gaf/ta3d_truecolour_cortl_gadget.gaf')];
  const textures = [await read('gaf/Alien.gaf'), await read('armimr/textures/ArmImp.gaf')];
  const models = await Promise.all(
    [
      'armimr/objects3d/ARMIMR.3do',
      'armimr/objects3d/ARMIMR_dead.3do',
      ...['7x7a', 'DEMR', 'armthund', 'cormlk_dead', 'icurock_dead', 'ion4', 'nfadrag', 'screamer'].map((n) => `objects3d/${n}.3do`),
    ].map(read),
  );
  const pick = (list: Uint8Array[], n: number) => list[n % list.length]!;
  const options = {
    ...FULL_INSTALL,
    method: 'none' as const,
    assets: (folder: string, n: number) =>
      folder === 'anims'
        ? n % 12 === 0
          ? pick(gadgets, n / 12)
          : undefined
        : folder === 'textures'
          ? n % 200 === 0
            ? pick(textures, n / 200)
            : undefined
          : n % 5 === 0
            ? pick(models, n / 5)
            : undefined,
  };
  const stampText = `full-asset-install v1 ${JSON.stringify(FULL_INSTALL)}`;
  const dir = join(await scratch('full-asset-install'), 'ta');
  const stamp = await readFile(join(dir, '.stamp'), 'utf8').catch(() => '');
  if (stamp !== stampText) {
    await rm(dir, { recursive: true, force: true });
    const made = await time(() => generateFullInstall(dir, options));
    await writeFile(join(dir, '.stamp'), stampText);
    figure('generate the full asset install (once)', `${(made.ms / 1000).toFixed(1)} s`);
  }
  return dir;
}

/**
 * Two minor collections (scavenges), when the bench runs with --expose-gc as `npm run bench` does: called
 * after a bench builds its inputs, they move those inputs out of the young generation. Otherwise the
 * scavenges that the timed code triggers spend their time copying the bench's own live inputs (100,000
 * fresh query strings: 6-8 ms each), which is the harness's cost, not the code's. Garbage the timed code
 * makes is still collected, and counted, inside the timing. A full collection would do the same but
 * walks the whole heap and leaves the caches cold, which slows what follows.
 */
export function promoteInputs(): void {
  const gc = (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc;
  gc?.({ type: 'minor' });
  gc?.({ type: 'minor' });
}
