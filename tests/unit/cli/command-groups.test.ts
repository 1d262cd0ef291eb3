import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_GROUPS, commandOf, registerCommandModules } from '../../../electron/cli/commands/index.js';
import { makeContext } from '../../../electron/cli/context.js';
import { PassThrough } from 'node:stream';

/**
 * A start registers only the command groups of the command it runs (commands/index.ts): the table that
 * says which group registers which top-level command must be exact, or a command would go missing.
 */

const ctx = () => makeContext(new PassThrough(), new PassThrough());
const names = (program: Command) => program.commands.map((c) => c.name());

/** The program with what `argv` loads; its subcommands' names, by top-level command. */
async function loaded(argv: string[]): Promise<Map<string, string[]>> {
  const program = new Command('modpak');
  const release = await registerCommandModules(program, ctx(), argv);
  await release();
  return new Map(program.commands.map((c) => [c.name(), names(c)]));
}

describe('command groups', () => {
  it('each group registers exactly the top-level commands the table gives it', async () => {
    for (const group of COMMAND_GROUPS) {
      const program = new Command('modpak');
      (await group.register({}))(program, ctx());
      expect(names(program).sort(), group.commands.join(',')).toEqual([...new Set(group.commands)].sort());
    }
  });

  it('a command line loads every subcommand its command has with all groups loaded', async () => {
    const all = await loaded([]);
    const tops = [...all.keys()];
    expect(tops).toEqual(expect.arrayContaining(['info', 'extract', 'pack', 'mount', 'diff', 'serve', 'tnt', 'image', 'mcp']));
    for (const top of tops) {
      const some = await loaded([top, 'x']);
      expect(some.get(top), top).toEqual(all.get(top));
      // Only its groups: `info` does not load the mount, mods or MCP commands.
      if (top === 'info') expect([...some.keys()]).toEqual(['info', 'list', 'extract', 'cat', 'verify', 'pack']);
    }
  });

  it('every command that writes a --target takes it as -t too', async () => {
    const program = new Command('modpak');
    const release = await registerCommandModules(program, ctx(), []);
    await release();
    const walk = (c: Command, path: string): [string, string | undefined][] => [
      ...c.options.filter((o) => o.long === '--target').map((o): [string, string | undefined] => [path, o.short]),
      ...c.commands.flatMap((sub) => walk(sub, `${path} ${sub.name()}`.trim())),
    ];
    const targets = walk(program, '');
    expect(targets.map(([path]) => path)).toEqual(
      expect.arrayContaining(['extract', 'pack', 'watch', 'image export', 'pal swatch', 'tnt render']),
    );
    expect(targets.filter(([, short]) => short !== '-t')).toEqual([]);
  });

  it('help, no command and an unknown word load every group (for the list and the suggestions)', async () => {
    const all = [...(await loaded([])).keys()];
    expect([...(await loaded(['help'])).keys()]).toEqual(all);
    expect([...(await loaded(['--help'])).keys()]).toEqual(all);
    expect([...(await loaded(['inf', 'x.hpi'])).keys()]).toEqual(all);
  });

  it('--version alone loads no group, and prints the same version as with every group loaded', async () => {
    expect([...(await loaded(['--version'])).keys()]).toEqual([]);
    expect([...(await loaded(['-V'])).keys()]).toEqual([]);
    // Anything more (help, a command) still loads what it needs.
    const all = [...(await loaded([])).keys()];
    expect([...(await loaded(['--version', '--help'])).keys()]).toEqual(all);
    expect([...(await loaded(['-V', 'info', 'x'])).keys()]).toEqual(['info', 'list', 'extract', 'cat', 'verify', 'pack']);
    const { main } = await import('../../../electron/cli/main.js');
    const { studioVersion } = await import('../../../electron/services/locations.js');
    for (const flag of ['--version', '-V']) {
      const out = new PassThrough();
      const chunks: Buffer[] = [];
      out.on('data', (c: Buffer) => chunks.push(c));
      expect(await main([flag], { stdout: out, stderr: new PassThrough() })).toBe(0);
      expect(Buffer.concat(chunks).toString()).toBe(`${studioVersion()}\n`);
    }
  });

  it('the command is the first word that is not an option', () => {
    expect(commandOf(['--json', 'info', 'x'])).toBe('info');
    expect(commandOf(['-V'])).toBeUndefined();
    expect(commandOf([])).toBeUndefined();
  });
});
