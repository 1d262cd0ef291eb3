import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import type { InstallService } from '../../services/install-service.js';

/** What command groups share: one InstallService (mount, grep, tnt), made by the first group that needs it. */
export interface GroupDeps {
  installs?: InstallService;
}

async function installs(deps: GroupDeps): Promise<InstallService> {
  const { InstallService } = await import('../../services/install-service.js');
  return (deps.installs ??= new InstallService());
}

/**
 * The command groups and the top-level commands each registers. A start loads only the groups of the
 * command it runs (and each group imports its services only when a command runs), so `modpak info`
 * does not compile the mount, mods, model or MCP code; help, a mistyped command or no command load all,
 * for the full list and commander's suggestions. Groups register in this order whatever is loaded, so
 * shared groups (`mount`, `image`) get the same subcommands in the same order. When a group arrives, add
 * a line; tests/unit/cli/command-groups.test.ts checks the names against what each group registers.
 */
export const COMMAND_GROUPS: readonly {
  commands: readonly string[];
  register(deps: GroupDeps): Promise<(program: Command, ctx: CliContext) => void>;
}[] = [
  {
    commands: ['info', 'list', 'extract', 'cat', 'verify', 'pack'],
    register: async () => (await import('./archive.js')).registerArchiveCommands,
  },
  {
    commands: ['mount'],
    register: async (deps) => {
      const shared = await installs(deps);
      const { registerMountCommands } = await import('./mount.js');
      return (program, ctx) => registerMountCommands(program, ctx, shared);
    },
  },
  {
    commands: ['mount'],
    register: async (deps) => {
      const shared = await installs(deps);
      const { registerMountSearchCommands } = await import('./mount-search.js');
      return (program, ctx) => registerMountSearchCommands(program, ctx, shared);
    },
  },
  { commands: ['mount', 'override', 'diff', 'watch'], register: async () => (await import('./mods.js')).registerModsCommands },
  { commands: ['serve', 'studio'], register: async () => (await import('./studio.js')).registerStudioCommands },
  { commands: ['3do', 'model'], register: async () => (await import('./models.js')).registerModelCommands },
  { commands: ['gaf', 'pal'], register: async () => (await import('./ta-assets.js')).registerTaAssetCommands },
  { commands: ['image', 'bsp'], register: async () => (await import('./quake-assets.js')).registerQuakeAssetCommands },
  { commands: ['mcp'], register: async () => (await import('./mcp.js')).registerMcpCommand },
  { commands: ['cob'], register: async () => (await import('./cob.js')).registerCobCommands },
  {
    commands: ['tnt'],
    register: async (deps) => {
      const shared = await installs(deps);
      const { registerTntCommands } = await import('./tnt.js');
      return (program, ctx) => registerTntCommands(program, ctx, shared);
    },
  },
];

/** The command a command line runs: its first word that is not an option (`modpak --json info x` → info). */
export function commandOf(argv: readonly string[]): string | undefined {
  return argv.find((a) => !a.startsWith('-'));
}

/** Options that print and end before commander looks for a command: a command line of only these loads no group. */
const WITHOUT_COMMANDS = new Set(['-V', '--version']);

/**
 * Registers the groups `argv` needs (all of them when its command is none of theirs, none for `--version`
 * alone: it printed the version after loading every command, 0.2 s where 0.1 s is enough). Returns what
 * releases their resources (mounted installs keep their archives open) once the command ends, which
 * matters when the CLI runs in-process (tests, the studio's host) rather than as its own process.
 */
export async function registerCommandModules(program: Command, ctx: CliContext, argv: readonly string[]): Promise<() => Promise<void>> {
  const name = commandOf(argv);
  const versionOnly = argv.length > 0 && argv.every((a) => WITHOUT_COMMANDS.has(a));
  const wanted = versionOnly
    ? []
    : COMMAND_GROUPS.some((g) => name !== undefined && g.commands.includes(name))
      ? COMMAND_GROUPS.filter((g) => name !== undefined && g.commands.includes(name))
      : COMMAND_GROUPS;
  const deps: GroupDeps = {};
  const registrations = await Promise.all(wanted.map((g) => g.register(deps)));
  for (const register of registrations) register(program, ctx);
  return async () => {
    await deps.installs?.closeAll();
  };
}
