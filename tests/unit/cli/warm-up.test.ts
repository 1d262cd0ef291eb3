import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { main } from '../../../electron/cli/main.js';
import { warmUp } from '../../../electron/cli/warm-up.js';

/**
 * The builder fills the bundle's code cache by running warmUp once: every command in it must run as a
 * user's would (a failing one would leave its code out of the cache, and say so at every rebuild).
 */
describe('the code cache warm-up', () => {
  it('packs, reads, verifies and extracts an archive of every format without a failure, and leaves nothing behind', async () => {
    const commands: string[][] = [];
    const failed = await warmUp((argv, io) => {
      commands.push(argv);
      return main(argv, io);
    });
    expect(failed).toEqual([]);
    expect(new Set(commands.map((c) => c[0]))).toEqual(new Set(['pack', 'info', 'list', 'verify', 'extract']));
    expect(commands.filter((c) => c[0] === 'pack')).toHaveLength(5);
    // Its scratch folder (where the first pack read its files) is gone.
    const scratch = dirname(commands[0]![1]!);
    expect(scratch.startsWith(tmpdir())).toBe(true);
    expect(existsSync(scratch)).toBe(false);
  });

  it('reports a command that fails, by name and exit code', async () => {
    const failed = await warmUp(async (argv) => (argv[0] === 'verify' ? 1 : 0));
    expect(failed).toEqual(Array(5).fill('verify 1'));
  });
});
