import type { Palette, RgbaImage } from '../image.js';
import { indexedToRgba } from '../image.js';
import type { AssetContext, AssetDecoder } from '../registry.js';
import type { AssetFact, ImageGroup, ImagesView } from '../view.js';
import { decodeTnt, TNT_TILE, tntSummary, type TntMap } from './tnt.js';
import { drawTntMarkers, renderTnt, type StartPosition } from './tnt-render.js';

/**
 * What the studio shows for a .tnt: the map drawn from its tiles with its features and start positions
 * marked ("render"), the minimap as the game shows it ("minimap"), and the facts beside them.
 * Start positions come from the sister .ota and feature definitions from the install; both are read by
 * the host (the TDF parser lives in electron/tdf), which passes them in as `TntViewExtras`.
 */

/** Where a feature name's definition comes from in the install (the winning features/*.tdf). */
export interface FeatureDefinitionRef {
  file: string;
  /** null: a loose file. */
  archive: string | null;
  /** Other definitions of the same name that this one hides. */
  shadowed: number;
}

export interface TntViewExtras {
  startPositions?: readonly StartPosition[];
  /** The .ota they came from ("maps/Coast.ota"), named in the facts. */
  startSource?: string;
  /** Problems met reading the .ota, shown as warnings. */
  otaProblems?: readonly string[];
  /** featureKey(name) → its definition winner, or null when the install defines no such feature. */
  featureDefinitions?: ReadonlyMap<string, FeatureDefinitionRef | null>;
}

/** How feature names compare (TA's way: upper-case ASCII, other characters as they are). */
export function featureKey(name: string): string {
  return name.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32));
}

/** The studio's render is at most this many pixels (about 4096 × 4096); larger maps are shown scaled down. */
export const TNT_VIEW_MAX_PIXELS = 16 << 20;

/** The largest 1/n scale that brings the map within `maxPixels`. */
export function fittingScale(map: TntMap, maxPixels = TNT_VIEW_MAX_PIXELS): number {
  const pixels = map.tileColumns * TNT_TILE * map.tileRows * TNT_TILE;
  let n = 1;
  while (pixels / (n * n) > maxPixels) n++;
  return 1 / n;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Facts for the studio and the CLI's plain `tnt info`. */
export function tntFacts(map: TntMap, extras: TntViewExtras = {}): AssetFact[] {
  const summary = tntSummary(map);
  const facts: AssetFact[] = [
    { label: 'Version', value: `0x${map.header.version.toString(16)} (Total Annihilation)` },
    {
      label: 'Size',
      value: `${map.tileColumns} × ${map.tileRows} tiles, ${map.width} × ${map.height} cells, ${map.tileColumns * TNT_TILE} × ${map.tileRows * TNT_TILE} pixels`,
    },
    { label: 'Sea level', value: String(map.seaLevel) },
    { label: 'Heights', value: `${summary.minHeight}–${summary.maxHeight}` },
    { label: 'Tiles', value: String(map.tileCount) },
    {
      label: 'Features',
      value: `${plural(map.features.length, 'kind')}, ${plural(
        summary.placed.reduce((a, b) => a + b, 0),
        'cell',
      )}`,
    },
    { label: 'Void cells', value: String(summary.voidCells) },
    {
      label: 'Minimap',
      value:
        `${map.minimap.width} × ${map.minimap.height}` +
        (map.minimap.width !== map.minimap.storedWidth || map.minimap.height !== map.minimap.storedHeight
          ? ` (stored ${map.minimap.storedWidth} × ${map.minimap.storedHeight})`
          : ''),
    },
  ];
  if (extras.startPositions) {
    const where = extras.startSource ? ` (${extras.startSource})` : '';
    facts.push({ label: 'Start positions', value: `${extras.startPositions.length}${where}` });
    for (const s of extras.startPositions) facts.push({ label: `Start ${s.player}`, value: `${s.x}, ${s.z}` });
  }
  map.features.forEach((f, i) => {
    let value = `${f.name}, ${plural(summary.placed[i]!, 'cell')}`;
    if (extras.featureDefinitions) {
      const def = extras.featureDefinitions.get(featureKey(f.name));
      value += def
        ? `, ${def.file} (${def.archive ?? 'loose file'})${def.shadowed ? `, hides ${def.shadowed}` : ''}`
        : ', not defined in the install';
    }
    facts.push({ label: `Feature ${i}`, value });
  });
  return facts;
}

/** The height field, one pixel a cell: grey by height, blue-tinted below the sea level. */
export function heightImage(map: TntMap): RgbaImage {
  const rgba = new Uint8Array(map.width * map.height * 4);
  for (let i = 0; i < map.heights.length; i++) {
    const h = map.heights[i]!;
    const wet = h < map.seaLevel;
    rgba[i * 4] = wet ? h >> 2 : h;
    rgba[i * 4 + 1] = wet ? h >> 1 : h;
    rgba[i * 4 + 2] = wet ? 128 + (h >> 1) : h;
    rgba[i * 4 + 3] = 255;
  }
  return { width: map.width, height: map.height, rgba };
}

/** The view of a decoded map. */
export function tntView(map: TntMap, palette: Palette, extras: TntViewExtras = {}): ImagesView {
  const warnings = [...map.warnings, ...(extras.otaProblems ?? []).map((p) => `${extras.startSource ?? '.ota'}: ${p}`)];
  const scale = fittingScale(map);
  if (scale < 1)
    warnings.push(
      `the render is shown at 1/${Math.round(1 / scale)} scale (the map is ${map.tileColumns * TNT_TILE} × ${map.tileRows * TNT_TILE} pixels)`,
    );
  const render = renderTnt(map, palette, scale);
  drawTntMarkers(render, map, { features: true, voids: true, startPositions: extras.startPositions });
  const groups: ImageGroup[] = [{ name: 'render', frames: [{ image: render, label: 'features, void cells and start positions marked' }] }];
  if (map.minimap.width > 0)
    groups.push({
      name: 'minimap',
      frames: [{ image: indexedToRgba(map.minimap.width, map.minimap.height, map.minimap.pixels, palette) }],
    });
  else warnings.push(`the minimap is empty (its ${map.minimap.storedWidth} × ${map.minimap.storedHeight} pixels are all padding)`);
  groups.push({ name: 'heights', frames: [{ image: heightImage(map), label: `one pixel a cell; blue below sea level ${map.seaLevel}` }] });
  return { kind: 'images', format: 'TNT map (TA)', facts: tntFacts(map, extras), warnings, groups, palette: palette.name };
}

/** Decode and view: the AssetDecoder's work, with what the host read beside the map. */
export async function viewTnt(name: string, bytes: Uint8Array, palette: Palette, extras: TntViewExtras = {}): Promise<ImagesView> {
  return tntView(decodeTnt(bytes, name), palette, extras);
}

/**
 * The .tnt decoder with what a host adds beside the map (`extras`: the sister .ota's start positions, the
 * install's feature definitions; electron/services/tnt-service.ts makes one with the TDF parser).
 */
export function tntDecoderWith(extras: (name: string, map: TntMap, context: AssetContext) => Promise<TntViewExtras>): AssetDecoder {
  return {
    id: 'tnt',
    // By name alone: a damaged or TA:K map is still a map, and its view says what is wrong with it.
    accepts: (name) => /\.tnt$/i.test(name),
    view: async (name, bytes, context) => {
      const map = decodeTnt(bytes, name);
      return tntView(map, await context.palette('ta'), await extras(name, map, context));
    },
  };
}

/** The registered decoder: the map alone (no .ota parsing in shared/). */
export const tntDecoder: AssetDecoder = tntDecoderWith(async () => ({}));
