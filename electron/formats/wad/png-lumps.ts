import { fail } from '../../../shared/errors.js';
import { decodePng } from '../../../shared/assets/png.js';
import { encodeMiptex, transparentIndexFor } from '../../../shared/assets/quake/miptex.js';
import { Quantiser, paletteForImage } from '../../../shared/assets/quake/quantise.js';
import type { LumpConverter } from './writer.js';

/**
 * A PNG in a folder packed as a WAD becomes a miptex named after the file (without `.png`), with its four
 * mip levels. WAD2: mapped to the palette given (`--palette`, Quake's gfx/palette.lmp); colours the
 * palette has exactly keep their index, others take the nearest of 0..223 (224..255 glow in the dark).
 * WAD3: the texture gets its own palette from its colours. A `{` name makes alpha below 128 index 255.
 */
export const pngToMiptex: LumpConverter = (file, data, version, options) => {
  if (!/\.png$/i.test(file.path)) return null;
  const name = file.path.slice(0, -4);
  const image = decodePng(data, file.path);
  if (image.width % 8 !== 0 || image.height % 8 !== 0) {
    fail(
      'refused',
      `${file.path} is ${image.width} × ${image.height}: a miptex's sides must be multiples of 8 (16 for the games' own tools)`,
    );
  }
  const transparentIndex = transparentIndexFor(name);
  let paletteRgb: Uint8Array;
  let opaqueRange: [number, number];
  if (version === 3) {
    paletteRgb = paletteForImage(image, transparentIndex >= 0);
    opaqueRange = [0, 255];
  } else {
    if (!options.paletteRgb)
      fail('refused', `${file.path}: a WAD2 miptex is paletted: name Quake's palette with --palette (gfx/palette.lmp)`);
    paletteRgb = options.paletteRgb;
    opaqueRange = [0, 223];
  }
  const quantiser = new Quantiser({ paletteRgb, opaqueRange, transparentIndex });
  const bytes = encodeMiptex(name, image.width, image.height, quantiser.mips(image), version === 3 ? paletteRgb : undefined);
  return { name, kind: 'miptex', bytes };
};
