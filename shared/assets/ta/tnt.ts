import { fail } from '../../errors.js';
import { ByteReader } from '../../bytes/reader.js';
import { checkImageSize } from '../image.js';

/**
 * Total Annihilation's TNT map (version 0x2000), as the published description (Saruman & Bobban's
 * ta-tnt-fmt, updated by me22) and the working readers (RWE, TA3D, Logan Jones's TA tools) agree on it.
 * A 64-byte header of u32s: version, width and height in 16-pixel cells, then the offsets and counts of
 * the tile grid (u16 per 32 × 32 tile, so width/2 × height/2 of them), the attribute cells (4 bytes per
 * cell: height u8, feature u16, one unknown byte), the tile graphics (1024 palette indices each), the
 * feature table (u32 index + 128-byte name), the sea level, and the minimap (u32 width, u32 height,
 * then its pixels, padded with the void colour 0x64 to the right and below).
 * TA: Kingdoms maps (0x4000) share the first three fields only and TA cannot load them.
 * Pure: no Node, no DOM.
 */

export const TNT_VERSION_TA = 0x2000;
export const TNT_VERSION_TAK = 0x4000;
export const TNT_HEADER_SIZE = 64;
/** Pixels a side of a graphic tile; of an attribute cell. */
export const TNT_TILE = 32;
export const TNT_CELL = 16;
export const TNT_FEATURE_ENTRY_SIZE = 132;
export const TNT_FEATURE_NAME_SIZE = 128;
/** The palette index the minimap is padded with (the game shows the minimap without it). */
export const TNT_MINIMAP_VOID = 0x64;

/** Cell feature values that are not feature indices. */
export const FEATURE_NONE = 0xffff;
/** Seen in some maps; readers treat it as no feature. */
export const FEATURE_UNKNOWN = 0xfffe;
/** A void cell: a hole nothing may enter. */
export const FEATURE_VOID = 0xfffc;

export interface TntHeader {
  version: number;
  /** In 16-pixel attribute cells. */
  width: number;
  height: number;
  mapDataOffset: number;
  attributesOffset: number;
  tileGraphicsOffset: number;
  tileCount: number;
  featureCount: number;
  featuresOffset: number;
  seaLevel: number;
  minimapOffset: number;
  /** Usually 1; meaning unknown. */
  unknown1: number;
}

export interface TntFeatureEntry {
  /** The index the file stores beside the name (normally its position in the table). */
  index: number;
  name: string;
}

export interface TntMinimap {
  /** The picture the game shows: the stored one with the void padding trimmed. */
  width: number;
  height: number;
  /** The size stored in the file (usually 252 × 252), padding included. */
  storedWidth: number;
  storedHeight: number;
  /** width × height palette indices, row-major. */
  pixels: Uint8Array;
}

export interface TntMap {
  header: TntHeader;
  /** Attribute cells across and down (16 pixels each). */
  width: number;
  height: number;
  /** Graphic tiles across and down (32 pixels each). */
  tileColumns: number;
  tileRows: number;
  seaLevel: number;
  /** tileColumns × tileRows tile numbers, row-major. */
  tileIndices: Uint16Array;
  tileCount: number;
  /** tileCount × 1024 palette indices (a view into the file's bytes). */
  tileGraphics: Uint8Array;
  /** width × height cell heights. */
  heights: Uint8Array;
  /** width × height cell feature values: an index into `features`, or FEATURE_NONE / _UNKNOWN / _VOID. */
  cellFeatures: Uint16Array;
  features: TntFeatureEntry[];
  minimap: TntMinimap;
  /** Damage the map survives (tile numbers past the tile table, unknown feature values), said once each. */
  warnings: string[];
}

/** Whether the first bytes are a TNT header of a version this module knows (TA or TA:K). */
export function looksLikeTnt(head: Uint8Array): boolean {
  if (head.length < 4) return false;
  const version = head[0]! | (head[1]! << 8) | (head[2]! << 16) | (head[3]! << 24);
  return version === TNT_VERSION_TA || version === TNT_VERSION_TAK;
}

function readHeader(reader: ByteReader): TntHeader {
  if (reader.length < TNT_HEADER_SIZE) {
    fail('truncated', `${reader.what}: a TNT header needs ${TNT_HEADER_SIZE} bytes, found ${reader.length}`, {
      expected: TNT_HEADER_SIZE,
      actual: reader.length,
    });
  }
  const version = reader.u32(0, 'version');
  if (version === TNT_VERSION_TAK) {
    fail('unsupported', `${reader.what}: TA:K map (0x4000): TA can't load this`, { actual: version });
  }
  if (version !== TNT_VERSION_TA) {
    fail('bad-magic', `${reader.what}: not a TNT map (version 0x${version.toString(16)}, TA's is 0x2000)`, {
      expected: TNT_VERSION_TA,
      actual: version,
    });
  }
  const u = (offset: number, field: string) => reader.u32(offset, field);
  return {
    version,
    width: u(4, 'width'),
    height: u(8, 'height'),
    mapDataOffset: u(12, 'tile grid offset'),
    attributesOffset: u(16, 'attribute offset'),
    tileGraphicsOffset: u(20, 'tile graphics offset'),
    tileCount: u(24, 'tile count'),
    featureCount: u(28, 'feature count'),
    featuresOffset: u(32, 'feature table offset'),
    seaLevel: u(36, 'sea level'),
    minimapOffset: u(40, 'minimap offset'),
    unknown1: u(44, 'unknown'),
  };
}

/** Decode a TA TNT map. Throws FormatError on damage it cannot survive (and on TA:K maps). */
export function decodeTnt(bytes: Uint8Array, what = 'map.tnt'): TntMap {
  const reader = new ByteReader(bytes, what);
  const header = readHeader(reader);
  const warnings: string[] = [];
  const { width, height } = header;
  if (width < 2 || height < 2)
    fail('bad-count', `${what}: a map of ${width} × ${height} cells has no tile (at least 2 × 2 cells)`, {
      actual: `${width} × ${height}`,
    });
  if (width % 2 !== 0 || height % 2 !== 0)
    warnings.push(`${width} × ${height} cells is not a whole number of 32-pixel tiles; the last half tile is not drawn`);
  const tileColumns = Math.floor(width / 2);
  const tileRows = Math.floor(height / 2);
  // The render's size bounds every other table: refuse a map too large to draw before reading any table.
  checkImageSize(`${what}: map of ${tileColumns} × ${tileRows} tiles`, tileColumns * TNT_TILE, tileRows * TNT_TILE);

  const tileTotal = tileColumns * tileRows;
  reader.checkTable('tile grid', header.mapDataOffset, tileTotal, 2);
  const tileIndices = new Uint16Array(tileTotal);
  const grid = new DataView(bytes.buffer, bytes.byteOffset + header.mapDataOffset, tileTotal * 2);
  for (let i = 0; i < tileTotal; i++) tileIndices[i] = grid.getUint16(i * 2, true);

  const cellTotal = width * height;
  reader.checkTable('attribute cells', header.attributesOffset, cellTotal, 4);
  const heights = new Uint8Array(cellTotal);
  const cellFeatures = new Uint16Array(cellTotal);
  const cells = new DataView(bytes.buffer, bytes.byteOffset + header.attributesOffset, cellTotal * 4);
  for (let i = 0; i < cellTotal; i++) {
    heights[i] = cells.getUint8(i * 4);
    cellFeatures[i] = cells.getUint16(i * 4 + 1, true);
  }

  reader.checkTable('tile graphics', header.tileGraphicsOffset, header.tileCount, TNT_TILE * TNT_TILE);
  const tileGraphics = reader.slice(header.tileGraphicsOffset, header.tileCount * TNT_TILE * TNT_TILE, 'tile graphics');

  reader.checkTable('feature table', header.featuresOffset, header.featureCount, TNT_FEATURE_ENTRY_SIZE);
  const features: TntFeatureEntry[] = [];
  for (let i = 0; i < header.featureCount; i++) {
    const at = header.featuresOffset + i * TNT_FEATURE_ENTRY_SIZE;
    features.push({
      index: reader.u32(at, `feature ${i} index`),
      name: reader.fixedString(at + 4, TNT_FEATURE_NAME_SIZE, `feature ${i} name`),
    });
  }

  const minimap = readMinimap(reader, header.minimapOffset);
  checkReferences(tileIndices, tileColumns, header.tileCount, cellFeatures, width, features.length, warnings);
  return {
    header,
    width,
    height,
    tileColumns,
    tileRows,
    seaLevel: header.seaLevel,
    tileIndices,
    tileCount: header.tileCount,
    tileGraphics,
    heights,
    cellFeatures,
    features,
    minimap,
    warnings,
  };
}

function readMinimap(reader: ByteReader, offset: number): TntMinimap {
  const storedWidth = reader.u32(offset, 'minimap width');
  const storedHeight = reader.u32(offset + 4, 'minimap height');
  checkImageSize(`${reader.what}: minimap`, storedWidth, storedHeight);
  const stored = reader.slice(offset + 8, storedWidth * storedHeight, `minimap (${storedWidth} × ${storedHeight} pixels)`);
  // The game's trim: the padding is found along the first row (from its right end) and the first column
  // (from its bottom), not by looking at the whole picture.
  let width = storedWidth;
  while (width > 0 && stored[width - 1] === TNT_MINIMAP_VOID) width--;
  let height = storedHeight;
  while (height > 0 && stored[(height - 1) * storedWidth] === TNT_MINIMAP_VOID) height--;
  if (width === 0 || height === 0) width = height = 0;
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) pixels.set(stored.subarray(y * storedWidth, y * storedWidth + width), y * width);
  return { width, height, storedWidth, storedHeight, pixels };
}

/** Tile numbers past the tile table and cell values that are neither a feature nor a marker: one warning each. */
function checkReferences(
  tileIndices: Uint16Array,
  tileColumns: number,
  tileCount: number,
  cellFeatures: Uint16Array,
  width: number,
  featureCount: number,
  warnings: string[],
): void {
  let badTiles = 0;
  let firstTile = -1;
  for (let i = 0; i < tileIndices.length; i++) {
    if (tileIndices[i]! < tileCount) continue;
    if (badTiles++ === 0) firstTile = i;
  }
  if (badTiles > 0) {
    const x = firstTile % tileColumns;
    const y = Math.floor(firstTile / tileColumns);
    warnings.push(
      `${badTiles} grid place${badTiles === 1 ? ' names' : 's name'} a tile past the ${tileCount} tiles (first: column ${x}, row ${y} names tile ${tileIndices[firstTile]}); drawn black`,
    );
  }
  let badCells = 0;
  let firstCell = -1;
  for (let i = 0; i < cellFeatures.length; i++) {
    const f = cellFeatures[i]!;
    if (f < featureCount || f === FEATURE_NONE || f === FEATURE_UNKNOWN || f === FEATURE_VOID) continue;
    if (badCells++ === 0) firstCell = i;
  }
  if (badCells > 0) {
    const x = firstCell % width;
    const y = Math.floor(firstCell / width);
    warnings.push(
      `${badCells} cell${badCells === 1 ? ' names' : 's name'} a feature past the ${featureCount} features (first: cell ${x}, ${y} names 0x${cellFeatures[firstCell]!.toString(16)}); ignored`,
    );
  }
}

/** One placed feature: a cell whose feature value indexes the feature table. */
export interface PlacedFeature {
  /** Index into TntMap.features. */
  feature: number;
  /** The cell, in 16-pixel cells. */
  x: number;
  y: number;
}

/** Every placed feature, in cell order (row by row). */
export function placedFeatures(map: TntMap): PlacedFeature[] {
  const out: PlacedFeature[] = [];
  const count = map.features.length;
  for (let i = 0; i < map.cellFeatures.length; i++) {
    const f = map.cellFeatures[i]!;
    if (f < count) out.push({ feature: f, x: i % map.width, y: Math.floor(i / map.width) });
  }
  return out;
}

/** Counts for reports: placed cells per feature, void cells, lowest and highest cell. */
export function tntSummary(map: TntMap): { placed: number[]; voidCells: number; minHeight: number; maxHeight: number } {
  const placed = new Array<number>(map.features.length).fill(0);
  let voidCells = 0;
  for (let i = 0; i < map.cellFeatures.length; i++) {
    const f = map.cellFeatures[i]!;
    if (f < placed.length) placed[f]!++;
    else if (f === FEATURE_VOID) voidCells++;
  }
  let minHeight = 255;
  let maxHeight = 0;
  for (let i = 0; i < map.heights.length; i++) {
    const h = map.heights[i]!;
    if (h < minHeight) minHeight = h;
    if (h > maxHeight) maxHeight = h;
  }
  return { placed, voidCells, minHeight, maxHeight };
}
