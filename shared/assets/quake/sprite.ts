import { ByteReader } from '../../bytes/reader.js';
import { fail } from '../../errors.js';
import { checkImageSize, type Palette } from '../image.js';
import { readCountedPalette } from './palette.js';

/**
 * Sprites (.spr). Quake ("IDSP" version 1, 36-byte header): i32 type, f32 radius, i32 maxwidth, maxheight,
 * numframes, f32 beamlength, i32 synctype. Half-Life (version 2, 40 bytes) adds i32 texFormat after the type
 * and follows the header with its palette (u16 count, RGB). Then numframes frames, each i32 kind:
 *   0 single: i32 originX, originY, width, height, width × height indices
 *   1 group:  i32 count, f32 intervals[count] (cumulative seconds), then count singles without the kind
 * Quake draws index 255 as nothing; Half-Life does for its alpha-test format (texFormat 3).
 */

export interface SpriteFrame {
  width: number;
  height: number;
  originX: number;
  originY: number;
  indices: Uint8Array;
}

export interface SpriteGroup {
  /** A single frame is a group of one. */
  single: boolean;
  frames: SpriteFrame[];
  /** Seconds each frame shows, in a group. */
  intervals: number[];
}

export interface Sprite {
  version: 1 | 2;
  type: number;
  texFormat?: number;
  maxWidth: number;
  maxHeight: number;
  syncType: number;
  groups: SpriteGroup[];
  palette?: Palette;
  transparentIndex: number;
}

const MAGIC = 0x50534449; // 'IDSP'
/** Frames and group members a sprite may declare: far more than any game sprite, checked before any loop. */
const MAX_FRAMES = 4096;

export function isSprite(head: Uint8Array): boolean {
  return (
    head.length >= 8 &&
    head[0] === 0x49 &&
    head[1] === 0x44 &&
    head[2] === 0x53 &&
    head[3] === 0x50 &&
    (head[4] === 1 || head[4] === 2) &&
    head[5] === 0
  );
}

export function decodeSprite(bytes: Uint8Array, what: string): Sprite {
  const r = new ByteReader(bytes, what);
  if (r.u32(0, 'magic') !== MAGIC) fail('bad-magic', `${what}: not a sprite (no IDSP magic)`);
  const version = r.i32(4, 'version');
  if (version !== 1 && version !== 2) fail('unsupported', `${what}: sprite version ${version} is not Quake's 1 or Half-Life's 2`);
  const type = r.i32(8, 'type');
  const shift = version === 2 ? 4 : 0;
  const texFormat = version === 2 ? r.i32(12, 'texture format') : undefined;
  const maxWidth = r.i32(16 + shift, 'max width');
  const maxHeight = r.i32(20 + shift, 'max height');
  const count = r.i32(24 + shift, 'frame count');
  const syncType = r.i32(32 + shift, 'sync type');
  if (count < 1 || count > MAX_FRAMES) fail('bad-count', `${what}: ${count} frames (1 to ${MAX_FRAMES})`, { actual: count });
  let at = 36 + shift;
  let palette: Palette | undefined;
  if (version === 2) {
    palette = readCountedPalette(r, at, `palette of ${what}`);
    at += 2 + r.u16(at) * 3;
  }
  const readFrame = (): SpriteFrame => {
    const originX = r.i32(at, 'frame origin x');
    const originY = r.i32(at + 4, 'frame origin y');
    const width = r.i32(at + 8, 'frame width');
    const height = r.i32(at + 12, 'frame height');
    checkImageSize(`${what}: frame at ${at}`, width, height);
    const indices = r.slice(at + 16, width * height, `frame at ${at} (${width} × ${height})`);
    at += 16 + width * height;
    return { originX, originY, width, height, indices };
  };
  const groups: SpriteGroup[] = [];
  for (let i = 0; i < count; i++) {
    const kind = r.i32(at, `frame ${i} kind`);
    at += 4;
    if (kind === 0) {
      groups.push({ single: true, frames: [readFrame()], intervals: [] });
    } else if (kind === 1) {
      const members = r.i32(at, `frame ${i} group size`);
      if (members < 1 || members > MAX_FRAMES)
        fail('bad-count', `${what}: frame ${i} groups ${members} frames (1 to ${MAX_FRAMES})`, { actual: members });
      r.checkTable(`frame ${i} intervals`, at + 4, members, 4);
      const intervals = Array.from({ length: members }, (_, k) => r.f32(at + 4 + k * 4));
      at += 4 + members * 4;
      const frames = Array.from({ length: members }, readFrame);
      groups.push({ single: false, frames, intervals });
    } else {
      fail('bad-stream', `${what}: frame ${i} has kind ${kind}, not 0 (single) or 1 (group)`, { offset: at - 4, actual: kind });
    }
  }
  const transparentIndex = version === 1 || texFormat === 3 ? 255 : -1;
  return { version, type, texFormat, maxWidth, maxHeight, syncType, groups, palette, transparentIndex };
}
