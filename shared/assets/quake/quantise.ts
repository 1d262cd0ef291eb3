import type { RgbaImage } from '../image.js';
import { MIP_LEVELS, mipSize } from './miptex.js';

/**
 * Truecolour pictures back to palette indices, for writing miptex from PNGs. A colour the palette holds
 * exactly keeps its index (so a PNG exported from a texture packs back to the same pixels); any other
 * colour takes the nearest of `opaqueRange` (Quake: 0..223, which leaves out the fullbright colours that
 * would glow in the dark). Pixels with alpha below 128 become `transparentIndex` when there is one.
 */

export interface QuantiseOptions {
  /** RGB palette, 768 bytes. */
  paletteRgb: Uint8Array;
  /** Indices a non-exact colour may take: [first, last]. */
  opaqueRange: readonly [number, number];
  /** The index for transparent pixels, or -1 (alpha ignored). */
  transparentIndex: number;
}

export class Quantiser {
  private readonly exact = new Map<number, number>();
  private readonly cache = new Map<number, number>();

  constructor(private readonly options: QuantiseOptions) {
    const rgb = options.paletteRgb;
    // The lowest index wins for a colour listed twice, but never the transparent index.
    for (let i = 255; i >= 0; i--) {
      if (i === options.transparentIndex) continue;
      this.exact.set((rgb[i * 3]! << 16) | (rgb[i * 3 + 1]! << 8) | rgb[i * 3 + 2]!, i);
    }
  }

  index(r: number, g: number, b: number): number {
    const key = (r << 16) | (g << 8) | b;
    const exact = this.exact.get(key) ?? this.cache.get(key);
    if (exact !== undefined) return exact;
    const rgb = this.options.paletteRgb;
    const [first, last] = this.options.opaqueRange;
    let best = first;
    let bestDistance = Infinity;
    for (let i = first; i <= last; i++) {
      if (i === this.options.transparentIndex) continue;
      const dr = rgb[i * 3]! - r;
      const dg = rgb[i * 3 + 1]! - g;
      const db = rgb[i * 3 + 2]! - b;
      const distance = dr * dr + dg * dg + db * db;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = i;
      }
    }
    this.cache.set(key, best);
    return best;
  }

  /**
   * Mip level `level` of `image`: each pixel the average of its 2^level square, or transparent when most of
   * the square is. Level 0 maps pixel for pixel.
   */
  mip(image: RgbaImage, level: number): Uint8Array {
    const { width, height } = mipSize(image.width, image.height, level);
    const step = 1 << level;
    const out = new Uint8Array(width * height);
    const { rgba } = image;
    const transparent = this.options.transparentIndex;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let r = 0,
          g = 0,
          b = 0,
          opaque = 0;
        for (let dy = 0; dy < step; dy++) {
          for (let dx = 0; dx < step; dx++) {
            const p = ((y * step + dy) * image.width + x * step + dx) * 4;
            if (transparent >= 0 && rgba[p + 3]! < 128) continue;
            r += rgba[p]!;
            g += rgba[p + 1]!;
            b += rgba[p + 2]!;
            opaque++;
          }
        }
        const mostlyTransparent = transparent >= 0 && opaque * 2 < step * step;
        out[y * width + x] = mostlyTransparent
          ? transparent
          : this.index(Math.round(r / opaque), Math.round(g / opaque), Math.round(b / opaque));
      }
    }
    return out;
  }

  /** The four miptex levels of `image`. */
  mips(image: RgbaImage): Uint8Array[] {
    return Array.from({ length: MIP_LEVELS }, (_, level) => this.mip(image, level));
  }
}

/**
 * A 256-colour palette for one picture (Half-Life miptex carry their own): its distinct opaque colours when
 * there are at most 255 of them (in order of first appearance), else a median cut to 255. Index 255 is kept
 * for transparency (blue, as Valve's tools leave it) when `reserveLast`; otherwise it may hold a colour too.
 */
export function paletteForImage(image: RgbaImage, reserveLast: boolean): Uint8Array {
  const limit = reserveLast ? 255 : 256;
  const seen = new Map<number, number>();
  const { rgba } = image;
  for (let p = 0; p < rgba.length; p += 4) {
    if (reserveLast && rgba[p + 3]! < 128) continue;
    const key = (rgba[p]! << 16) | (rgba[p + 1]! << 8) | rgba[p + 2]!;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const colours = seen.size <= limit ? [...seen.keys()] : medianCut([...seen.entries()], limit);
  const rgb = new Uint8Array(768);
  colours.forEach((c, i) => {
    rgb[i * 3] = (c >> 16) & 0xff;
    rgb[i * 3 + 1] = (c >> 8) & 0xff;
    rgb[i * 3 + 2] = c & 0xff;
  });
  if (reserveLast) rgb.set([0, 0, 255], 255 * 3);
  return rgb;
}

/** Split the colour cloud along its widest channel until there are `limit` boxes; each box gives its weighted mean. */
function medianCut(colours: [number, number][], limit: number): number[] {
  type Box = [number, number][];
  const channel = (c: number, k: number) => (c >> (16 - 8 * k)) & 0xff;
  const spread = (box: Box): [number, number] => {
    let bestChannel = 0,
      bestRange = -1;
    for (let k = 0; k < 3; k++) {
      let lo = 255,
        hi = 0;
      for (const [c] of box) {
        const v = channel(c, k);
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      if (hi - lo > bestRange) {
        bestRange = hi - lo;
        bestChannel = k;
      }
    }
    return [bestChannel, bestRange];
  };
  const boxes: Box[] = [colours];
  while (boxes.length < limit) {
    let pick = -1,
      pickRange = 0,
      pickChannel = 0;
    boxes.forEach((box, i) => {
      if (box.length < 2) return;
      const [k, range] = spread(box);
      if (range > pickRange) {
        pick = i;
        pickRange = range;
        pickChannel = k;
      }
    });
    if (pick < 0) break;
    const box = boxes[pick]!;
    box.sort((a, b) => channel(a[0], pickChannel) - channel(b[0], pickChannel));
    const half = box.length >> 1;
    boxes.splice(pick, 1, box.slice(0, half), box.slice(half));
  }
  return boxes.map((box) => {
    let r = 0,
      g = 0,
      b = 0,
      n = 0;
    for (const [c, weight] of box) {
      r += channel(c, 0) * weight;
      g += channel(c, 1) * weight;
      b += channel(c, 2) * weight;
      n += weight;
    }
    return (Math.round(r / n) << 16) | (Math.round(g / n) << 8) | Math.round(b / n);
  });
}
