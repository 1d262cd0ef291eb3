import type { Command } from 'commander';
import { stat } from 'node:fs/promises';
import { fail } from '../../../shared/errors.js';
import type { CliContext } from '../context.js';
import { oneOf, parseInteger } from '../options.js';
import { repackBuilder } from '../../mods/export.js';
import { RepackWatcher } from '../../mods/watch.js';
import { describeTdfChange } from '../../mods/tdf-diff.js';
import { ModsService } from '../../services/mods-service.js';
import { GAME_IDS, type GameId } from '../../../shared/vfs-types.js';
import type { ExportImpact, OverrideDiff } from '../../../shared/mods-types.js';
import { installOptionsFrom, mountGroup, withMountOptions, type MountCliOptions } from './mount.js';

/**
 * The mod workflow on the command line: `modpak diff` (what a workspace overrides in an install) and
 * `modpak watch` (repack a folder on every change). `modpak mount impact` lives with the mount group.
 */
export function registerModsCommands(program: Command, ctx: CliContext): void {
  withMountOptions(mountGroup(program).command('impact'))
    .exitOverride()
    .description('what adding ARCHIVE (or a mod folder, packed first) to the top of the install would change, before writing it')
    .argument('<root>')
    .argument('<archive>', 'an archive, or a mod folder')
    .option('--as <name>', 'for a folder: the file name it would be exported as (default: the folder name + .ufo)')
    .option('--json', 'print JSON')
    .action(async (root: string, archive: string, opts: MountCliOptions & { as?: string }) => {
      ctx.file = archive;
      const impact = await new ModsService().impact(root, archive, { ...installOptionsFrom(opts), name: opts.as });
      if (opts.json) return ctx.printJson(impact);
      printImpact(ctx, impact);
    });

  program
    .command('override')
    .description("copy the install's winning file of each PATH into the mod folder at the same path (never over a file already there)")
    .argument('<moddir>')
    .argument('<root>', 'the game install')
    .argument('<paths...>')
    .option('--game <game>', `the game context (${GAME_IDS.join('|')}; default: detected)`, oneOf<GameId>(GAME_IDS))
    .action(async (moddir: string, root: string, paths: string[], opts: { game?: GameId }) => {
      ctx.file = moddir;
      const service = new ModsService();
      for (const path of paths) {
        const done = await service.override(moddir, root, path, opts.game);
        ctx.print(`${done.path}  (from ${done.from ?? 'a loose file'})`);
      }
    });

  program
    .command('diff')
    .description('what a mod folder overrides in an install: added/modified/same, the file it shadows, and the change')
    .argument('<moddir>')
    .argument('<root>', 'the game install')
    .option('--game <game>', `the game context (${GAME_IDS.join('|')}; default: detected)`, oneOf<GameId>(GAME_IDS))
    .option(
      '--except <archive>',
      "compare with the install without this archive (the mod's own export; default: its last export into ROOT)",
    )
    .option('--json', 'print JSON: [{path, status, base, diff}]')
    .action(async (moddir: string, root: string, opts: { game?: GameId; except?: string; json?: boolean }) => {
      ctx.file = moddir;
      const diffs = await new ModsService().diff(moddir, root, opts.game, opts.except);
      if (opts.json) return ctx.printJson(diffs);
      for (const d of diffs) printDiff(ctx, d);
      const count = (s: OverrideDiff['status']) => diffs.filter((d) => d.status === s).length;
      ctx.print(`${diffs.length} files: ${count('modified')} modified, ${count('added')} added, ${count('same')} same`);
    });

  program
    .command('watch')
    .description('repack a folder into an archive on every change (debounced; one build at a time; Ctrl-C stops)')
    .argument('<dir>')
    .requiredOption('-t, --target <file>', 'the archive to keep rebuilt (.ufo, .hpi, ...)')
    .option('--debounce <ms>', 'quiet time after the last change before a build', parseInteger, 150)
    .option('--order-from <archive>', 'keep the stored order of this archive for the paths it shares')
    .action(async (dir: string, opts: { target: string; debounce: number; orderFrom?: string }) => {
      ctx.file = dir;
      await runWatch(ctx, { dir, target: opts.target, debounceMs: opts.debounce, orderFrom: opts.orderFrom }, stopSignalFromProcess);
    });
}

function printImpact(ctx: CliContext, i: ExportImpact): void {
  if (i.rank < 0) {
    ctx.print(`${i.archive}: would not be mounted: ${i.ignoredReason ?? 'ignored'}`);
    return;
  }
  ctx.print(`${i.archive}: rank ${i.rank} in the mount order, stage ${i.stage}${i.replaces ? `, replacing ${i.replaces}` : ''}`);
  if (i.pushesOut) ctx.print(`pushes ${i.pushesOut} out of the ten *.hpi slots`);
  ctx.print(
    `wins ${i.wins.length} paths (${i.wins.filter((w) => w.over !== null).length} over another archive), ${i.hidden.length} hidden`,
  );
  for (const h of i.hidden) ctx.print(`  hidden: ${h.path} by ${h.by ?? 'a loose file'}`);
  for (const d of i.definitions)
    ctx.print(
      `  ${d.kind} ${d.name}: ${d.outcome}${d.against ? ` ${d.outcome === 'wins' ? 'over' : 'to'} ${d.against}` : d.outcome === 'wins' ? ' (new)' : ''}`,
    );
}

function printDiff(ctx: CliContext, d: OverrideDiff): void {
  const base = d.base ? `  (shadows ${d.base.archive ?? 'loose file'}: ${d.base.entry})` : '  (new path)';
  ctx.print(`${d.status.padEnd(8)} ${d.path}${base}`);
  if (!d.diff) return;
  if (d.diff.kind === 'binary') {
    const b = d.diff.before;
    ctx.print(
      `    ${b ? `${b.size} bytes sha256 ${b.sha256.slice(0, 16)}…` : 'nothing'} → ${d.diff.after.size} bytes sha256 ${d.diff.after.sha256.slice(0, 16)}…`,
    );
  } else if (d.diff.tdf && d.diff.tdf.length > 0) {
    for (const c of d.diff.tdf) ctx.print(`    ${describeTdfChange(c)}`);
  } else {
    for (const line of d.diff.unified.replace(/\n$/, '').split('\n')) ctx.print(`    ${line.replace(/\r$/, '')}`);
  }
}

/** Resolves on the first SIGINT or SIGTERM; `dispose` stops listening (so a failed start leaks no handler). */
function stopSignalFromProcess(): { stopped: Promise<string>; dispose(): void } {
  let onSignal: (signal: NodeJS.Signals) => void = () => {};
  const stopped = new Promise<string>((stop) => {
    onSignal = (signal) => stop(signal);
  });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    stopped,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

export interface WatchCommandOptions {
  dir: string;
  target: string;
  debounceMs: number;
  orderFrom?: string;
}

/** Watch until `stop` resolves, printing one line per build; the watcher is closed (awaited) before returning. */
export async function runWatch(
  ctx: CliContext,
  options: WatchCommandOptions,
  until: () => { stopped: Promise<unknown>; dispose(): void },
): Promise<void> {
  // A typo in DIR fails at once rather than watching a folder that does not exist.
  if (!(await stat(options.dir).catch(() => null))?.isDirectory()) fail('not-found', 'not a folder');
  const stop = until();
  try {
    const watcher = await RepackWatcher.start({
      dir: options.dir,
      target: options.target,
      debounceMs: options.debounceMs,
      build: repackBuilder({ dir: options.dir, target: options.target, orderFrom: options.orderFrom, onWarning: (m) => ctx.warn(m) }),
      onLog: (line) => ctx.print(`${new Date().toISOString().slice(11, 23)} ${line}`),
    });
    ctx.stderr.write(`watching ${options.dir} → ${options.target} (debounce ${options.debounceMs} ms); Ctrl-C to stop\n`);
    await stop.stopped;
    await watcher.close();
    ctx.stderr.write('stopped watching\n');
  } finally {
    stop.dispose();
  }
}
