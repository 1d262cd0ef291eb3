import type { Command } from 'commander';
import { oneOf } from './options.js';
import { GAME_IDS, type GameId } from '../../shared/vfs-types.js';
import { openAsset, type OpenedAsset } from '../services/asset-service.js';
import type { CliContext } from './context.js';

/**
 * The options every asset command takes (`gaf`, `3do`, `cob`, `tnt`, `pal`, `image`, `model`, `bsp`):
 * `--install ROOT` makes FILE a path in that install's layered filesystem (the winner), and palettes and
 * textures then come from the same install; `--palette FILE` overrides the palette.
 */
export interface AssetCliOptions {
  install?: string;
  game?: GameId;
  mod?: string;
  palette?: string;
}

export function withAssetOptions(cmd: Command): Command {
  return cmd
    .option('--install <root>', 'FILE is a path in this game install (its winner); palettes and textures come from it')
    .option('--game <game>', `with --install: the game (${GAME_IDS.join('|')}; default: detected)`, oneOf<GameId>(GAME_IDS))
    .option('--mod <dir>', 'with --install: a mod folder under the root, mounted over the game')
    .option('--palette <file>', 'the palette to use (PALETTE.PAL, palette.lmp or a 256-colour PCX)');
}

/**
 * Open FILE as the options say, run `fn`, close what was opened. The one-line error names FILE.
 */
export async function withAsset<T>(
  ctx: CliContext,
  file: string,
  opts: AssetCliOptions & { entry?: string },
  fn: (asset: OpenedAsset) => Promise<T>,
): Promise<T> {
  ctx.file = file;
  const asset = await openAsset(file, { install: opts.install, game: opts.game, mod: opts.mod, palette: opts.palette, entry: opts.entry });
  try {
    return await fn(asset);
  } finally {
    await asset.close();
  }
}
