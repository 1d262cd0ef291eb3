import { ByteReader } from '../../bytes/reader.js';
import { fail } from '../../errors.js';

/**
 * TA's GAF sprite files: a list of entries (sequences), each a 32-byte name and a list of frames with
 * durations; each frame a 24-byte record whose pixels are raw, row-RLE, or a list of layered sub-frames
 * (each a 24-byte record of its own). Also version 0 (Cavedog's terrain.gaf, otherwise identical) and
 * TA3D's truecolour variant 0x00010101 (zlib-compressed R, G, B, A frames). TA: Kingdoms' TAF (16-bit
 * 1555/4444 frames) is recognised and refused by name.
 * This module reads the structure only; gaf-pixels.ts turns a frame into pixels, on demand.
 * Pure: no Node, no DOM.
 */

export const GAF_VERSION_TA = 0x00010100;
export const GAF_VERSION_TERRAIN = 0;
export const GAF_VERSION_TA3D_TRUECOLOUR = 0x00010101;

export type GafVariant = 'ta' | 'ta-terrain' | 'ta3d-truecolour';

/** Pixel data encodings of a frame record (TA:K's 4 and 5 are TAF's 16-bit ones). */
export const GAF_RAW = 0;
export const GAF_RLE = 1;
const TAF_4444 = 4;
const TAF_1555 = 5;

/** No TA frame is anywhere near these; a header that claims more is damaged (checked before allocating). */
export const MAX_GAF_SIDE = 4096;
export const MAX_GAF_PIXELS = 1 << 22;

/** One pixel layer: a frame's own pixels, or one of its sub-frames. */
export interface GafLayer {
  width: number;
  height: number;
  xOffset: number;
  yOffset: number;
  /** The palette index drawn as transparent (TA: always 9). Truecolour: 1 when the frame has alpha. */
  transparencyIndex: number;
  /** GAF_RAW or GAF_RLE (truecolour frames: ignored, always zlib). */
  encoding: number;
  /** Where the pixels start (raw, RLE rows, or the truecolour u32 size + zlib stream). */
  dataOffset: number;
}

export interface GafFrame extends GafLayer {
  /** How long TA shows it, in game ticks (the frame entry's second field; often 0 in unit GAFs). */
  duration: number;
  /** The sub-frames drawn in order onto the frame's canvas; empty when the frame is its own pixels. */
  subFrames: GafLayer[];
}

export interface GafSequence {
  name: string;
  frames: GafFrame[];
}

export interface GafFile {
  version: number;
  variant: GafVariant;
  sequences: GafSequence[];
  warnings: string[];
}

const HEADER_BYTES = 12;
const ENTRY_BYTES = 40;
const FRAME_ENTRY_BYTES = 8;
export const FRAME_RECORD_BYTES = 24;

export function variantOf(version: number): GafVariant | null {
  if (version === GAF_VERSION_TA) return 'ta';
  if (version === GAF_VERSION_TERRAIN) return 'ta-terrain';
  if (version === GAF_VERSION_TA3D_TRUECOLOUR) return 'ta3d-truecolour';
  return null;
}

export function describeVariant(variant: GafVariant): string {
  if (variant === 'ta') return 'GAF (TA)';
  if (variant === 'ta-terrain') return 'GAF (TA, version 0 as in terrain.gaf)';
  return 'GAF (TA3D truecolour)';
}

/** Whether bytes look like a GAF header without the name's help (version 0 is too common a start to count). */
export function looksLikeGaf(head: Uint8Array): boolean {
  if (head.length < HEADER_BYTES) return false;
  const version = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(0, true);
  return version === GAF_VERSION_TA || version === GAF_VERSION_TA3D_TRUECOLOUR;
}

function notTaf(what: string): never {
  return fail('unsupported', `${what}: TA:K TAF: not supported yet (16-bit 1555/4444 frames)`);
}

export function readGaf(bytes: Uint8Array, what = 'GAF'): GafFile {
  const r = new ByteReader(bytes, what);
  if (/\.taf$/i.test(what)) notTaf(what);
  const version = r.u32(0, 'header');
  const variant = variantOf(version);
  if (!variant)
    fail(
      'bad-magic',
      `${what}: not a GAF (version 0x${version.toString(16).padStart(8, '0')}; expected 0x00010100, 0 or TA3D's 0x00010101)`,
      { actual: version },
    );
  const count = r.u32(4, 'entry count');
  r.checkTable('entry pointers', HEADER_BYTES, count, 4);
  const warnings: string[] = [];
  if (r.u32(8) !== 0) warnings.push(`header's third field is 0x${r.u32(8).toString(16)}, not 0`);

  // Entries may point at shared records; a budget on records read keeps a file whose pointers all alias
  // one big entry from making count × frames objects.
  let budget = Math.floor(bytes.length / FRAME_ENTRY_BYTES) + 16;
  const spend = (n: number) => {
    budget -= n;
    if (budget < 0) fail('bad-count', `${what}: more frame records than a ${bytes.length}-byte file can hold (entries overlap)`);
  };

  const readLayer = (at: number, field: string): GafLayer & { subCount: number } => {
    r.check(field, at, FRAME_RECORD_BYTES);
    const layer = {
      width: r.u16(at),
      height: r.u16(at + 2),
      xOffset: r.i16(at + 4),
      yOffset: r.i16(at + 6),
      transparencyIndex: r.u8(at + 8),
      encoding: r.u8(at + 9),
      subCount: r.u16(at + 10),
      dataOffset: r.u32(at + 16),
    };
    if (variant !== 'ta3d-truecolour') {
      if (layer.encoding === TAF_4444 || layer.encoding === TAF_1555) notTaf(what);
      if (layer.encoding !== GAF_RAW && layer.encoding !== GAF_RLE)
        fail('unsupported', `${what}: ${field} uses pixel encoding ${layer.encoding} (TA knows 0, raw, and 1, row RLE)`, {
          offset: at,
          actual: layer.encoding,
        });
    }
    if (layer.width > MAX_GAF_SIDE || layer.height > MAX_GAF_SIDE || layer.width * layer.height > MAX_GAF_PIXELS) {
      fail(
        'bad-count',
        `${what}: ${field} claims ${layer.width} × ${layer.height} pixels (at most ${MAX_GAF_SIDE} a side, ${MAX_GAF_PIXELS} in all)`,
        { offset: at },
      );
    }
    return layer;
  };

  const sequences: GafSequence[] = [];
  for (let e = 0; e < count; e++) {
    const entryAt = r.u32(HEADER_BYTES + e * 4, `entry ${e} pointer`);
    r.check(`entry ${e}`, entryAt, ENTRY_BYTES);
    const frameCount = r.u16(entryAt);
    const name = r.fixedString(entryAt + 8, 32, `entry ${e} name`);
    r.checkTable(`entry ${e} (${name}) frames`, entryAt + ENTRY_BYTES, frameCount, FRAME_ENTRY_BYTES);
    spend(frameCount);
    const frames: GafFrame[] = [];
    for (let f = 0; f < frameCount; f++) {
      const at = entryAt + ENTRY_BYTES + f * FRAME_ENTRY_BYTES;
      const recordAt = r.u32(at);
      const duration = r.u32(at + 4);
      const label = `${name} frame ${f}`;
      const { subCount, ...frame } = readLayer(recordAt, label);
      const subFrames: GafLayer[] = [];
      if (subCount > 0 && variant !== 'ta3d-truecolour') {
        r.checkTable(`${label} sub-frame pointers`, frame.dataOffset, subCount, 4);
        spend(subCount);
        for (let s = 0; s < subCount; s++) {
          const subAt = r.u32(frame.dataOffset + s * 4);
          const { subCount: nested, ...sub } = readLayer(subAt, `${label} sub-frame ${s}`);
          if (nested > 0)
            fail('unsupported', `${what}: ${label} sub-frame ${s} has sub-frames of its own (${nested}); TA draws one level`, {
              offset: subAt,
            });
          subFrames.push(sub);
        }
      } else if (subCount > 0) {
        warnings.push(`${label}: ${subCount} sub-frames ignored (TA3D's truecolour frames are one layer)`);
      }
      frames.push({ ...frame, duration, subFrames });
    }
    sequences.push({ name, frames });
  }
  return { version, variant, sequences, warnings };
}

/** The number of pixel layers a frame draws: its sub-frames, or 1 for its own pixels. */
export function layerCount(frame: GafFrame): number {
  return frame.subFrames.length > 0 ? frame.subFrames.length : 1;
}

/**
 * TA's duration unit is a game tick; the game simulates 30 ticks a second at normal speed, so one tick is
 * 1000 / 30 ms. A duration of 0 (most unit GAFs) has no time of its own: undefined, the viewer picks.
 */
export const MS_PER_TICK = 1000 / 30;

export function durationMs(ticks: number): number | undefined {
  return ticks > 0 ? Math.round(ticks * MS_PER_TICK) : undefined;
}
