import { escapeControls } from '../../../shared/escape.js';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { oneOf } from '../options.js';
import { CliFailure } from '../errors.js';
import { terminalProgress } from '../progress.js';
import { pathMatcher } from '../../services/globs.js';
import { InstallService, type InstallOptions } from '../../services/install-service.js';
import { flattenInstall, type MountedInstall } from '../../vfs/index.js';
import { GAME_IDS, type DefinitionKind, type GameId, type Provider } from '../../../shared/vfs-types.js';

/**
 * `modpak mount …`: the layered filesystem of a game install (mount order, path winners, definition
 * winners, conflicts, flatten). Every subcommand takes --game, --disc DIR and --no-disc.
 *
 * Other concerns add subcommands to the same group: call `mountGroup(program)` (it finds or creates the
 * `mount` command, whichever registers first), then `withMountOptions(group.command('impact') …)` and
 * `installOptionsFrom(opts)` to read the shared options.
 */
export interface MountCliOptions {
  game?: GameId;
  mod?: string;
  /** A folder, or false for --no-disc. */
  disc?: string | false;
  json?: boolean;
}

export function mountGroup(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === 'mount') ??
    program.command('mount').description('the layered filesystem of a game install: mount order, winners, definitions, conflicts, flatten')
  );
}

export function withMountOptions(cmd: Command): Command {
  return cmd
    .option('--game <game>', `the game context: ${GAME_IDS.join('|')} (default: detected from the folder)`, oneOf<GameId>(GAME_IDS))
    .option('--disc <dir>', 'TA: the game disc folder (default: the install folder itself)')
    .option('--no-disc', 'TA: no disc')
    .option('--mod <dir>', 'Quake family, ROOT being the game folder: a mod folder under it, mounted over id1/baseq2/data/valve');
}

export function installOptionsFrom(opts: MountCliOptions): InstallOptions {
  return { game: opts.game, disc: typeof opts.disc === 'string' ? opts.disc : undefined, noDisc: opts.disc === false, mod: opts.mod };
}

/** Open the install named by ROOT; say on stderr which game was chosen when it was detected. */
export async function openForCli(ctx: CliContext, service: InstallService, root: string, opts: MountCliOptions): Promise<MountedInstall> {
  ctx.file = root;
  const install = await service.open(root, installOptionsFrom(opts));
  const because = install.choice.reason;
  if (because) ctx.stderr.write(`modpak: game: ${install.game} (detected: ${escapeControls(because)}; choose with --game)\n`);
  return install;
}

const describeProvider = (p: Provider) => `${p.archive ?? '(loose)'}: ${p.entry} (${p.size} bytes${p.method ? `, ${p.method}` : ''})`;

export function registerMountCommands(program: Command, ctx: CliContext, service = new InstallService()): Command {
  const group = mountGroup(program);

  const open = (root: string, opts: MountCliOptions) => openForCli(ctx, service, root, opts);
  const flushWarnings = (install: MountedInstall) => {
    for (const w of install.warnings) ctx.warn(w);
  };
  const sub = (name: string) => withMountOptions(group.command(name)).exitOverride();

  sub('archives')
    .description('the mount order (highest priority first) and every ignored archive with its reason')
    .argument('<root>')
    .option('--json', 'print JSON')
    .action(async (root: string, opts: MountCliOptions) => {
      const install = await open(root, opts);
      const report = install.report();
      if (opts.json) return ctx.printJson(report);
      ctx.print(`game: ${report.game}`);
      report.mounted.forEach((m, i) =>
        ctx.print(
          `${String(i + 1).padStart(3)}  ${m.stage.padEnd(7)} ${m.root.padEnd(7)} ${m.archive}  (${m.files} file${m.files === 1 ? '' : 's'})`,
        ),
      );
      if (report.ignored.length > 0) ctx.print('ignored:');
      for (const i of report.ignored) ctx.print(`     ${i.root === 'disc' ? 'disc: ' : ''}${i.archive}: ${i.reason}`);
    });

  sub('resolve')
    .description('which file the game loads for PATH, and everything it hides')
    .argument('<root>')
    .argument('<path>')
    .option('--json', 'print JSON')
    .action(async (root: string, path: string, opts: MountCliOptions) => {
      const result = (await open(root, opts)).resolve(path);
      if (opts.json) ctx.printJson(result);
      // A path nothing provides is a failed lookup (exit 1), also with --json (which still prints the answer).
      if (!result.winner) throw new CliFailure(root, `no file ${result.path} in the install`);
      if (opts.json) return;
      ctx.print(`winner:   ${describeProvider(result.winner)}`);
      for (const s of result.shadowed) ctx.print(`shadowed: ${describeProvider(s)}`);
    });

  sub('ls')
    .description('the merged tree: every winning path (or those matching GLOB)')
    .argument('<root>')
    .argument('[glob]')
    .option('--json', 'print JSON')
    .action(async (root: string, glob: string | undefined, opts: MountCliOptions) => {
      const tree = (await open(root, opts)).tree();
      const match = pathMatcher(glob ? [glob] : undefined);
      const rows = [];
      for (let i = 0; i < tree.paths.length; i++) {
        const path = tree.paths[i]!;
        if (!match(path)) continue;
        const w = tree.winners[i]!;
        rows.push({ path, archive: w < 0 ? null : tree.archives[w]!, size: tree.sizes[i]!, layers: tree.layers[i]! });
      }
      if (opts.json) return ctx.printJson(rows);
      for (const r of rows)
        ctx.print(
          `${String(r.size).padStart(10)}  ${(r.archive ?? '(loose)').padEnd(16)} ${r.path}${r.layers > 1 ? `  (+${r.layers - 1} hidden)` : ''}`,
        );
    });

  sub('stats')
    .description('counts: archives, ignored, paths, entries, loose files, shadowed paths, bytes')
    .argument('<root>')
    .option('--json', 'print JSON')
    .action(async (root: string, opts: MountCliOptions) => {
      const stats = (await open(root, opts)).stats();
      if (opts.json) return ctx.printJson(stats);
      for (const [k, v] of Object.entries(stats)) ctx.print(`${k.padEnd(14)} ${v}`);
    });

  sub('defs')
    .description('definition winners (TA rules): units, weapons or features')
    .argument('<root>')
    .argument('<kind>', 'units|weapons|features', oneOf<DefinitionKind>(['units', 'weapons', 'features']))
    .option('--json', 'print JSON')
    .action(async (root: string, kind: DefinitionKind, opts: MountCliOptions) => {
      const install = await open(root, opts);
      const rows = await install.defs(kind);
      flushWarnings(install);
      if (opts.json) return ctx.printJson(rows);
      for (const r of rows) {
        ctx.print(`${r.name.padEnd(24)} ${r.archive ?? '(loose)'}: ${r.file}`);
        for (const s of r.shadowed) ctx.print(`${''.padEnd(24)}   hides ${s.archive ?? '(loose)'}: ${s.file} (by ${s.hiddenBy})`);
      }
    });

  sub('conflicts')
    .description('paths and definition names provided by more than one source, every provider in order')
    .argument('<root>')
    .option('--json', 'print JSON')
    .action(async (root: string, opts: MountCliOptions) => {
      const install = await open(root, opts);
      const report = await install.conflicts();
      flushWarnings(install);
      if (opts.json) return ctx.printJson(report);
      ctx.print(`paths (${report.paths.length}):`);
      for (const p of report.paths) ctx.print(`  ${p.path}: ${p.providers.map((q) => q.archive ?? '(loose)').join(' > ')}`);
      ctx.print(`definitions (${report.definitions.length}):`);
      for (const d of report.definitions)
        ctx.print(`  ${d.kind} ${d.name}: ${d.providers.map((q) => `${q.archive ?? '(loose)'}:${q.file}`).join(' > ')}`);
    });

  sub('flatten')
    .description('write every winning file as a loose file under OUT (a new or empty folder)')
    .argument('<root>')
    .argument('<out>')
    .action(async (root: string, out: string, opts: MountCliOptions) => {
      const install = await open(root, opts);
      ctx.file = out;
      const bar = terminalProgress('flatten');
      try {
        const result = await flattenInstall(install, out, { onProgress: (d, t) => bar.update(d, t), onWarning: (m) => ctx.warn(m) });
        bar.done();
        ctx.stderr.write(
          `flattened ${result.files} files (${result.bytes} bytes) into ${out}${result.refused.length ? `, ${result.refused.length} refused` : ''}\n`,
        );
      } finally {
        bar.done();
      }
    });

  return group;
}
