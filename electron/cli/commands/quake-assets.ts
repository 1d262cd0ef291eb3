import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { parseInteger } from '../options.js';
import { CliFailure } from '../errors.js';
import { withAsset, withAssetOptions, type AssetCliOptions } from '../asset-options.js';
import { writeFileAtomically } from '../../io/byte-sink.js';
import { wadLumpType } from '../../services/wad-lump-service.js';
import type { OpenedAsset } from '../../services/asset-service.js';
import { assetDecoderFor } from '../../../shared/assets/registry.js';
import { encodePng } from '../../../shared/assets/png.js';
import { deflateZlib } from '../../io/zlib.js';
import { fail } from '../../../shared/errors.js';
import type { RgbaImage } from '../../../shared/assets/image.js';
import type { AssetView, ImagesView } from '../../../shared/assets/view.js';
import { wadLumpView } from '../../../shared/assets/quake/views.js';
import { bspTextureSizes, countEntities, decodeBsp, lumpCounts } from '../../../shared/assets/quake/bsp.js';

/**
 * `modpak image export` (Quake-family pictures: .lmp .wal .spr .pcx, WAD lumps, BSP textures) and
 * `modpak bsp info|entities`. FILE is a file, an archive with `--entry`, or a path in `--install`.
 */

interface ImageExportOptions extends AssetCliOptions {
  target: string;
  entry?: string;
  mip?: number;
  frame?: number;
}

/** The command group `name`, whichever concern registers it first. */
function group(program: Command, name: string, description: string): Command {
  return program.commands.find((c) => c.name() === name) ?? program.command(name).description(description);
}

async function imagesOf(file: string, asset: OpenedAsset, opts: ImageExportOptions): Promise<ImagesView> {
  const lump = opts.entry && !opts.install ? await wadLumpType(file, opts.entry) : null;
  // The whole path, not just the file's name: where a picture lives can decide how it is drawn (Quake 2's pics/).
  const name = opts.entry ?? file;
  let view: AssetView;
  if (lump) view = await wadLumpView(name, asset.bytes, lump.version, lump.type, asset.context);
  else {
    const decoder = assetDecoderFor(name, asset.bytes.subarray(0, 64));
    if (!decoder)
      fail('unsupported', `${asset.name}: not a picture this command reads (.lmp .wal .spr .pcx .bsp, or a WAD lump with --entry)`);
    view = await decoder.view(name, asset.bytes, asset.context);
  }
  if (view.kind === 'sections') {
    const pictures = view.sections.find((s) => s.view.kind === 'images')?.view;
    if (pictures?.kind === 'images') return pictures;
  }
  if (view.kind !== 'images') fail('unsupported', `${asset.name}: a ${view.format} holds no picture`);
  return view;
}

function pick(view: ImagesView, opts: ImageExportOptions, file: string): RgbaImage {
  let frames = view.groups.flatMap((g) => g.frames);
  if (opts.mip !== undefined) {
    const levels = view.groups.filter((g) => /^mip \d+$/.test(g.name));
    const level = view.groups.find((g) => g.name === `mip ${opts.mip}`);
    if (!level)
      throw new CliFailure(
        file,
        levels.length > 0
          ? `--mip ${opts.mip}: the picture has mip levels 0 to ${levels.length - 1}`
          : `--mip ${opts.mip}: a ${view.format} has no mip levels`,
      );
    frames = level.frames;
  }
  const index = opts.frame ?? 0;
  const frame = frames[index];
  if (!frame)
    throw new CliFailure(
      file,
      frames.length === 0
        ? `${view.format}: no picture to export${view.warnings.length > 0 ? ` (${view.warnings.join('; ')})` : ''}`
        : `--frame ${index}: there are frames 0 to ${frames.length - 1}`,
    );
  return frame.image;
}

export function registerQuakeAssetCommands(program: Command, ctx: CliContext): void {
  const image = group(program, 'image', 'pictures of the games: export to PNG');
  withAssetOptions(
    image
      .command('export')
      .description('write a picture as an RGBA PNG (.lmp .wal .spr .pcx, a WAD lump, a BSP texture); alpha 0 where the game draws nothing')
      .argument('<file>')
      .requiredOption('-t, --target <png>', 'the PNG to write')
      .option('--entry <name>', 'a lump of the WAD, or a file inside the archive, named by FILE')
      .option('--mip <n>', 'the mip level (miptex, WAL)', parseInteger)
      .option('--frame <n>', 'the frame (sprites: counted across groups; BSP: the texture)', parseInteger),
  ).action(async (file: string, opts: ImageExportOptions) => {
    await withAsset(ctx, file, opts, async (asset) => {
      const view = await imagesOf(file, asset, opts);
      const picture = pick(view, opts, file);
      await writeFileAtomically(opts.target, (sink) => sink.write(encodePng(picture, deflateZlib)));
      ctx.stderr.write(
        `wrote ${opts.target}: ${picture.width} × ${picture.height} from ${asset.origin}${view.palette ? `, palette ${view.palette}` : ''}\n`,
      );
    });
  });

  const bsp = group(program, 'bsp', 'BSP maps (Quake 29, Half-Life 30, Quake 2 38, Daikatana 41): textures, entities, lumps');
  const entryOption = '--entry <name>';
  const entryHelp = 'the map inside the archive named by FILE (maps/e1m1.bsp in pak0.pak)';
  withAssetOptions(
    bsp
      .command('info')
      .description('version, textures, entity count and lump counts')
      .argument('<file>')
      .option(entryOption, entryHelp)
      .option('--json', 'print JSON'),
  ).action(async (file: string, opts: AssetCliOptions & { entry?: string; json?: boolean }) => {
    await withAsset(ctx, file, opts, async (asset) => {
      const map = decodeBsp(asset.bytes, asset.name);
      const info = {
        version: map.version,
        textures: await bspTextureSizes(map, (path) => asset.context.readFile(path)),
        entities: countEntities(map.entities),
        lumps: lumpCounts(map),
      };
      for (const w of map.warnings) ctx.warn(w);
      if (opts.json) return ctx.printJson(info);
      ctx.print(`version      ${info.version}`);
      ctx.print(`entities     ${info.entities}`);
      for (const [name, count] of Object.entries(info.lumps)) ctx.print(`${name.padEnd(12)} ${count}`);
      ctx.print(`textures     ${info.textures.length}`);
      for (const t of info.textures) ctx.print(`  ${t.name}${t.width === null ? '' : ` ${t.width} × ${t.height}`}`);
    });
  });
  withAssetOptions(
    bsp.command('entities').description('the entity lump, as text').argument('<file>').option(entryOption, entryHelp),
  ).action(async (file: string, opts: AssetCliOptions & { entry?: string }) => {
    await withAsset(ctx, file, opts, async (asset) => {
      const text = decodeBsp(asset.bytes, asset.name).entities;
      ctx.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    });
  });
}
