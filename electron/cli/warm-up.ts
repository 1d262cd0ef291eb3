import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { main } from './main.js';

/**
 * The commands a user waits on most, run once on a few small archives of every format, so that the
 * code they compile is in the code cache bin/modpak keeps beside the bundle (it writes the cache after
 * this run). The builder runs it once per bundle; V8 then starts those commands without compiling them.
 */
const FORMATS: readonly { name: string; pack: string[] }[] = [
  { name: 'a.hpi', pack: ['--method', 'lz77'] },
  { name: 'z.hpi', pack: ['--method', 'zlib'] },
  { name: 'q.pak', pack: ['--format', 'pak'] },
  { name: 'd.pak', pack: ['--format', 'daikatana'] },
  { name: 'p.pak', pack: ['--format', 'pangya'] },
];

/** Runs the commands; returns the exit codes that were not 0 (none, when every command ran as it should). */
export async function warmUp(run: typeof main): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'modpak-warm-up-'));
  const sink = () =>
    new Writable({
      write: (_chunk, _encoding, done) => done(),
    });
  const failed: string[] = [];
  const command = async (args: string[]) => {
    const code = await run(args, { stdout: sink(), stderr: sink() });
    if (code !== 0) failed.push(`${args[0]} ${code}`);
  };
  try {
    const src = join(dir, 'src');
    await mkdir(join(src, 'units'), { recursive: true });
    await writeFile(join(src, 'units', 'armcom.fbi'), '[UNITINFO]\n{\n\tUnitName=ARMCOM;\n}\n'.repeat(40));
    await writeFile(join(src, 'maps.bsp'), Buffer.alloc(20_000, 7));
    await writeFile(join(src, 'readme.txt'), 'warm-up\n');
    for (const format of FORMATS) {
      const archive = join(dir, format.name);
      await command(['pack', src, '--target', archive, ...format.pack]);
      await command(['info', archive]);
      await command(['list', archive]);
      await command(['verify', archive]);
      await command(['extract', archive, '-t', join(dir, `out-${format.name}`)]);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return failed;
}
