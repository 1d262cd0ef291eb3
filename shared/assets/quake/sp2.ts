import { ByteReader } from '../../bytes/reader.js';
import { fail, FormatError } from '../../errors.js';
import type { AssetDecoder } from '../registry.js';
import type { AssetFact, ImageFrame, ImagesView } from '../view.js';
import { pcxDecoder } from '../pcx.js';

/**
 * Quake 2 sprites (.sp2): a list of frames, each naming the PCX that holds its picture (a path in the game's
 * filesystem, resolved through the mount like any other file). Layout (little-endian):
 *   "IDS2", i32 version (2), i32 frame count, then per frame 80 bytes:
 *   i32 width, height, originX, originY, char[64] PCX path (NUL-padded).
 * Pure: no Node, no DOM.
 */
export const SP2_FRAME_SIZE = 80;
const HEADER_SIZE = 12;
const MAGIC = 0x32534449; // "IDS2"
/** Quake 2's client steps sprite frames at its 10 Hz server frame rate. */
const FRAME_MS = 100;

export interface Sp2Frame {
  width: number;
  height: number;
  originX: number;
  originY: number;
  /** The PCX holding the picture, as stored ("sprites/s_explod_1.pcx"). */
  path: string;
}

export function looksSp2(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x49 && head[1] === 0x44 && head[2] === 0x53 && head[3] === 0x32;
}

export function parseSp2(bytes: Uint8Array, what = 'SP2'): Sp2Frame[] {
  const reader = new ByteReader(bytes, what);
  reader.check('header', 0, HEADER_SIZE);
  const magic = reader.u32(0);
  if (magic !== MAGIC)
    fail('bad-magic', `${what}: not a Quake 2 sprite (magic 0x${magic.toString(16)}, expected "IDS2")`, { expected: MAGIC, actual: magic });
  const version = reader.i32(4);
  if (version !== 2) fail('unsupported', `${what}: sprite version ${version}, expected 2`, { expected: 2, actual: version });
  const count = reader.i32(8);
  reader.checkTable('frames', HEADER_SIZE, count, SP2_FRAME_SIZE);
  const frames: Sp2Frame[] = [];
  for (let i = 0; i < count; i++) {
    const at = HEADER_SIZE + i * SP2_FRAME_SIZE;
    frames.push({
      width: reader.i32(at),
      height: reader.i32(at + 4),
      originX: reader.i32(at + 8),
      originY: reader.i32(at + 12),
      path: reader.fixedString(at + 16, 64, `frame ${i} name`),
    });
  }
  return frames;
}

/**
 * The studio's view: every frame's PCX read from the install and decoded by the PCX decoder (each carries its
 * own palette), animated at 10 Hz. A frame whose PCX the install lacks, or cannot be read, is named in a
 * warning, as is a picture whose size differs from the size the sprite declares.
 */
export const sp2Decoder: AssetDecoder = {
  id: 'sp2',
  accepts: (name, head) => /\.sp2$/i.test(name) && looksSp2(head),
  async view(name, bytes, context) {
    const frames = parseSp2(bytes, name);
    const shown: ImageFrame[] = [];
    const warnings: string[] = [];
    const palettes = new Set<string>();
    for (const [i, f] of frames.entries()) {
      const pcx = f.path ? await context.readFile(f.path) : null;
      if (!pcx) {
        warnings.push(`frame ${i}: ${f.path || '(no name)'} is not in the install`);
        continue;
      }
      try {
        const view = await pcxDecoder.view(f.path, pcx, context);
        const image = view.kind === 'images' ? view.groups[0]?.frames[0]?.image : undefined;
        if (!image) continue;
        if (view.kind === 'images' && view.palette) palettes.add(view.palette);
        if (image.width !== f.width || image.height !== f.height)
          warnings.push(`frame ${i}: ${f.path} is ${image.width} × ${image.height}, the sprite says ${f.width} × ${f.height}`);
        shown.push({ image, durationMs: FRAME_MS, label: `${f.path} (origin ${f.originX}, ${f.originY})` });
      } catch (err) {
        if (!(err instanceof FormatError)) throw err;
        warnings.push(`frame ${i}: ${err.message}`);
      }
    }
    const facts: AssetFact[] = [
      { label: 'Version', value: '2 (Quake 2)' },
      { label: 'Frames', value: String(frames.length) },
      { label: 'Frame files', value: frames.map((f) => f.path).join(', ') || 'none' },
    ];
    const view: ImagesView = {
      kind: 'images',
      format: 'Quake 2 sprite',
      groups: [{ name: 'frames', frames: shown }],
      facts,
      warnings,
      ...(palettes.size > 0 ? { palette: palettes.size === 1 ? [...palettes][0]! : "each frame's own palette" } : {}),
    };
    return view;
  },
};
