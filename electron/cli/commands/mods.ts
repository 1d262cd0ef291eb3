import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { parseInteger } from '../options.js';
import { exportWorkspace } from '../../mods/export.js';
import { RepackWatcher } from '../../mods/watch.js';

/**
 * The mod workflow on the command line: `modpak diff` (what a workspace overrides in an install) and
 * `modpak watch` (repack a folder on every change). `modpak mount impact` lives with the mount group.
 */
export function registerModsCommands(program: Command, ctx: CliContext): void {
  program
    .command('watch')
    .description('repack a folder into an archive on every change (debounced; one build at a time; Ctrl-C stops)')
    .argument('<dir>')
    .requiredOption('--target <file>', 'the archive to keep rebuilt (.ufo, .hpi, ...)')
    .option('--debounce <ms>', 'quiet time after the last change before a build', parseInteger, 150)
    .option('--order-from <archive>', 'keep the stored order of this archive for the paths it shares')
    .action(async (dir: string, opts: { target: string; debounce: number; orderFrom?: string }) => {
      ctx.file = dir;
      await runWatch(ctx, { dir, target: opts.target, debounceMs: opts.debounce, orderFrom: opts.orderFrom }, stopSignalFromProcess());
    });
}

/** Resolves on the first SIGINT or SIGTERM (and stops listening). */
function stopSignalFromProcess(): Promise<string> {
  return new Promise((stop) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      stop(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

export interface WatchCommandOptions {
  dir: string;
  target: string;
  debounceMs: number;
  orderFrom?: string;
}

/** Watch until `stop` resolves, printing one line per build; the watcher is closed (awaited) before returning. */
export async function runWatch(ctx: CliContext, options: WatchCommandOptions, stop: Promise<unknown>): Promise<void> {
  const watcher = await RepackWatcher.start({
    dir: options.dir,
    target: options.target,
    debounceMs: options.debounceMs,
    build: () => exportWorkspace({ dir: options.dir, target: options.target, orderFrom: options.orderFrom, onWarning: (m) => ctx.warn(m) }),
    onLog: (line) => ctx.print(`${new Date().toISOString().slice(11, 23)} ${line}`),
  });
  ctx.stderr.write(`watching ${options.dir} → ${options.target} (debounce ${options.debounceMs} ms); Ctrl-C to stop\n`);
  await stop;
  await watcher.close();
  ctx.stderr.write('stopped watching\n');
}
