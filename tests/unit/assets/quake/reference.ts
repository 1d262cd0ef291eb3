import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { samplesDir } from '../../../helpers/run-cli.js';

/**
 * Reference readers written in the tests from the formats' descriptions, independent of the decoders under
 * test: they give the known answers (dimensions, names, pixels) the CLI's output is compared with.
 */

export const sample = (...parts: string[]) => new Uint8Array(readFileSync(join(samplesDir, ...parts)));
export const quakeAssets = (...parts: string[]) => join(samplesDir, 'quake-assets', ...parts);

const dv = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.length);
export const i32 = (b: Uint8Array, at: number) => dv(b).getInt32(at, true);
export const cstr = (b: Uint8Array, at: number, size: number) => {
  const field = b.subarray(at, at + size);
  const end = field.indexOf(0);
  return String.fromCharCode(...field.subarray(0, end < 0 ? size : end));
};

/** Paletted pixels to RGBA, one colour at a time: RGB from `rgb`, alpha 0 for `transparent`. */
export function expand(indices: Uint8Array, rgb: Uint8Array, transparent = -1): Uint8Array {
  const out = new Uint8Array(indices.length * 4);
  indices.forEach((index, i) => {
    if (index === transparent) return;
    out[i * 4] = rgb[index * 3]!;
    out[i * 4 + 1] = rgb[index * 3 + 1]!;
    out[i * 4 + 2] = rgb[index * 3 + 2]!;
    out[i * 4 + 3] = 255;
  });
  return out;
}

/** A file inside a Quake PAK: 'PACK', dirofs, dirlen; 64-byte entries name[56], filepos, filelen. */
export function pakFile(pak: Uint8Array, path: string): Uint8Array {
  const dir = i32(pak, 4);
  const len = i32(pak, 8);
  for (let at = dir; at < dir + len; at += 64) {
    if (cstr(pak, at, 56) === path) return pak.subarray(i32(pak, at + 56), i32(pak, at + 56) + i32(pak, at + 60));
  }
  throw new Error(`${path} is not in the PAK`);
}

/** A miptex at `at`: name[16], width, height, offsets[4] from its start; level k is (w >> k) × (h >> k). */
export function miptexRef(b: Uint8Array, at = 0) {
  const width = i32(b, at + 16);
  const height = i32(b, at + 20);
  const offsets = [0, 1, 2, 3].map((k) => i32(b, at + 24 + k * 4));
  const levels = offsets.map((o, k) => ({
    width: width >> k,
    height: height >> k,
    indices: b.subarray(at + o, at + o + (width >> k) * (height >> k)),
  }));
  const last = levels[3]!;
  const paletteAt = at + offsets[3]! + last.width * last.height;
  return { name: cstr(b, at, 16), width, height, offsets, levels, paletteAt };
}

/** A Half-Life palette: u16 count then RGB. */
export function countedPalette(b: Uint8Array, at: number): Uint8Array {
  const count = b[at]! | (b[at + 1]! << 8);
  const rgb = new Uint8Array(768);
  rgb.set(b.subarray(at + 2, at + 2 + count * 3));
  return rgb;
}

/** The palette at the end of an 8-bit PCX (0x0C, then 768 bytes). */
export function pcxTailPalette(pcx: Uint8Array): Uint8Array {
  if (pcx[pcx.length - 769] !== 0x0c) throw new Error('no PCX palette');
  return pcx.subarray(pcx.length - 768);
}

/** An 8-bit, one-plane RLE PCX's indices: a byte ≥ 0xC0 is a run of (b & 63) of the next byte. */
export function pcx8Ref(pcx: Uint8Array) {
  const u16 = (at: number) => pcx[at]! | (pcx[at + 1]! << 8);
  const width = u16(8) - u16(4) + 1;
  const height = u16(10) - u16(6) + 1;
  const bytesPerLine = u16(66);
  const raw: number[] = [];
  for (let i = 128; raw.length < bytesPerLine * height; i++) {
    const b = pcx[i]!;
    if (b >= 0xc0) {
      for (let k = 0; k < (b & 63); k++) raw.push(pcx[i + 1]!);
      i++;
    } else raw.push(b);
  }
  const indices = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) indices[y * width + x] = raw[y * bytesPerLine + x]!;
  return { width, height, indices };
}

/** Two pixel buffers are equal; on a difference, the first differing pixel is named (toEqual on megabytes is slow). */
export function expectSamePixels(actual: Uint8Array, expected: Uint8Array, width: number): void {
  if (
    actual.length === expected.length &&
    Buffer.from(actual.buffer, actual.byteOffset, actual.length).equals(Buffer.from(expected.buffer, expected.byteOffset, expected.length))
  )
    return;
  let i = 0;
  while (i < Math.min(actual.length, expected.length) && actual[i] === expected[i]) i++;
  const pixel = Math.floor(i / 4);
  throw new Error(
    `pixels differ: ${actual.length} vs ${expected.length} bytes; first at pixel ${pixel % width}, ${Math.floor(pixel / width)}: [${[...actual.subarray(pixel * 4, pixel * 4 + 4)]}] vs [${[...expected.subarray(pixel * 4, pixel * 4 + 4)]}]`,
  );
}
