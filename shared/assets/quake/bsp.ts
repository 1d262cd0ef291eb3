import { ByteReader, latin1 } from '../../bytes/reader.js';
import { fail } from '../../errors.js';
import { decodeMiptexAt, type Miptex } from './miptex.js';
import { decodeWal } from './wal.js';

/**
 * BSP maps: what is in them, not their geometry.
 *   Quake (i32 version 29) and Half-Life (30): 15 lumps (i32 offset, i32 length) after the version.
 *   Quake 2 ('IBSP' version 38): 19 lumps after magic and version; Daikatana ('IBSP' 41): 21, the first 19
 *   as Quake 2's (its leafs are 32 bytes, not 28).
 * Lump 0 is the entity text everywhere. Quake and Half-Life embed their textures (lump 2: i32 count,
 * i32 offsets[count] from the lump's start, -1 for a missing one; then miptex, Half-Life's with their own
 * palette, or with no pixels when a WAD holds them). Quake 2 and Daikatana name WAL files in their texinfo
 * (76 bytes, name[32] at 40).
 */

export type BspGame = 'quake' | 'halflife' | 'quake2' | 'daikatana';

interface LumpSpec {
  name: string;
  /** Bytes per element, for counting; 0 for byte lumps (entities, visibility, lighting, textures). */
  size: number;
}

const Q1_LUMPS: LumpSpec[] = [
  { name: 'entities', size: 0 },
  { name: 'planes', size: 20 },
  { name: 'textures', size: 0 },
  { name: 'vertexes', size: 12 },
  { name: 'visibility', size: 0 },
  { name: 'nodes', size: 24 },
  { name: 'texinfo', size: 40 },
  { name: 'faces', size: 20 },
  { name: 'lighting', size: 0 },
  { name: 'clipnodes', size: 8 },
  { name: 'leafs', size: 28 },
  { name: 'marksurfaces', size: 2 },
  { name: 'edges', size: 4 },
  { name: 'surfedges', size: 4 },
  { name: 'models', size: 64 },
];

const Q2_LUMPS: LumpSpec[] = [
  { name: 'entities', size: 0 },
  { name: 'planes', size: 20 },
  { name: 'vertexes', size: 12 },
  { name: 'visibility', size: 0 },
  { name: 'nodes', size: 28 },
  { name: 'texinfo', size: 76 },
  { name: 'faces', size: 20 },
  { name: 'lighting', size: 0 },
  { name: 'leafs', size: 28 },
  { name: 'leaffaces', size: 2 },
  { name: 'leafbrushes', size: 2 },
  { name: 'edges', size: 4 },
  { name: 'surfedges', size: 4 },
  { name: 'models', size: 48 },
  { name: 'brushes', size: 12 },
  { name: 'brushsides', size: 4 },
  { name: 'pop', size: 0 },
  { name: 'areas', size: 8 },
  { name: 'areaportals', size: 8 },
];

const DK_LUMPS: LumpSpec[] = [
  ...Q2_LUMPS.map((l) => (l.name === 'leafs' ? { name: 'leafs', size: 32 } : l)),
  { name: 'lump19', size: 0 },
  { name: 'lump20', size: 0 },
];

const Q2_TEXINFO_SIZE = 76;
const Q2_TEXINFO_NAME_AT = 40;

export interface BspLump {
  name: string;
  offset: number;
  length: number;
  /** Elements, for lumps of fixed-size records; bytes otherwise. */
  count: number;
}

export interface BspTexture {
  name: string;
  /** 0 when the map does not say (a Quake 2 texture lives in its WAL). */
  width: number;
  height: number;
  /** Quake and Half-Life: the embedded miptex (no mips when a WAD holds it). */
  miptex?: Miptex;
}

export interface Bsp {
  game: BspGame;
  version: number;
  lumps: BspLump[];
  entities: string;
  textures: BspTexture[];
  warnings: string[];
}

export function bspGame(head: Uint8Array): { game: BspGame; version: number } | null {
  if (head.length < 8) return null;
  const view = new DataView(head.buffer, head.byteOffset, head.length);
  const first = view.getInt32(0, true);
  if (first === 29) return { game: 'quake', version: 29 };
  if (first === 30) return { game: 'halflife', version: 30 };
  if (head[0] === 0x49 && head[1] === 0x42 && head[2] === 0x53 && head[3] === 0x50) {
    const version = view.getInt32(4, true);
    if (version === 38) return { game: 'quake2', version };
    if (version === 41) return { game: 'daikatana', version };
  }
  return null;
}

export function decodeBsp(bytes: Uint8Array, what: string): Bsp {
  const r = new ByteReader(bytes, what);
  const kind = bspGame(bytes.subarray(0, 8));
  if (!kind) {
    const version = bytes.length >= 8 ? r.i32(0) : NaN;
    fail(
      'unsupported',
      `${what}: not a Quake (29), Half-Life (30), Quake 2 (IBSP 38) or Daikatana (IBSP 41) BSP (starts with ${Number.isNaN(version) ? 'too few bytes' : `version ${version}`})`,
    );
  }
  const specs = kind.game === 'quake' || kind.game === 'halflife' ? Q1_LUMPS : kind.game === 'quake2' ? Q2_LUMPS : DK_LUMPS;
  const tableAt = kind.game === 'quake' || kind.game === 'halflife' ? 4 : 8;
  r.checkTable('lump directory', tableAt, specs.length, 8);
  const warnings: string[] = [];
  const lumps = specs.map((spec, i): BspLump => {
    const offset = r.i32(tableAt + i * 8);
    const length = r.i32(tableAt + i * 8 + 4);
    r.check(`lump ${i} (${spec.name})`, offset, length);
    if (spec.size > 0 && length % spec.size !== 0)
      warnings.push(`lump ${spec.name}: ${length} bytes is not a whole number of ${spec.size}-byte records`);
    return { name: spec.name, offset, length, count: spec.size > 0 ? Math.floor(length / spec.size) : length };
  });
  const entityLump = lumps[0]!;
  let entities = latin1(r.slice(entityLump.offset, entityLump.length));
  const nul = entities.indexOf('\0');
  if (nul >= 0) entities = entities.slice(0, nul);
  const textures =
    kind.game === 'quake' || kind.game === 'halflife'
      ? embeddedTextures(r, lumps[2]!, kind.game === 'halflife')
      : texinfoTextures(r, lumps[5]!);
  return { game: kind.game, version: kind.version, lumps, entities, textures, warnings };
}

function embeddedTextures(r: ByteReader, lump: BspLump, halfLife: boolean): BspTexture[] {
  if (lump.length === 0) return [];
  const lumpReader = new ByteReader(r.slice(lump.offset, lump.length), `${r.what}: texture lump`);
  const count = lumpReader.i32(0, 'texture count');
  lumpReader.checkTable('texture offsets', 4, count, 4);
  const textures: BspTexture[] = [];
  for (let i = 0; i < count; i++) {
    const offset = lumpReader.i32(4 + i * 4, `texture ${i} offset`);
    if (offset < 0) continue;
    const miptex = decodeMiptexAt(lumpReader, offset, halfLife);
    textures.push({ name: miptex.name, width: miptex.width, height: miptex.height, miptex });
  }
  return textures;
}

/** Quake 2 and Daikatana: each distinct texture name of the texinfo lump, in first-use order. */
function texinfoTextures(r: ByteReader, lump: BspLump): BspTexture[] {
  const seen = new Set<string>();
  const textures: BspTexture[] = [];
  for (let at = lump.offset; at + Q2_TEXINFO_SIZE <= lump.offset + lump.length; at += Q2_TEXINFO_SIZE) {
    const name = r.fixedString(at + Q2_TEXINFO_NAME_AT, 32, 'texinfo texture name');
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    textures.push({ name, width: 0, height: 0 });
  }
  return textures;
}

/** The lump counts by name, as `bsp info` prints them. */
export function lumpCounts(bsp: Bsp): Record<string, number> {
  return Object.fromEntries(
    bsp.lumps.filter((l) => l.name !== 'entities' && l.name !== 'textures' && !l.name.startsWith('lump')).map((l) => [l.name, l.count]),
  );
}

/** How many entities the entity text holds (its top-level `{ ... }` blocks, quoted strings skipped). */
export function countEntities(text: string): number {
  let depth = 0;
  let count = 0;
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '{') {
      if (depth === 0) count++;
      depth++;
    } else if (c === '}') depth = Math.max(0, depth - 1);
  }
  return count;
}

/**
 * Quake 2 and Daikatana maps name their textures' WAL files (textures/NAME.wal) without their sizes: fill
 * them in from the install where it has the file (each WAL's header says), else leave them null.
 */
export async function bspTextureSizes(
  bsp: Bsp,
  readFile: (path: string) => Promise<Uint8Array | null>,
): Promise<{ name: string; width: number | null; height: number | null }[]> {
  const out = [];
  for (const t of bsp.textures) {
    if (t.width > 0) {
      out.push({ name: t.name, width: t.width, height: t.height });
      continue;
    }
    const wal = await readFile(`textures/${t.name}.wal`);
    let size: { width: number; height: number } | null = null;
    if (wal) {
      try {
        size = decodeWal(wal, `textures/${t.name}.wal`);
      } catch {
        size = null;
      }
    }
    out.push({ name: t.name, width: size?.width ?? null, height: size?.height ?? null });
  }
  return out;
}
