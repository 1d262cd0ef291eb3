import { Command, CommanderError } from 'commander';
import { makeContext, type CliContext } from './context.js';
import { describeError, UsageError } from './errors.js';
import { escapeControls } from '../../shared/escape.js';
import { registerCommandModules } from './commands/index.js';
import { studioVersion } from '../services/locations.js';
import { keepWorkerBundlesIn as keepWorkerBundles } from '../io/worker-bundle.js';

/**
 * bin/modpak keeps the worker bundles beside the CLI bundle it runs (see io/worker-bundle.ts). A function
 * of this module, not a re-export: in the CommonJS bundle a re-exported function can be called before its
 * module has run, whose start would then put the folder back to none.
 */
export function keepWorkerBundlesIn(dir: URL): void {
  keepWorkerBundles(dir);
}
/** The builder has bin/modpak run this once per bundle, to fill its code cache (see warm-up.ts). */
export { warmUp } from './warm-up.js';

/**
 * The modpak CLI: a thin shell over electron/services. Exit 0 on success, 1 on bad input or a failed
 * operation (one line `modpak: FILE: what is wrong` on stderr), 2 on a usage error.
 * Commander parses arguments (a well-kept library for generic work); every command lives in commands/.
 */
export async function main(argv: string[], io?: Partial<Pick<CliContext, 'stdout' | 'stderr'>>): Promise<number> {
  const ctx = makeContext(io?.stdout ?? process.stdout, io?.stderr ?? process.stderr);
  const program = new Command('modpak')
    .description('Read, write and layer the archives of classic games (HPI/UFO/CCX/GP3, PAK, SiN, Daikatana, Pangya)')
    .version(studioVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
    })
    .showSuggestionAfterError();
  const release = await registerCommandModules(program, ctx, argv);
  for (const sub of program.commands) sub.exitOverride();

  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help' || err.code === 'commander.version') return 0;
      if (err.exitCode === 0) return 0;
      return 2;
    }
    if (err instanceof UsageError) {
      ctx.stderr.write(`modpak: ${escapeControls(err.message)}\n`);
      return 2;
    }
    ctx.stderr.write(escapeControls(describeError(err, ctx.file)) + '\n');
    if (process.env.MODPAK_DEBUG && err instanceof Error) ctx.stderr.write(`${err.stack}\n`);
    return 1;
  } finally {
    await release().catch(() => {});
  }
}
