import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { DefinitionSource, DefinitionWinner, ShadowedDefinition } from '../../shared/vfs-types.js';
import type { AssetContext, AssetDecoder } from '../../shared/assets/registry.js';
import type { Palette } from '../../shared/assets/image.js';
import type { ImagesView } from '../../shared/assets/view.js';
import { decodeTnt, TNT_TILE, tntSummary, type TntMap } from '../../shared/assets/ta/tnt.js';
import type { StartPosition } from '../../shared/assets/ta/tnt-render.js';
import { featureKey, tntDecoderWith, tntView, type FeatureDefinitionRef, type TntViewExtras } from '../../shared/assets/ta/tnt-view.js';
import { upperAscii } from '../../shared/tdf/parse.js';
import { readOta, type OtaInfo } from '../tdf/ota.js';
import { openAsset, type AssetSourceOptions } from './asset-service.js';
import { InstallService } from './install-service.js';

/**
 * A TNT map with what lies beside it: the start positions of its sister .ota (read with the TDF parser,
 * which lives in electron/tdf, so this is done here rather than in the pure decoder) and, under an
 * install, which features/*.tdf defines each of its features. The CLI's `modpak tnt` and the studio's
 * host use it; `tntInfo` is the `modpak tnt info --json` shape (README, CLI block).
 */

export interface TntFeatureInfo {
  index: number;
  name: string;
  /** Cells that place it. */
  cells: number;
  /** Only when looked up in an install: the winning definition, or null when no features/*.tdf defines it. */
  definition?: (DefinitionSource & { shadowed: ShadowedDefinition[] }) | null;
}

export interface LoadedTnt {
  name: string;
  map: TntMap;
  /** The TA palette of the map's context (the install's winner, a --palette, or the built-in one). */
  palette(): Promise<Palette>;
  /** The sister .ota's path as tried, and what it said (null when there is none). */
  otaPath: string;
  ota: OtaInfo | null;
  features: TntFeatureInfo[];
  /** For the view: start positions, feature definitions. */
  extras: TntViewExtras;
}

/** `modpak tnt info --json`. */
export interface TntInfo {
  version: number;
  /** In 16-pixel attribute cells. */
  width: number;
  height: number;
  tileColumns: number;
  tileRows: number;
  pixelWidth: number;
  pixelHeight: number;
  seaLevel: number;
  tiles: number;
  heights: { min: number; max: number };
  voidCells: number;
  minimap: { width: number; height: number; storedWidth: number; storedHeight: number };
  features: TntFeatureInfo[];
  ota: { path: string; missionName: string | null; planet: string | null; schema: string | null } | null;
  startPositions: StartPosition[];
  warnings: string[];
}

/** The sister .ota's path: the same name with the extension swapped, in the extension's own case. */
export function sisterOtaPath(tntPath: string): string {
  if (/\.tnt$/i.test(tntPath)) return tntPath.slice(0, -4) + (tntPath.endsWith('.TNT') ? '.OTA' : '.ota');
  return tntPath.replace(/(\.[^./\\]*)?$/, '.ota');
}

/**
 * Decode `bytes` (the map `name`) with the context's TA palette, read its sister .ota through the context,
 * and link its features to `featureDefs` (an install's `defs('features')`) when given.
 */
export async function loadTnt(
  name: string,
  bytes: Uint8Array,
  context: AssetContext,
  featureDefs?: readonly DefinitionWinner[],
): Promise<LoadedTnt> {
  const map = decodeTnt(bytes, name);
  return { name, map, palette: () => context.palette('ta'), ...(await besideTnt(name, map, context, featureDefs)) };
}

/** What lies beside a decoded map: its .ota, its features' definitions, and the view's extras from them. */
async function besideTnt(
  name: string,
  map: TntMap,
  context: AssetContext,
  featureDefs?: readonly DefinitionWinner[],
): Promise<Pick<LoadedTnt, 'otaPath' | 'ota' | 'features' | 'extras'>> {
  const otaPath = sisterOtaPath(name);
  let otaBytes = await context.readFile(otaPath);
  // A loose map and its .ota need not agree on the case of their extensions.
  if (!otaBytes) otaBytes = await context.readFile(otaPath.slice(0, -4) + (otaPath.endsWith('.ota') ? '.OTA' : '.ota'));
  const ota = otaBytes ? readOta(otaBytes) : null;

  const byName = featureDefs ? new Map(featureDefs.map((d) => [upperAscii(d.name), d])) : null;
  const summary = tntSummary(map);
  const features = map.features.map((f, i): TntFeatureInfo => {
    const row: TntFeatureInfo = { index: f.index, name: f.name, cells: summary.placed[i]! };
    if (byName) {
      const d = byName.get(upperAscii(f.name));
      row.definition = d
        ? {
            file: d.file,
            archive: d.archive,
            shadowed: d.shadowed.map((s) => ({ file: s.file, archive: s.archive, hiddenBy: s.hiddenBy })),
          }
        : null;
    }
    return row;
  });

  const extras: TntViewExtras = {};
  if (ota) {
    extras.startPositions = ota.startPositions;
    extras.startSource = otaPath;
    extras.otaProblems = ota.problems;
  }
  if (byName) {
    const refs = new Map<string, FeatureDefinitionRef | null>();
    for (const f of features)
      refs.set(
        featureKey(f.name),
        f.definition ? { file: f.definition.file, archive: f.definition.archive, shadowed: f.definition.shadowed.length } : null,
      );
    extras.featureDefinitions = refs;
  }
  return { otaPath, ota, features, extras };
}

/**
 * The .tnt decoder for a host (the studio's previews): start positions from the sister .ota through the
 * context, and feature definitions from `featureDefs` (an install's `defs('features')`) when given.
 * `name` must be the map's path in the install (its folder names the .ota), not its base name.
 */
export function hostTntDecoder(featureDefs?: () => Promise<readonly DefinitionWinner[]>): AssetDecoder {
  return tntDecoderWith(
    async (name, map, context) => (await besideTnt(name, map, context, featureDefs ? await featureDefs() : undefined)).extras,
  );
}

export function tntInfo(loaded: LoadedTnt): TntInfo {
  const { map, ota } = loaded;
  const summary = tntSummary(map);
  return {
    version: map.header.version,
    width: map.width,
    height: map.height,
    tileColumns: map.tileColumns,
    tileRows: map.tileRows,
    pixelWidth: map.tileColumns * TNT_TILE,
    pixelHeight: map.tileRows * TNT_TILE,
    seaLevel: map.seaLevel,
    tiles: map.tileCount,
    heights: { min: summary.minHeight, max: summary.maxHeight },
    voidCells: summary.voidCells,
    minimap: {
      width: map.minimap.width,
      height: map.minimap.height,
      storedWidth: map.minimap.storedWidth,
      storedHeight: map.minimap.storedHeight,
    },
    features: loaded.features,
    ota: ota ? { path: loaded.otaPath, missionName: ota.missionName, planet: ota.planet, schema: ota.schema } : null,
    startPositions: ota?.startPositions ?? [],
    warnings: [...map.warnings, ...(ota?.problems ?? []).map((p) => `${loaded.otaPath}: ${p}`)],
  };
}

/** The studio's view of a loaded map (render with markers, minimap, facts). */
export async function loadedTntView(loaded: LoadedTnt): Promise<ImagesView> {
  return tntView(loaded.map, await loaded.palette(), loaded.extras);
}

export interface OpenedTnt {
  loaded: LoadedTnt;
  /** Where the map came from ("maps/Coast.tnt from totala1.hpi"). */
  origin: string;
  /** Soft problems of the install met on the way (an unreadable features/*.tdf). */
  warnings: readonly string[];
  close(): Promise<void>;
}

/**
 * Open a map as the asset options say and load it with what lies beside it: under an install, the sister
 * .ota is the install's winner of that path and the features are linked to its definition winners; for a
 * file on disk, the .ota beside it on disk. `file` names the map in messages.
 */
export async function openTnt(file: string, options: AssetSourceOptions = {}, installs?: InstallService): Promise<OpenedTnt> {
  const service = installs ?? new InstallService();
  const asset = await openAsset(file, options, service);
  const close = async () => {
    await asset.close();
    if (!installs) await service.closeAll();
  };
  try {
    let context = asset.context;
    let defs: DefinitionWinner[] | undefined;
    let warnings: readonly string[] = [];
    if (options.install) {
      // The same options as openAsset's mount, so this is the cached mount, not a second one.
      const install = await service.open(options.install, { game: options.game });
      defs = await install.defs('features');
      warnings = install.warnings;
    } else {
      context = { ...context, readFile: readBeside };
    }
    const loaded = await loadTnt(file, asset.bytes, context, defs);
    return { loaded, origin: asset.origin, warnings, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A file on disk, or null when there is none (any other failure to read it is an error). */
async function readBeside(path: string): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await readFile(resolve(path)));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}
