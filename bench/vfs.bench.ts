/**
 * The layered filesystem on a generated full TA install (16 archives, 60,000 entries): cold mount,
 * 100,000 random `resolve` lookups, and `defs units`. The install is generated once under .bench/ and
 * reused while the generator's options stay the same.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateFullInstall } from '../electron/demo/full-install.js';
import { mountInstall } from '../electron/vfs/index.js';
import { figure, scratch, time } from './util.js';

/** Wall time plus this process's CPU time: on a shared, busy machine the second says what the code costs. */
async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; cpu: number; value: T }> {
  const cpu0 = process.cpuUsage();
  const { ms, value } = await time(fn);
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpu: (cpu.user + cpu.system) / 1000, value };
}
const show = (t: { ms: number; cpu: number }) => `${t.ms.toFixed(1)} ms (cpu ${t.cpu.toFixed(0)})`;

const OPTIONS = { archives: 16, entries: 60_000 };
const STAMP = `full-install v1 ${JSON.stringify(OPTIONS)}`;

async function install(): Promise<string> {
  const dir = join(await scratch('vfs'), 'full-ta');
  const stamp = await readFile(join(dir, '.stamp'), 'utf8').catch(() => '');
  if (stamp !== STAMP) {
    await rm(dir, { recursive: true, force: true });
    const made = await time(() => generateFullInstall(dir, OPTIONS));
    await writeFile(join(dir, '.stamp'), STAMP);
    figure('generate the full install (once)', `${(made.ms / 1000).toFixed(1)} s`);
  }
  return dir;
}

export async function run(): Promise<void> {
  const root = await install();
  const mount = await timed(() => mountInstall(root));
  const vfs = mount.value;
  try {
    const stats = vfs.stats();
    figure(`cold mount (${stats.archives} archives, ${stats.entries} entries)`, show(mount), '< 300 ms');
    // Lookups in mixed case with a few misses, as a user types them. The first round runs while the JIT
    // is still compiling resolve(); the second, over other random paths, is the steady state.
    const paths = vfs.tree().paths;
    let seed = 12345;
    const round = () =>
      Array.from({ length: 100_000 }, (_, i) => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        const p = paths[seed % paths.length]!;
        return i % 10 === 0 ? `${p}.missing` : i % 2 ? p.toUpperCase() : p.toLowerCase();
      });
    for (const label of ['100,000 resolves, 1st round', '100,000 resolves, 2nd round']) {
      const queries = round();
      let found = 0;
      const lookups = await timed(() => {
        for (const q of queries) if (vfs.resolve(q).winner) found++;
      });
      figure(`${label} (${found} found)`, show(lookups), '< 50 ms total');
    }
    const defs = await timed(() => vfs.defs('units'));
    figure(`defs units (${defs.value.length} units)`, show(defs), '< 500 ms');
  } finally {
    await vfs.close();
  }
}
