import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { collect } from '../options.js';
import { withAssetOptions, type AssetCliOptions } from '../asset-options.js';
import { compileBosAsset, decompileCob, readAssetBytes, readCobInfo, writeCobFile } from '../../services/cob-service.js';

/**
 * The bytes of FILE. A file on disk is named by the one-line error if it cannot be read; an install's
 * messages and the decoder's already name it, so the error line is not given it twice.
 */
async function cobBytes(ctx: CliContext, file: string, opts: AssetCliOptions): Promise<Uint8Array> {
  ctx.file = opts.install ? null : file;
  const bytes = await readAssetBytes(file, opts);
  ctx.file = null;
  return bytes;
}

/** `modpak cob info|decompile|compile`: TA unit scripts. */
export function registerCobCommands(program: Command, ctx: CliContext): void {
  const cob = program.command('cob').description('TA unit scripts (COB): what they hold, BOS source, compile BOS');

  withAssetOptions(
    cob
      .command('info')
      .description('version, scripts in file order, pieces, static variables (and sounds for TA:Kingdoms)')
      .argument('<file>')
      .option('--json', 'print JSON'),
  ).action(async (file: string, opts: AssetCliOptions & { json?: boolean }) => {
    const info = readCobInfo(await cobBytes(ctx, file, opts), file);
    if (opts.json) return ctx.printJson(info);
    ctx.print(`version      ${info.version}`);
    ctx.print(`scripts      ${info.scripts.length}: ${info.scripts.join(', ')}`);
    ctx.print(`pieces       ${info.pieces.length}: ${info.pieces.join(', ')}`);
    ctx.print(`static vars  ${info.staticVars}`);
    if (info.sounds) ctx.print(`sounds       ${info.sounds.length}: ${info.sounds.join(', ')}`);
  });

  withAssetOptions(cob.command('decompile').description('print the BOS source of a COB').argument('<file>')).action(
    async (file: string, opts: AssetCliOptions) => {
      ctx.stdout.write(decompileCob(await cobBytes(ctx, file, opts), file));
    },
  );

  withAssetOptions(
    cob
      .command('compile')
      .description('compile BOS to a COB (includes from the BOS folder, then each -I folder)')
      .argument('<file>')
      .requiredOption('-t, --target <out>', 'the COB to write')
      .option('-I, --include <dir>', 'a folder to look for #include files in (repeatable)', collect, []),
  ).action(async (file: string, opts: AssetCliOptions & { target: string; include: string[] }) => {
    // Compile errors name their own file and line (FILE:LINE: message); a missing FILE is named by its path.
    ctx.file = null;
    const bytes = await compileBosAsset(file, { ...opts, includeDirs: opts.include });
    ctx.file = opts.target;
    await writeCobFile(opts.target, bytes);
  });
}
