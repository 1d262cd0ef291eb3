import { checkImageSize, indexedToRgba, type Palette } from '../image.js';
import { ByteReader } from '../../bytes/reader.js';
import type { AssetContext, AssetDecoder } from '../registry.js';
import type { AssetFact, ImageGroup, ImagesView, SectionsView } from '../view.js';
import { decodePaletteLmp, paletteSwatches, readCountedPalette, PALETTE_RGB_BYTES } from './palette.js';
import { decodeConchars, decodeQpic, isConchars, looksLikeQpic } from './qpic.js';
import { decodeMiptex, looksLikeMiptex, type Miptex } from './miptex.js';
import { decodeWal } from './wal.js';
import { decodeSprite } from './sprite.js';
import { countEntities, decodeBsp, lumpCounts } from './bsp.js';
import { wadLumpKind, type WadVersion } from './wad-types.js';
import { guessLumpKind } from './wad-lumps.js';
import { describeContents, describeSurfaceFlags } from './q2-flags.js';

/**
 * The Quake family's AssetDecoders: qpic/palette/colormap LMPs, WAL (Quake 2 and Daikatana), SPR, BSP,
 * and the lumps of a WAD (miptex, qpic, palette, conchars, Half-Life fonts). Each view names its palette:
 * the install's winner for Quake (gfx/palette.lmp) and Quake 2 (pics/colormap.pcx), or the file's own.
 */

const extension = (name: string) => name.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? '';

function imagesView(
  format: string,
  groups: ImageGroup[],
  palette: Palette | string | undefined,
  facts: AssetFact[] = [],
  warnings: string[] = [],
): ImagesView {
  return { kind: 'images', format, groups, palette: typeof palette === 'string' ? palette : palette?.name, facts, warnings };
}

function single(name: string, width: number, height: number, indices: Uint8Array, palette: Palette, transparent: number): ImageGroup {
  return { name, frames: [{ image: indexedToRgba(width, height, indices, palette, transparent) }] };
}

const sizeFact = (width: number, height: number): AssetFact => ({ label: 'Size', value: `${width} × ${height}` });

/** One group per mip level ("mip 0" is the full size). */
export function miptexGroups(miptex: Pick<Miptex, 'mips' | 'transparentIndex'>, palette: Palette): ImageGroup[] {
  return miptex.mips.map((m, level) => single(`mip ${level}`, m.width, m.height, m.indices, palette, miptex.transparentIndex));
}

export async function miptexView(miptex: Miptex, context: AssetContext, format: string): Promise<ImagesView> {
  const palette = miptex.palette ?? (await context.palette('quake'));
  const facts = [{ label: 'Name', value: miptex.name }, sizeFact(miptex.width, miptex.height)];
  if (miptex.transparentIndex >= 0) facts.push({ label: 'Transparent', value: `index ${miptex.transparentIndex}` });
  return imagesView(format, miptexGroups(miptex, palette), palette, facts);
}

/** A Half-Life font (WAD3 type 0x46): i32 width (256), height, rowcount, rowheight, 256 × {u16 offset, u16 width}, pixels, palette. */
function fontView(name: string, bytes: Uint8Array): ImagesView {
  const reader = new ByteReader(bytes, name);
  const width = reader.i32(0, 'font width');
  const height = reader.i32(4, 'font height');
  checkImageSize(name, width, height);
  const headerSize = 16 + 256 * 4;
  const indices = reader.slice(headerSize, width * height, `font pixels (${width} × ${height})`);
  const palette = readCountedPalette(reader, headerSize + width * height, `palette of ${name}`);
  return imagesView('Half-Life font', [single('font', width, height, indices, palette, 255)], palette, [sizeFact(width, height)]);
}

/** A WAD lump as a picture, its type named by the WAD's directory (or guessed from its bytes). */
export async function wadLumpView(
  name: string,
  bytes: Uint8Array,
  version: WadVersion,
  type: number | string | null,
  context: AssetContext,
): Promise<ImagesView> {
  const kind = type === null ? guessLumpKind(name, bytes, version) : typeof type === 'string' ? type : wadLumpKind(version, type);
  const label = `WAD${version} ${kind}`;
  if (version === 2 && isConchars(name, bytes)) return concharsView(name, bytes, context);
  if (kind === 'miptex' || (kind === 'palette' && version === 3 && looksLikeMiptex(bytes)))
    return miptexView(decodeMiptex(bytes, name, version === 3), context, `${label} (${version === 3 ? 'Half-Life' : 'Quake'})`);
  if (kind === 'qpic' || looksLikeQpic(bytes, version === 3)) {
    const pic = decodeQpic(bytes, name, version === 3);
    const palette = pic.palette ?? (await context.palette('quake'));
    return imagesView(
      `WAD${version} qpic`,
      [single('picture', pic.width, pic.height, pic.indices, palette, pic.transparentIndex)],
      palette,
      [sizeFact(pic.width, pic.height)],
    );
  }
  if (kind === 'font' && version === 3) return fontView(name, bytes);
  if (bytes.length === PALETTE_RGB_BYTES) return paletteView(name, bytes);
  return (
    (await lmpView(name, bytes, context)) ??
    imagesView(label, [], undefined, [{ label: 'Type', value: kind }], [`${name}: a ${kind} lump is not a picture`])
  );
}

/**
 * An AssetDecoder for the lumps of one WAD (their names have no extension, so no decoder of the registry
 * takes them): a host previewing a lump of an archive whose format is 'wad' uses this, with the WAD's
 * version and the lump's listed type.
 */
export function wadLumpDecoder(version: WadVersion, type: string | null): AssetDecoder {
  return {
    id: `wad${version}-lump`,
    accepts: () => true,
    view: (name, bytes, context) => wadLumpView(name, bytes, version, type, context),
  };
}

function paletteView(name: string, bytes: Uint8Array): ImagesView {
  const palette = decodePaletteLmp(bytes, name);
  return imagesView('Quake palette', [{ name: 'palette', frames: [{ image: paletteSwatches(palette), paletteGrid: 16 }] }], palette, [
    { label: 'Colours', value: '256' },
  ]);
}

async function concharsView(name: string, bytes: Uint8Array, context: AssetContext): Promise<ImagesView> {
  const pic = decodeConchars(bytes, name);
  const palette = await context.palette('quake');
  return imagesView(
    'Quake console font (conchars)',
    [single('conchars', pic.width, pic.height, pic.indices, palette, pic.transparentIndex)],
    palette,
    [sizeFact(pic.width, pic.height)],
  );
}

/** Quake's colormap.lmp: 64 light levels × 256 indices (+ 1 byte), shown as a 256 × 64 picture. */
const COLORMAP_SIZE = 64 * 256 + 1;

async function lmpView(name: string, bytes: Uint8Array, context: AssetContext): Promise<ImagesView | null> {
  if (isConchars(name, bytes)) return concharsView(name, bytes, context);
  if (/(^|\/)palette\.lmp$/i.test(name) || (bytes.length === PALETTE_RGB_BYTES && !looksLikeQpic(bytes, false)))
    return paletteView(name, bytes);
  if (/(^|\/)colormap(\.lmp)?$/i.test(name) && bytes.length === COLORMAP_SIZE) {
    const palette = await context.palette('quake');
    return imagesView('Quake colormap', [single('light levels', 256, 64, bytes, palette, -1)], palette, [
      { label: 'Light levels', value: '64' },
    ]);
  }
  if (!looksLikeQpic(bytes, false)) return null;
  const pic = decodeQpic(bytes, name, false);
  const palette = await context.palette('quake');
  return imagesView('Quake qpic (LMP)', [single('picture', pic.width, pic.height, pic.indices, palette, pic.transparentIndex)], palette, [
    sizeFact(pic.width, pic.height),
  ]);
}

export const lmpDecoder: AssetDecoder = {
  id: 'lmp',
  accepts: (name) => extension(name) === 'lmp',
  async view(name, bytes, context) {
    // A .lmp that is none of the known kinds is still read as a qpic, so the message says what is wrong.
    return (await lmpView(name, bytes, context)) ?? (await wadLumpView(name, bytes, 2, 0x42, context));
  },
};

export const walDecoder: AssetDecoder = {
  id: 'wal',
  accepts: (name) => extension(name) === 'wal',
  async view(name, bytes, context) {
    const wal = decodeWal(bytes, name);
    const palette = wal.palette ?? (await context.palette('quake2'));
    const groups = wal.mips.map((m, level) => single(`mip ${level}`, m.width, m.height, m.indices, palette, wal.transparentIndex));
    const facts: AssetFact[] = [
      { label: 'Name', value: wal.name },
      sizeFact(wal.width, wal.height),
      { label: 'Next frame', value: wal.animName || '(none)' },
      { label: 'Flags', value: describeSurfaceFlags(wal.flags) },
      { label: 'Contents', value: describeContents(wal.contents) },
      { label: 'Value', value: String(wal.value) },
    ];
    return imagesView(wal.game === 'daikatana' ? 'Daikatana WAL' : 'Quake 2 WAL', groups, palette, facts);
  },
};

/** Seconds per frame from a group's intervals: cumulative end times as sprgen writes them, else durations. */
function frameDurations(intervals: number[]): number[] {
  const cumulative = intervals.every((t, i) => i === 0 || t > intervals[i - 1]!);
  return intervals.map((t, i) => (cumulative && i > 0 ? t - intervals[i - 1]! : t));
}

export const sprDecoder: AssetDecoder = {
  id: 'spr',
  accepts: (name) => extension(name) === 'spr',
  async view(name, bytes, context) {
    const sprite = decodeSprite(bytes, name);
    const palette = sprite.palette ?? (await context.palette('quake'));
    let frameNumber = 0;
    const groups = sprite.groups.map((group, g): ImageGroup => {
      const durations = frameDurations(group.intervals);
      return {
        name: group.single ? `frame ${g}` : `group ${g}`,
        frames: group.frames.map((f, k) => ({
          image: indexedToRgba(f.width, f.height, f.indices, palette, sprite.transparentIndex),
          label: `frame ${frameNumber++} (origin ${f.originX}, ${f.originY})`,
          ...(group.single ? {} : { durationMs: Math.round((durations[k] ?? 0.1) * 1000) }),
        })),
      };
    });
    const facts: AssetFact[] = [
      { label: 'Version', value: sprite.version === 1 ? '1 (Quake)' : '2 (Half-Life)' },
      { label: 'Frames', value: String(frameNumber) },
      { label: 'Groups', value: String(sprite.groups.filter((g) => !g.single).length) },
      { label: 'Max size', value: `${sprite.maxWidth} × ${sprite.maxHeight}` },
      { label: 'Type', value: String(sprite.type) },
    ];
    return imagesView(sprite.version === 1 ? 'Quake sprite' : 'Half-Life sprite', groups, palette, facts);
  },
};

const BSP_NAMES = { quake: 'Quake BSP', halflife: 'Half-Life BSP', quake2: 'Quake 2 BSP', daikatana: 'Daikatana BSP' } as const;

export const bspDecoder: AssetDecoder = {
  id: 'bsp',
  accepts: (name) => extension(name) === 'bsp',
  async view(name, bytes, context) {
    const bsp = decodeBsp(bytes, name);
    const format = `${BSP_NAMES[bsp.game]} (version ${bsp.version})`;
    const facts: AssetFact[] = [
      { label: 'Version', value: String(bsp.version) },
      { label: 'Entities', value: String(countEntities(bsp.entities)) },
      { label: 'Textures', value: String(bsp.textures.length) },
      ...Object.entries(lumpCounts(bsp)).map(([label, count]) => ({ label, value: String(count) })),
    ];
    const frames = [];
    const missing: string[] = [];
    const palettes = new Set<string>();
    let quakePalette: Palette | undefined;
    for (const t of bsp.textures) {
      const mip0 = t.miptex?.mips[0];
      if (t.miptex && mip0) {
        const own = t.miptex.palette ?? (quakePalette ??= await context.palette('quake'));
        palettes.add(t.miptex.palette ? "each texture's own" : own.name);
        frames.push({
          image: indexedToRgba(mip0.width, mip0.height, mip0.indices, own, t.miptex.transparentIndex),
          label: `${t.name} (${t.width} × ${t.height})`,
        });
      } else if (bsp.game === 'quake2' || bsp.game === 'daikatana') {
        const wal = await context.readFile(`textures/${t.name}.wal`);
        if (!wal) {
          missing.push(t.name);
          continue;
        }
        const view = await walDecoder.view(`${t.name}.wal`, wal, context);
        const first = view.kind === 'images' ? view.groups[0]?.frames[0] : undefined;
        if (first) frames.push({ image: first.image, label: `${t.name} (${first.image.width} × ${first.image.height})` });
        if (view.kind === 'images' && view.palette) palettes.add(view.palette);
      } else missing.push(t.name);
    }
    const warnings = [...bsp.warnings];
    if (missing.length > 0)
      warnings.push(
        `not embedded${bsp.game === 'quake2' || bsp.game === 'daikatana' ? ' (no textures/NAME.wal in the install)' : ' (kept in a WAD)'}: ${missing.join(', ')}`,
      );
    const textures = imagesView(
      `${format} textures`,
      [{ name: 'textures', frames }],
      palettes.size > 0 ? [...palettes].join('; ') : undefined,
      [],
      warnings,
    );
    const entities: SectionsView['sections'][number] = {
      title: 'Entities',
      view: { kind: 'text', format: 'BSP entities', text: bsp.entities, language: 'entities', facts: [], warnings: [] },
    };
    // A map with no picture to show gets no empty texture grid; what its textures lack is said above.
    const sections: SectionsView = {
      kind: 'sections',
      format,
      facts,
      warnings: frames.length > 0 ? bsp.warnings : warnings,
      sections: frames.length > 0 ? [{ title: 'Textures', view: textures }, entities] : [entities],
    };
    return sections;
  },
};
