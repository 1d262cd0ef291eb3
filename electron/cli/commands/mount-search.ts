import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { collect } from '../options.js';
import { terminalProgress } from '../progress.js';
import { UsageError } from '../errors.js';
import type { InstallService } from '../../services/install-service.js';
import { grepInstall } from '../../services/install-grep.js';
import { checkInstall } from '../../services/install-checks.js';
import { mountGroup, openForCli, withMountOptions, type MountCliOptions } from './mount.js';

/**
 * `modpak mount grep ROOT PATTERN` (search inside the install's text files, winners only) and
 * `modpak mount check ROOT` (the TA sanity checks: duplicate UnitNumber and weapon ID, dangling references).
 */
export function registerMountSearchCommands(program: Command, ctx: CliContext, service: InstallService): void {
  const group = mountGroup(program);
  withMountOptions(group.command('grep'))
    .description("search the text files the game loads (TDF, FBI, CFG, scripts' source) for a regular expression")
    .argument('<root>')
    .argument('<pattern>', 'a JavaScript regular expression')
    .option('-i, --ignore-case', 'case-insensitive')
    .option('-p, --pattern <glob>', 'only paths matching the glob (repeatable)', collect, [])
    .option('--json', 'print JSON: a list of {"path", "archive", "line", "text"}; archive null for a loose file')
    .action(async (root: string, source: string, opts: MountCliOptions & { ignoreCase?: boolean; pattern: string[] }) => {
      let pattern: RegExp;
      try {
        pattern = new RegExp(source, opts.ignoreCase ? 'i' : '');
      } catch (err) {
        throw new UsageError(`not a regular expression: ${(err as Error).message}`);
      }
      const install = await openForCli(ctx, service, root, opts);
      const bar = terminalProgress('grep');
      const result = await grepInstall(install, pattern, { globs: opts.pattern, onProgress: (d, t) => bar.update(d, t) }).finally(() =>
        bar.done(),
      );
      if (opts.json) return ctx.printJson(result.hits);
      for (const hit of result.hits) ctx.print(`${hit.path}:${hit.line}: ${hit.text}   [${hit.archive ?? 'loose'}]`);
      ctx.stderr.write(
        `modpak: ${result.hits.length} matching line${result.hits.length === 1 ? '' : 's'} in ${result.files} text files${result.truncated ? ' (stopped at the limit)' : ''}\n`,
      );
    });

  withMountOptions(group.command('check'))
    .description('the TA sanity checks: duplicate UnitNumber, duplicate weapon ID, FBI references to nothing (exit 0 either way)')
    .argument('<root>')
    .option('--json', 'print JSON: a list of {"kind", "message", "paths"}')
    .action(async (root: string, opts: MountCliOptions) => {
      const problems = await checkInstall(await openForCli(ctx, service, root, opts));
      if (opts.json) return ctx.printJson(problems);
      for (const p of problems) ctx.print(`${p.kind}: ${p.message}`);
      ctx.print(problems.length === 0 ? 'no problems found' : `${problems.length} problem${problems.length === 1 ? '' : 's'}`);
    });
}
