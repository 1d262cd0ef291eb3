import { fail } from '../../errors.js';
import { checkImageSize, type Palette, type RgbaImage } from '../image.js';
import { FEATURE_VOID, placedFeatures, TNT_CELL, TNT_TILE, type TntMap } from './tnt.js';

/**
 * A TNT map drawn from its tiles (what the game shows, at a chosen scale), and the markers the studio and
 * `modpak tnt render --markers` draw over it: placed features and the start positions of the sister .ota.
 * Pure: no Node, no DOM.
 */

/** A start position in map pixels (the .ota's XPos, ZPos), for player 1, 2, ... */
export interface StartPosition {
  player: number;
  x: number;
  z: number;
}

/** The largest and smallest scale a render takes (a 256 × 256-tile map at 1/64 is 128 pixels across). */
export const MIN_RENDER_SCALE = 1 / 64;
export const MAX_RENDER_SCALE = 16;

/** The size of a render at `scale`: the map's pixels times the scale, rounded, at least 1. */
export function renderSize(map: TntMap, scale = 1): { width: number; height: number } {
  if (!Number.isFinite(scale) || scale < MIN_RENDER_SCALE || scale > MAX_RENDER_SCALE) {
    fail('refused', `render scale ${scale} is outside ${MIN_RENDER_SCALE}–${MAX_RENDER_SCALE}`, { actual: scale });
  }
  const width = Math.max(1, Math.round(map.tileColumns * TNT_TILE * scale));
  const height = Math.max(1, Math.round(map.tileRows * TNT_TILE * scale));
  return { width, height };
}

/** For each output column (or row), the map pixel it shows: nearest neighbour at the pixel's centre. */
function sourceCoordinates(outSize: number, mapSize: number): Int32Array {
  const out = new Int32Array(outSize);
  for (let i = 0; i < outSize; i++) out[i] = Math.min(mapSize - 1, Math.floor(((i + 0.5) * mapSize) / outSize));
  return out;
}

const OPAQUE_BLACK = 0xff000000;

/**
 * The map drawn from its tile grid with `palette`, `scale` × its size (nearest neighbour). A grid place
 * naming a tile past the tile table is drawn black (decodeTnt warns about it).
 */
export function renderTnt(map: TntMap, palette: Palette, scale = 1): RgbaImage {
  const mapWidth = map.tileColumns * TNT_TILE;
  const mapHeight = map.tileRows * TNT_TILE;
  const { width, height } = renderSize(map, scale);
  checkImageSize('map render', width, height);
  const rgba = new Uint8Array(width * height * 4);
  const out = new Uint32Array(rgba.buffer);
  // The palette's RGBA bytes as one 32-bit store per pixel (memory order, as indexedToRgba does).
  const colours = new Uint32Array(palette.rgba.buffer.slice(palette.rgba.byteOffset, palette.rgba.byteOffset + 1024));
  const { tileIndices, tileGraphics, tileCount, tileColumns } = map;
  const tileBytes = TNT_TILE * TNT_TILE;

  if (width === mapWidth && height === mapHeight) {
    for (let tileRow = 0; tileRow < map.tileRows; tileRow++) {
      for (let tileColumn = 0; tileColumn < tileColumns; tileColumn++) {
        const tile = tileIndices[tileRow * tileColumns + tileColumn]!;
        let o = tileRow * TNT_TILE * width + tileColumn * TNT_TILE;
        if (tile >= tileCount) {
          for (let y = 0; y < TNT_TILE; y++, o += width) out.fill(OPAQUE_BLACK, o, o + TNT_TILE);
          continue;
        }
        let s = tile * tileBytes;
        for (let y = 0; y < TNT_TILE; y++, o += width) {
          for (let x = 0; x < TNT_TILE; x++) out[o + x] = colours[tileGraphics[s++]!]!;
        }
      }
    }
    return { width, height, rgba };
  }

  const sourceX = sourceCoordinates(width, mapWidth);
  const sourceY = sourceCoordinates(height, mapHeight);
  let o = 0;
  for (let y = 0; y < height; y++) {
    const sy = sourceY[y]!;
    const rowTiles = (sy >> 5) * tileColumns;
    const rowInTile = (sy & 31) * TNT_TILE;
    for (let x = 0; x < width; x++, o++) {
      const sx = sourceX[x]!;
      const tile = tileIndices[rowTiles + (sx >> 5)]!;
      out[o] = tile < tileCount ? colours[tileGraphics[tile * tileBytes + rowInTile + (sx & 31)]!]! : OPAQUE_BLACK;
    }
  }
  return { width, height, rgba };
}

type Rgb = readonly [number, number, number];

/** Start position colours for players 1–10, near TA's own player colours. */
const PLAYER_COLOURS: readonly Rgb[] = [
  [0, 80, 255],
  [255, 32, 32],
  [255, 255, 255],
  [0, 200, 0],
  [0, 0, 128],
  [160, 0, 200],
  [255, 240, 0],
  [40, 40, 40],
  [120, 200, 255],
  [200, 160, 100],
];
const FEATURE_COLOUR: Rgb = [255, 200, 0];
const OUTLINE: Rgb = [0, 0, 0];

/** 3 × 5 digits, one row of three bits per line, top row first. */
const DIGITS = [
  [7, 5, 5, 5, 7],
  [2, 6, 2, 2, 7],
  [7, 1, 7, 4, 7],
  [7, 1, 7, 1, 7],
  [5, 5, 7, 1, 1],
  [7, 4, 7, 1, 7],
  [7, 4, 7, 5, 7],
  [7, 1, 1, 1, 1],
  [7, 5, 7, 5, 7],
  [7, 5, 7, 1, 7],
] as const;

function put(image: RgbaImage, x: number, y: number, [r, g, b]: Rgb): void {
  if (x < 0 || y < 0 || x >= image.width || y >= image.height) return;
  const o = (y * image.width + x) * 4;
  image.rgba[o] = r;
  image.rgba[o + 1] = g;
  image.rgba[o + 2] = b;
  image.rgba[o + 3] = 255;
}

function fillRect(image: RgbaImage, x0: number, y0: number, w: number, h: number, colour: Rgb): void {
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) put(image, x, y, colour);
}

function drawNumber(image: RgbaImage, n: number, cx: number, cy: number, pixel: number, colour: Rgb): void {
  const digits = String(n).split('').map(Number);
  const width = digits.length * 4 * pixel - pixel;
  let x0 = Math.round(cx - width / 2);
  const y0 = Math.round(cy - (5 * pixel) / 2);
  for (const d of digits) {
    const glyph = DIGITS[d] ?? DIGITS[0];
    for (let row = 0; row < 5; row++) {
      for (let col = 0; col < 3; col++)
        if (glyph[row]! & (4 >> col)) fillRect(image, x0 + col * pixel, y0 + row * pixel, pixel, pixel, colour);
    }
    x0 += 4 * pixel;
  }
}

export interface TntMarkers {
  startPositions?: readonly StartPosition[];
  /** Draw a mark on every cell that places a feature. */
  features?: boolean;
  /** Hatch the void cells (black every fourth diagonal). */
  voids?: boolean;
}

/** The render's pixels covering cell (x, y): [x0, y0, x1, y1), at least one pixel. */
function cellRect(image: RgbaImage, map: TntMap, x: number, y: number): [number, number, number, number] {
  const sx = image.width / (map.tileColumns * TNT_TILE);
  const sy = image.height / (map.tileRows * TNT_TILE);
  const x0 = Math.floor(x * TNT_CELL * sx);
  const y0 = Math.floor(y * TNT_CELL * sy);
  return [x0, y0, Math.max(x0 + 1, Math.floor((x + 1) * TNT_CELL * sx)), Math.max(y0 + 1, Math.floor((y + 1) * TNT_CELL * sy))];
}

/**
 * Draw markers over a render of `map` (any scale: positions follow the render's size). Void cells: a
 * hatch. Features: a small
 * outlined square at the placing cell's centre. Start positions: a disc in the player's colour with the
 * player's number; a position off the map is drawn at the nearest edge.
 */
export function drawTntMarkers(image: RgbaImage, map: TntMap, markers: TntMarkers): void {
  const sx = image.width / (map.tileColumns * TNT_TILE);
  const sy = image.height / (map.tileRows * TNT_TILE);
  if (markers.voids) {
    for (let i = 0; i < map.cellFeatures.length; i++) {
      if (map.cellFeatures[i] !== FEATURE_VOID) continue;
      const [x0, y0, x1, y1] = cellRect(image, map, i % map.width, Math.floor(i / map.width));
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if ((x + y) % 4 === 0) put(image, x, y, OUTLINE);
    }
  }
  if (markers.features) {
    const half = Math.max(1, Math.round(3 * Math.min(1, sx * 2)));
    for (const f of placedFeatures(map)) {
      const cx = Math.floor((f.x + 0.5) * TNT_CELL * sx);
      const cy = Math.floor((f.y + 0.5) * TNT_CELL * sy);
      fillRect(image, cx - half - 1, cy - half - 1, 2 * half + 3, 2 * half + 3, OUTLINE);
      fillRect(image, cx - half, cy - half, 2 * half + 1, 2 * half + 1, FEATURE_COLOUR);
    }
  }
  for (const start of markers.startPositions ?? []) {
    const cx = Math.min(image.width - 1, Math.max(0, Math.floor(start.x * sx)));
    const cy = Math.min(image.height - 1, Math.max(0, Math.floor(start.z * sy)));
    const radius = Math.max(6, Math.min(14, Math.round(14 * Math.min(1, sx * 2))));
    const colour = PLAYER_COLOURS[(start.player - 1) % PLAYER_COLOURS.length] ?? PLAYER_COLOURS[0]!;
    for (let y = -radius - 1; y <= radius + 1; y++) {
      for (let x = -radius - 1; x <= radius + 1; x++) {
        const d = x * x + y * y;
        if (d <= radius * radius) put(image, cx + x, cy + y, colour);
        else if (d <= (radius + 1) * (radius + 1)) put(image, cx + x, cy + y, OUTLINE);
      }
    }
    const light = colour[0] * 0.3 + colour[1] * 0.59 + colour[2] * 0.11 > 140;
    drawNumber(image, start.player, cx, cy, radius >= 10 ? 2 : 1, light ? OUTLINE : [255, 255, 255]);
  }
}
