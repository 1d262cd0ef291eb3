import { prng } from '../../shared/prng.js';

/**
 * TNT maps made from code, written from the format's published description (Saruman & Bobban's
 * ta-tnt-fmt, me22's update) without the decoder: no real map can be shipped, so tests, the bench and the
 * demo build theirs here and know every tile, height, feature and minimap pixel they put in.
 *
 * Layout: a 64-byte header of u32s (0x2000, width and height in 16-pixel cells, tile grid offset,
 * attribute offset, tile graphics offset, tile count, feature count, feature table offset, sea level,
 * minimap offset, 1, then 16 zero bytes); the grid (u16 per 32-pixel tile); the cells (height u8,
 * feature u16, 0); 1024 bytes per tile; 132 bytes per feature (u32 index, 128-byte name); the minimap
 * (u32 width, u32 height, pixels padded with 0x64 to the right and below).
 */

export interface TntMinimapSpec {
  /** The picture itself (the game's trimmed size). */
  width: number;
  height: number;
  pixels: Uint8Array;
  /** The stored size, padded with 0x64; at least width × height (default: 252 × 252, as Cavedog's maps). */
  storedWidth?: number;
  storedHeight?: number;
}

/** A list of numbers: an array or a typed array. */
export type Numbers = ArrayLike<number> & Iterable<number>;

export interface TntSpec {
  /** Graphic tiles across and down; the map is twice that in 16-pixel cells. */
  tileColumns: number;
  tileRows: number;
  /** 1024 palette indices each. */
  tiles: readonly Uint8Array[];
  /** tileColumns × tileRows tile numbers, row-major. */
  grid: Numbers;
  /** One per 16-pixel cell, row-major (default 0). */
  heights?: Numbers;
  /** One per cell: a feature index, or 0xFFFF none / 0xFFFC void (default none). */
  cellFeatures?: Numbers;
  features?: readonly string[];
  seaLevel?: number;
  minimap?: TntMinimapSpec;
  /** Where the sections go: Cavedog's order, or reversed (minimap first) to prove readers follow the offsets. */
  order?: 'cavedog' | 'reversed';
  /** The version field (0x4000 makes a TA:K header over TA content, for the refusal test). */
  version?: number;
}

const HEADER = 64;

export function writeTnt(spec: TntSpec): Uint8Array {
  const width = spec.tileColumns * 2;
  const height = spec.tileRows * 2;
  const cells = width * height;
  const features = spec.features ?? [];
  const minimap = spec.minimap ?? { width: 1, height: 1, pixels: new Uint8Array([0]) };
  const storedWidth = minimap.storedWidth ?? 252;
  const storedHeight = minimap.storedHeight ?? 252;
  if (spec.grid.length !== spec.tileColumns * spec.tileRows)
    throw new Error(`grid has ${spec.grid.length} places, the map ${spec.tileColumns * spec.tileRows}`);
  if (minimap.width > storedWidth || minimap.height > storedHeight) throw new Error('minimap larger than its stored size');

  const sizes = {
    grid: spec.grid.length * 2,
    cells: cells * 4,
    tiles: spec.tiles.length * 1024,
    features: features.length * 132,
    minimap: 8 + storedWidth * storedHeight,
  };
  const names = ['grid', 'cells', 'tiles', 'features', 'minimap'] as const;
  const order = spec.order === 'reversed' ? [...names].reverse() : names;
  const offsets = {} as Record<(typeof names)[number], number>;
  let at = HEADER;
  for (const n of order) {
    offsets[n] = at;
    at += sizes[n];
  }
  const out = new Uint8Array(at);
  const view = new DataView(out.buffer);
  const header = [
    spec.version ?? 0x2000,
    width,
    height,
    offsets.grid,
    offsets.cells,
    offsets.tiles,
    spec.tiles.length,
    features.length,
    offsets.features,
    spec.seaLevel ?? 0,
    offsets.minimap,
    1,
  ];
  header.forEach((v, i) => view.setUint32(i * 4, v, true));

  for (let i = 0; i < spec.grid.length; i++) view.setUint16(offsets.grid + i * 2, spec.grid[i]!, true);
  for (let i = 0; i < cells; i++) {
    const o = offsets.cells + i * 4;
    view.setUint8(o, spec.heights?.[i] ?? 0);
    view.setUint16(o + 1, spec.cellFeatures?.[i] ?? 0xffff, true);
  }
  spec.tiles.forEach((t, i) => {
    if (t.length !== 1024) throw new Error(`tile ${i} has ${t.length} bytes, not 1024`);
    out.set(t, offsets.tiles + i * 1024);
  });
  features.forEach((name, i) => {
    const o = offsets.features + i * 132;
    view.setUint32(o, i, true);
    for (let c = 0; c < name.length && c < 127; c++) out[o + 4 + c] = name.charCodeAt(c) & 0xff;
  });
  const m = offsets.minimap;
  view.setUint32(m, storedWidth, true);
  view.setUint32(m + 4, storedHeight, true);
  out.fill(0x64, m + 8, m + 8 + storedWidth * storedHeight);
  for (let y = 0; y < minimap.height; y++) {
    out.set(minimap.pixels.subarray(y * minimap.width, (y + 1) * minimap.width), m + 8 + y * storedWidth);
  }
  return out;
}

/** A tile whose pixel (x, y) is `(seed + x * dx + y * dy) & 0xff`: every tile tells its pixels apart. */
export function patternTile(seed: number, dx = 1, dy = 32): Uint8Array {
  const t = new Uint8Array(1024);
  for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) t[y * 32 + x] = (seed + x * dx + y * dy) & 0xff;
  return t;
}

/**
 * A deterministic example map: `tileCount` patterned tiles laid out at random, rolling heights, a few
 * features (and a void corner), and a minimap of one pixel per tile (never the void colour).
 */
export function exampleTntSpec(
  tileColumns: number,
  tileRows: number,
  options: { seed?: number; tileCount?: number; features?: string[] } = {},
): TntSpec {
  const rand = prng(options.seed ?? 13);
  const tileCount = options.tileCount ?? 24;
  const tiles = Array.from({ length: tileCount }, (_, i) => patternTile(i * 11, 1 + (i % 3), 7 + i));
  const grid = Array.from({ length: tileColumns * tileRows }, () => Math.floor(rand() * tileCount));
  const width = tileColumns * 2;
  const height = tileRows * 2;
  const heights = Array.from({ length: width * height }, (_, i) =>
    Math.floor(64 + 60 * Math.sin((i % width) / 5) * Math.cos(Math.floor(i / width) / 7)),
  );
  const features = options.features ?? ['TreeA', 'Rock03', 'ArmCorpse'];
  const cellFeatures = new Array<number>(width * height).fill(0xffff);
  for (let i = 0; i < Math.min(40, (width * height) / 8); i++)
    cellFeatures[Math.floor(rand() * width * height)] = Math.floor(rand() * features.length);
  cellFeatures[width * height - 1] = 0xfffc;
  const minimapPixels = new Uint8Array(tileColumns * tileRows).map((_, i) => 1 + ((grid[i]! * 9) % 90));
  return {
    tileColumns,
    tileRows,
    tiles,
    grid,
    heights,
    cellFeatures,
    features,
    seaLevel: 40,
    minimap: {
      width: tileColumns,
      height: tileRows,
      pixels: minimapPixels,
      storedWidth: Math.max(252, tileColumns),
      storedHeight: Math.max(252, tileRows),
    },
  };
}

/** The sister .ota of a map: a [GlobalHeader] with one schema whose specials are the start positions (x, z in pixels). */
export function writeOta(missionName: string, starts: readonly { x: number; z: number }[], planet = 'Green Planet'): Uint8Array {
  const lines = [
    '[GlobalHeader]',
    '\t{',
    `\tmissionname=${missionName};`,
    `\tplanet=${planet};`,
    '\tnumplayers=2, 4;',
    '\t[Schema 0]',
    '\t\t{',
    '\t\tType=Network 1;',
    '\t\t[specials]',
    '\t\t\t{',
  ];
  starts.forEach((s, i) => {
    lines.push(
      `\t\t\t[special${i}]`,
      '\t\t\t\t{',
      `\t\t\t\tspecialwhat=StartPos${i + 1};`,
      `\t\t\t\tXPos=${s.x};`,
      `\t\t\t\tZPos=${s.z};`,
      '\t\t\t\t}',
    );
  });
  lines.push('\t\t\t}', '\t\t}', '\t}');
  return new TextEncoder().encode(lines.join('\r\n') + '\r\n');
}

/** Palette ramps of the standard TA palette, light to dark: water, grass, sand, rock. */
const WATER = 128;
const GRASS = 160;
const SAND = 176;
const ROCK = 80;

/**
 * The demo install's map ("Great Divide", 16 × 12 tiles): a river valley between two ridges, drawn in
 * the standard TA palette's ramps from one height field, with trees, rocks and a wreck on it, a void
 * corner, a 252 × 189 minimap and four start positions. Feature names are the demo's definitions (Tree1,
 * Tree2, CarScar05, Rock1) and one the install does not define (Boulder9).
 */
export function demoTntSpec(): { spec: TntSpec; starts: { x: number; z: number }[] } {
  const tileColumns = 16;
  const tileRows = 12;
  const width = tileColumns * 32;
  const height = tileRows * 32;
  const seaLevel = 60;
  const ground = (x: number, y: number) => {
    const across = Math.abs(x / width - 0.5 - 0.08 * Math.sin(y / 40)) * 2;
    return 20 + 200 * across * across + 18 * Math.sin(x / 23) * Math.cos(y / 31);
  };
  const shade = (x: number, y: number): number => {
    const h = ground(x, y);
    // A 2 × 2 ordered dither between neighbouring shades of a ramp.
    const dither = ((x & 1) * 2 + (y & 1)) / 4;
    const step = (base: number, t: number) => base + Math.max(0, Math.min(15, Math.floor(t + dither)));
    if (h < seaLevel) return step(WATER, 3 + (seaLevel - h) / 6);
    if (h < seaLevel + 8) return step(SAND, 2 + (h - seaLevel) / 4);
    if (h < 170) return step(GRASS, 3 + (h - seaLevel) / 14);
    return step(ROCK, 2 + (230 - Math.min(230, h)) / 10);
  };
  const tiles: Uint8Array[] = [];
  const grid: number[] = [];
  for (let ty = 0; ty < tileRows; ty++) {
    for (let tx = 0; tx < tileColumns; tx++) {
      const tile = new Uint8Array(1024);
      for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) tile[y * 32 + x] = shade(tx * 32 + x, ty * 32 + y);
      grid.push(tiles.length);
      tiles.push(tile);
    }
  }
  const cw = tileColumns * 2;
  const ch = tileRows * 2;
  const heights = Array.from({ length: cw * ch }, (_, i) =>
    Math.max(0, Math.min(255, Math.round(ground((i % cw) * 16 + 8, Math.floor(i / cw) * 16 + 8)))),
  );
  const features = ['Tree1', 'Tree2', 'CarScar05', 'Rock1', 'Boulder9'];
  const cellFeatures = new Array<number>(cw * ch).fill(0xffff);
  const rand = prng(4);
  for (let i = 0; i < cw * ch; i++) {
    const h = heights[i]!;
    const r = rand();
    if (h >= seaLevel + 8 && h < 170 && r < 0.12) cellFeatures[i] = r < 0.07 ? 0 : 1;
    else if (h >= 170 && r < 0.08) cellFeatures[i] = r < 0.05 ? 3 : 4;
  }
  cellFeatures[Math.floor(ch / 2) * cw + 6] = 2;
  for (let y = ch - 3; y < ch; y++) for (let x = cw - 3; x < cw; x++) cellFeatures[y * cw + x] = 0xfffc;
  const mw = 252;
  const mh = Math.round((252 * height) / width);
  const minimap = new Uint8Array(mw * mh);
  for (let y = 0; y < mh; y++)
    for (let x = 0; x < mw; x++) minimap[y * mw + x] = shade(Math.floor(((x + 0.5) * width) / mw), Math.floor(((y + 0.5) * height) / mh));
  const starts = [
    { x: 96, z: 64 },
    { x: 416, z: 320 },
    { x: 96, z: 320 },
    { x: 416, z: 64 },
  ];
  return {
    spec: {
      tileColumns,
      tileRows,
      tiles,
      grid,
      heights,
      cellFeatures,
      features,
      seaLevel,
      minimap: { width: mw, height: mh, pixels: minimap },
    },
    starts,
  };
}
