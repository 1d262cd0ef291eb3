/**
 * The TA-scale corpus every format benchmark uses: 30,000 files, about 300 MB unpacked, text and binary
 * mixed like a real totala1.hpi (FBI/TDF text, 3DO-like structured binary, PCX-like runs, some noise).
 * Deterministic: the same bytes on every machine.
 */
import { mkdir, writeFile, stat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prng } from '../tests/helpers/prng.js';
import { scratch } from './util.js';

export interface CorpusFile {
  path: string;
  bytes: Uint8Array;
}

const FOLDERS = ['units', 'weapons', 'features/corpses', 'objects3d', 'anims', 'unitpics', 'scripts', 'sounds', 'maps', 'textures'];
const WORDS = [
  'Armor',
  'MaxDamage',
  'BuildCostEnergy',
  'BuildCostMetal',
  'UnitName',
  'Description',
  'Category',
  'Weapon1',
  'Speed',
  'range',
  'reloadtime',
  'damage',
  'default',
  'explosiongenerator',
  'Footprintx',
  'Footprintz',
  'sightdistance',
  'ARM',
  'CORE',
  'KBOT',
  'TANK',
  'NOWEAPON',
  'LEVEL1',
];

function textFile(rand: () => number, size: number): Uint8Array {
  let s = '';
  let section = 0;
  while (s.length < size) {
    s += `[SECTION${section++}]\r\n\t{\r\n`;
    const keys = 5 + Math.floor(rand() * 20);
    for (let k = 0; k < keys; k++) {
      const w = WORDS[Math.floor(rand() * WORDS.length)]!;
      s += `\t${w}=${rand() < 0.5 ? Math.floor(rand() * 5000) : WORDS[Math.floor(rand() * WORDS.length)]};\r\n`;
    }
    s += '\t}\r\n';
  }
  return new TextEncoder().encode(s.slice(0, size));
}

function structuredBinary(rand: () => number, size: number): Uint8Array {
  // Records of little-endian ints with small deltas, like 3DO vertex tables and COB scripts.
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let v = 0;
  for (let i = 0; i + 4 <= size; i += 4) {
    v += Math.floor(rand() * 64) - 32;
    view.setInt32(i, rand() < 0.1 ? Math.floor(rand() * 0x7fffffff) : v * 65536, true);
  }
  return out;
}

function runs(rand: () => number, size: number): Uint8Array {
  // Paletted image data: runs of one colour with some dithering.
  const out = new Uint8Array(size);
  let i = 0;
  while (i < size) {
    const colour = Math.floor(rand() * 256);
    const len = 1 + Math.floor(rand() * 40);
    out.fill(colour, i, Math.min(size, i + len));
    i += len;
  }
  return out;
}

function noise(rand: () => number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (rand() * 256) | 0;
  return out;
}

/**
 * The second corpus issue 15 measures against: 3,000 files, about 88 MB (the same mix, each file about
 * 2.9 times as large), for the PAK family and the LZ77 size comparison with HPIPack.
 */
export const MEDIUM_CORPUS = { count: 3_000, seed: 31, scale: 2.85 } as const;

/** Generate the corpus in stored order (`count` files, roughly `count` × 10 KB × `scale`). */
export function* corpusFiles(count = 30_000, seed = 31, scale = 1): Generator<CorpusFile> {
  const rand = prng(seed);
  for (let i = 0; i < count; i++) {
    const folder = FOLDERS[i % FOLDERS.length]!;
    const kind = i % 10;
    // Sizes skewed like a real game: mostly small, a few large (textures, sounds up to ~100 KB).
    const size = Math.round(scale * (kind === 9 ? 25_000 + Math.floor(rand() * 80_000) : 500 + Math.floor(rand() * 7_000)));
    const bytes =
      kind < 4
        ? textFile(rand, size)
        : kind < 7
          ? structuredBinary(rand, size)
          : kind < 9
            ? runs(rand, size)
            : i % 20 === 9
              ? noise(rand, size)
              : runs(rand, size);
    const ext = kind < 4 ? (i % 2 ? 'fbi' : 'tdf') : kind < 7 ? '3do' : kind < 9 ? 'pcx' : 'wav';
    yield { path: `${folder}/file${String(i).padStart(5, '0')}.${ext}`, bytes };
  }
}

/** The corpus as a folder on disk (written once, reused by later runs). Returns the folder and its totals. */
export async function corpusFolder(count = 30_000, seed = 31, scale = 1): Promise<{ dir: string; files: number; bytes: number }> {
  const dir = await scratch(scale === 1 && seed === 31 ? `corpus-${count}` : `corpus-${count}-${seed}-x${scale}`);
  const marker = join(dir, '.complete');
  const done = await stat(marker).catch(() => null);
  if (done) return JSON.parse(await readFile(marker, 'utf8')) as { dir: string; files: number; bytes: number };
  let bytes = 0;
  let files = 0;
  const made = new Set<string>();
  for (const f of corpusFiles(count, seed, scale)) {
    const full = join(dir, f.path);
    const parent = full.slice(0, full.lastIndexOf('/'));
    if (!made.has(parent)) {
      await mkdir(parent, { recursive: true });
      made.add(parent);
    }
    await writeFile(full, f.bytes);
    bytes += f.bytes.length;
    files++;
  }
  const result = { dir, files, bytes };
  await writeFile(marker, JSON.stringify(result));
  return result;
}
