import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import picomatch from 'picomatch';
import { fail } from '../../shared/errors.js';
import type { GameId } from '../../shared/vfs-types.js';
import type { Palette } from '../../shared/assets/image.js';
import type { AssetContext, PaletteGame } from '../../shared/assets/registry.js';
import { builtInPalettes, paletteFromFile } from '../../shared/assets/palettes.js';
import { PALETTE_PATHS } from '../vfs/rules/palettes.js';
import { catEntry, withArchive } from './archive-service.js';
import { pathKey } from '../../shared/paths.js';
import { InstallService } from './install-service.js';

/**
 * Where an asset's bytes come from, for the CLI's asset commands (`gaf`, `3do`, `cob`, `tnt`, `pal`,
 * `image`, `model`, `bsp`) and the studio's previews: a file on disk, an entry inside an archive, or a path
 * in an install's layered filesystem (the winner, or a given provider). The AssetContext it hands the
 * decoders resolves palettes and sister files through the same install, so a mod's palette or texture wins
 * exactly as it does in the game.
 */

export interface AssetSourceOptions {
  /** An install root: the file is then a path in its layered filesystem. */
  install?: string;
  game?: GameId;
  /** A mod folder under the root (Quake family), mounted over the base game. */
  mod?: string;
  /** A file inside the archive (or WAD) named by the file argument. */
  entry?: string;
  /** With `install`: read this provider instead of the winner (null = the loose file). */
  archive?: string | null;
  /** A palette file that overrides the install's and the built-in one. */
  palette?: string;
  /**
   * With `entry`: an install whose files stand under the archive's own, for the palettes and sister files
   * (textures, the .ota) the archive lacks (the studio passes the install it has open).
   */
  under?: AssetInstall;
}

export interface OpenedAsset {
  /** The file's own name, for choosing a decoder and for messages. */
  name: string;
  bytes: Uint8Array;
  /** Where the bytes came from, as said to the user ("units/ARMCOM.FBI from totala1.hpi"). */
  origin: string;
  context: AssetContext;
  close(): Promise<void>;
}

/** The subset of a mounted install the asset context needs. */
export interface AssetInstall {
  resolve(path: string): { winner: { archive: string | null } | null };
  read(path: string, archive?: string | null): Promise<Uint8Array>;
  tree(): { paths: string[] };
}

const describe = (path: string, archive: string | null) => `${path} from ${archive ?? 'a loose file'}`;

/** An AssetContext over a mounted install (or none), with an optional palette that overrides all others. */
export function assetContext(install: AssetInstall | null, override: Palette | null = null): AssetContext {
  let paths: string[] | null = null;
  const palettes = new Map<PaletteGame, Promise<Palette>>();
  const fromInstall = async (game: PaletteGame): Promise<Palette> => {
    const path = PALETTE_PATHS[game];
    const winner = install?.resolve(path).winner;
    if (install && winner) return paletteFromFile(describe(path, winner.archive), await install.read(path));
    const builtIn = builtInPalettes[game];
    if (builtIn) return builtIn();
    return fail('not-found', `no ${path} ${install ? 'in the install' : 'without an install'}: name one with --palette or --install`);
  };
  return {
    palette(game) {
      if (override) return Promise.resolve(override);
      let found = palettes.get(game);
      if (!found) palettes.set(game, (found = fromInstall(game)));
      return found;
    },
    async readFile(path) {
      if (!install || !install.resolve(path).winner) return null;
      return install.read(path);
    },
    async list(glob) {
      if (!install) return [];
      paths ??= install.tree().paths;
      const match = picomatch(glob, { nocase: true, dot: true });
      return paths.filter((p) => match(p));
    },
  };
}

/**
 * Open an asset as the options say. `installs` is the caller's install cache (the studio's, so a preview
 * does not mount again); without one, a mount made here is closed by `close()`.
 */
export async function openAsset(file: string, options: AssetSourceOptions = {}, installs?: InstallService): Promise<OpenedAsset> {
  const override = options.palette ? paletteFromFile(basename(options.palette), new Uint8Array(await readFile(options.palette))) : null;
  if (options.install) {
    const service = installs ?? new InstallService();
    const install = await service.open(options.install, { game: options.game, ...(options.mod ? { mod: options.mod } : {}) });
    const close = installs ? async () => {} : () => service.closeAll();
    try {
      const found = install.resolve(file);
      if (!found.winner) fail('not-found', `${file}: no such file in the install`);
      const archive = options.archive === undefined ? found.winner.archive : options.archive;
      const bytes = await install.read(file, archive);
      return { name: basename(file), bytes, origin: describe(file, archive), context: assetContext(install, override), close };
    } catch (error) {
      await close();
      throw error;
    }
  }
  if (options.entry) {
    const bytes = await catEntry(file, options.entry);
    const own = await archiveAsInstall(file);
    const context = assetContext(options.under ? stackedInstall(own, options.under) : own, override);
    return { name: basename(options.entry), bytes, origin: `${options.entry} in ${basename(file)}`, context, close: async () => {} };
  }
  const bytes = new Uint8Array(await readFile(resolve(file)));
  return { name: basename(file), bytes, origin: file, context: assetContext(null, override), close: async () => {} };
}

/**
 * An archive's own files as an AssetInstall, so a picture inside it takes the archive's palette (a Quake
 * pak0.pak holds gfx/palette.lmp) and a model its textures, as the game would with that archive alone.
 */
async function archiveAsInstall(file: string): Promise<AssetInstall> {
  const paths = await withArchive(file, async (archive) => archive.entries.filter((e) => !e.dir).map((e) => e.path));
  const byKey = new Map(paths.map((p) => [pathKey(p), p]));
  const name = basename(file);
  return {
    resolve: (path) => ({ winner: byKey.has(pathKey(path)) ? { archive: name } : null }),
    read: (path) => catEntry(file, byKey.get(pathKey(path)) ?? path),
    tree: () => ({ paths }),
  };
}

/** `upper`'s files over `lower`'s: a path `upper` has comes from it, any other from `lower`. */
export function stackedInstall(upper: AssetInstall, lower: AssetInstall): AssetInstall {
  return {
    resolve: (path) => (upper.resolve(path).winner ? upper.resolve(path) : lower.resolve(path)),
    read: (path, archive) => (upper.resolve(path).winner ? upper.read(path, archive) : lower.read(path, archive)),
    tree: () => ({ paths: [...new Set([...upper.tree().paths, ...lower.tree().paths])] }),
  };
}
