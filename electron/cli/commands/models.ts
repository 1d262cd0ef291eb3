import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { parseInteger } from '../options.js';
import { UsageError } from '../errors.js';
import { withAsset, withAssetOptions, type AssetCliOptions } from '../asset-options.js';
import { export3do, exportModel, modelAssetInfo, threeDoAssetInfo, type ExportKind } from '../../services/model-service.js';

/** `modpak 3do info|export` and `modpak model info|export` (Quake MDL, Quake 2 MD2, Daikatana DKM). */

type Options = AssetCliOptions & { json?: boolean; target?: string; frame?: number };

function withSourceOptions(command: Command): Command {
  return withAssetOptions(command).exitOverride();
}

function exportKind(target: string, allowed: ExportKind[]): ExportKind {
  const kind = target.toLowerCase().endsWith('.glb') ? 'glb' : target.toLowerCase().endsWith('.obj') ? 'obj' : null;
  if (!kind || !allowed.includes(kind)) throw new UsageError(`--target must end in ${allowed.map((k) => `.${k}`).join(' or ')}: ${target}`);
  return kind;
}

function reportExport(ctx: CliContext, result: { files: string[]; triangles: number; missingTextures: string[] }): void {
  if (result.missingTextures.length > 0) ctx.warn(`textures not found: ${result.missingTextures.join(', ')}`);
  ctx.stderr.write(`wrote ${result.files.join(', ')} (${result.triangles} triangles)\n`);
}

export function registerModelCommands(program: Command, ctx: CliContext): void {
  const threeDo = program.command('3do').description('Total Annihilation 3DO models: pieces, textures, export to glTF/OBJ');
  withSourceOptions(threeDo.command('info'))
    .description('the piece tree (depth-first), offsets, vertex and primitive counts, textures')
    .argument('<file>')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: Options) => {
      const info = await withAsset(ctx, file, opts, async (asset) => threeDoAssetInfo(asset));
      if (opts.json) return ctx.printJson(info);
      const depth = info.pieces.map(() => 0);
      info.pieces.forEach((p, i) => {
        const parent =
          p.parent === null
            ? -1
            : info.pieces
                .slice(0, i)
                .map((q) => q.name)
                .lastIndexOf(p.parent);
        depth[i] = parent < 0 ? 0 : depth[parent]! + 1;
        ctx.print(`${'  '.repeat(depth[i]!)}${p.name}  offset ${p.offset.join(', ')}  ${p.vertices} vertices, ${p.primitives} primitives`);
      });
      ctx.print(`textures: ${info.textures.join(', ') || '(none)'}`);
    });
  withSourceOptions(threeDo.command('export'))
    .description('write the model as binary glTF (.glb) or OBJ + MTL (.obj), textured from the install with --install')
    .argument('<file>')
    .requiredOption('-t, --target <out>', 'OUT.glb or OUT.obj')
    .action(async (file: string, opts: Options & { target: string }) => {
      const kind = exportKind(opts.target, ['glb', 'obj']);
      reportExport(ctx, await withAsset(ctx, file, opts, (asset) => export3do(asset, opts.target, kind)));
    });

  const model = program.command('model').description('Quake MDL, Quake 2 MD2 and Daikatana DKM models: counts, export to glTF');
  withSourceOptions(model.command('info'))
    .description('format, skins, frames, vertices, triangles (as the header counts them)')
    .argument('<file>')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: Options) => {
      const info = await withAsset(ctx, file, opts, async (asset) => modelAssetInfo(asset));
      if (opts.json) return ctx.printJson(info);
      for (const [key, value] of Object.entries(info)) ctx.print(`${key.padEnd(10)} ${value}`);
    });
  withSourceOptions(model.command('export'))
    .description('write the model at one animation frame as binary glTF (.glb)')
    .argument('<file>')
    .requiredOption('-t, --target <out>', 'OUT.glb')
    .option('--frame <n>', 'the animation frame (from 0)', parseInteger)
    .action(async (file: string, opts: Options & { target: string }) => {
      exportKind(opts.target, ['glb']);
      reportExport(ctx, await withAsset(ctx, file, opts, (asset) => exportModel(asset, opts.target, opts.frame ?? 0)));
    });
}
