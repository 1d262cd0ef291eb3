import { fail } from '../../errors.js';
import type { Palette, RgbaImage } from '../image.js';
import type { AssetDecoder } from '../registry.js';
import type { ImagesView } from '../view.js';

/**
 * TA's palette files (palettes/PALETTE.PAL and the per-map palettes): 256 entries of R, G, B and an unused
 * fourth byte. Pure: no Node, no DOM.
 */
export const PAL_BYTES = 1024;

export interface DecodedPal {
  palette: Palette;
  /** Entries whose fourth byte is not 0 (Cavedog's are all 0; some editors store a flag there). */
  nonZeroUnused: number;
  /** Bytes after the 1024 that were ignored. */
  trailing: number;
}

export function decodePal(bytes: Uint8Array, name = 'palette'): DecodedPal {
  if (bytes.length < PAL_BYTES)
    fail('truncated', `${name}: a TA palette is ${PAL_BYTES} bytes (256 × R, G, B, unused), found ${bytes.length}`, {
      expected: PAL_BYTES,
      actual: bytes.length,
    });
  const rgba = new Uint8Array(PAL_BYTES);
  let nonZeroUnused = 0;
  for (let i = 0; i < 256; i++) {
    rgba[i * 4] = bytes[i * 4]!;
    rgba[i * 4 + 1] = bytes[i * 4 + 1]!;
    rgba[i * 4 + 2] = bytes[i * 4 + 2]!;
    rgba[i * 4 + 3] = 255;
    if (bytes[i * 4 + 3] !== 0) nonZeroUnused++;
  }
  return { palette: { name, rgba }, nonZeroUnused, trailing: bytes.length - PAL_BYTES };
}

/** The palette as a 16 × 16 grid, index 0 top left, row by row; each colour `cell` pixels square. */
export function paletteSwatch(palette: Palette, cell = 1): RgbaImage {
  if (!Number.isSafeInteger(cell) || cell < 1 || cell > 256) throw new Error(`swatch cell size ${cell} is not 1–256`);
  const size = 16 * cell;
  const rgba = new Uint8Array(size * size * 4);
  const out = new Uint32Array(rgba.buffer);
  const colours = new Uint32Array(palette.rgba.slice(0, 1024).buffer);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) out[y * size + x] = colours[((y / cell) | 0) * 16 + ((x / cell) | 0)]!;
  }
  return { width: size, height: size, rgba };
}

function hex(palette: Palette, index: number): string {
  const c = palette.rgba.subarray(index * 4, index * 4 + 3);
  return '#' + Array.from(c, (v) => v.toString(16).padStart(2, '0')).join('');
}

export function palView(name: string, bytes: Uint8Array): ImagesView {
  const { palette, nonZeroUnused, trailing } = decodePal(bytes, name);
  const warnings: string[] = [];
  if (trailing > 0) warnings.push(`${trailing} bytes after the 256 entries were ignored`);
  return {
    kind: 'images',
    format: 'PAL (TA palette)',
    facts: [
      { label: 'Entries', value: '256' },
      { label: 'Index 0', value: hex(palette, 0) },
      { label: 'Index 255', value: hex(palette, 255) },
      { label: 'Unused bytes', value: nonZeroUnused === 0 ? 'all 0' : `${nonZeroUnused} entries not 0` },
    ],
    warnings,
    groups: [{ name: 'swatch', frames: [{ image: paletteSwatch(palette), label: '16 × 16, index 0 top left', paletteGrid: 16 }] }],
    palette: name,
  };
}

/** A RIFF palette (Windows .pal) starts with "RIFF"; TA's are raw. */
function isRiff(head: Uint8Array): boolean {
  return head[0] === 0x52 && head[1] === 0x49 && head[2] === 0x46 && head[3] === 0x46;
}

export const palDecoder: AssetDecoder = {
  id: 'pal',
  accepts: (name, head) => /\.pal$/i.test(name) && !isRiff(head),
  view: async (name, bytes) => palView(name, bytes),
};
