import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { packFormatFor, packFormatFromExtension, openArchive } from '../formats/index.js';
import type { PackFile, PackFormatId, PackOptions } from '../formats/index.js';
import { writeFileAtomically } from '../io/byte-sink.js';
import { fail } from '../../shared/errors.js';
import { pathKey } from '../../shared/paths.js';
import { paletteFromFile } from '../../shared/assets/palettes.js';
import { paletteRgb } from '../../shared/assets/quake/palette.js';
import type { ProgressFn } from './archive-service.js';

/**
 * `modpak pack` and the studio's Export: a folder becomes an archive of any writable format.
 * The folder walk, case merging and `--order-from` ordering are format-neutral and live here; the engines
 * only turn an ordered list of files into bytes.
 */

export interface PackRequest {
  dir: string;
  target: string;
  format?: PackFormatId;
  method?: PackOptions['method'];
  key?: number;
  trailer?: boolean;
  cipher?: PackOptions['cipher'];
  region?: PackOptions['region'];
  /** Keep the stored order of this archive for the paths it shares with the folder; new paths after. */
  orderFrom?: string;
  /** WAD2: a palette file (palette.lmp or a PCX) for PNGs converted to miptex. */
  palette?: string;
  onProgress?: ProgressFn;
  onWarning?: (message: string) => void;
}

export interface PackResult {
  target: string;
  format: PackFormatId;
  files: number;
  bytes: number;
  size: number;
}

/**
 * Walk `dir` into archive paths, sorted by name at each level for a stable result. Folder names that
 * differ only in case are merged under the first spelling met (the game compares names case-insensitively);
 * files whose whole paths differ only in case are both kept, with a warning.
 */
export async function collectFolder(dir: string, onWarning?: (m: string) => void, exclude?: string): Promise<PackFile[]> {
  const root = resolve(dir);
  const excluded = exclude ? resolve(exclude) : null;
  const rootStat = await stat(root).catch(() => null);
  if (!rootStat?.isDirectory()) fail('not-found', `${dir} is not a folder`);
  const folderSpelling = new Map<string, string>();
  const files: PackFile[] = [];
  const seen = new Map<string, string>();
  const walk = async (abs: string, relParts: string[]) => {
    const items = await readdir(abs, { withFileTypes: true });
    items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const item of items) {
      const full = join(abs, item.name);
      if (item.isDirectory()) {
        const key = pathKey([...relParts, item.name].join('/'));
        const spelling = folderSpelling.get(key) ?? item.name;
        folderSpelling.set(key, spelling);
        await walk(full, [...relParts, spelling]);
      } else if (item.isFile() && full !== excluded && !isTemporaryOf(item.name, excluded)) {
        const path = [...relParts, item.name].join('/');
        const key = pathKey(path);
        const other = seen.get(key);
        if (other !== undefined) onWarning?.(`${path} and ${other} differ only in case: both are stored, the game reads the one packed last`);
        seen.set(key, path);
        const size = (await stat(full)).size;
        files.push({ path, size, read: () => readFile(full) });
      }
    }
  };
  await walk(root, []);
  return files;
}

/** The temporary files writeFileAtomically makes beside `target` are never packed. */
function isTemporaryOf(name: string, target: string | null): boolean {
  return target !== null && name.endsWith('.tmp') && name.startsWith(`.${target.split(sep).pop()}.`);
}

/**
 * Reorder `files` by the stored order of `archivePath` (case-insensitive); paths it lacks keep their order
 * after. Also returns the opaque blocks a rewrite of that archive keeps (Archive.carryOver).
 */
export async function orderLike(files: PackFile[], archivePath: string): Promise<{ files: PackFile[]; carry: Record<string, Uint8Array> }> {
  const archive = await openArchive(archivePath);
  const rank = new Map<string, number>();
  let carry: Record<string, Uint8Array> = {};
  try {
    archive.entries.forEach((e, i) => {
      if (!e.dir && !rank.has(pathKey(e.path))) rank.set(pathKey(e.path), i);
    });
    carry = (await archive.carryOver?.()) ?? {};
  } finally {
    await archive.close();
  }
  const known = files.filter((f) => rank.has(pathKey(f.path)));
  const fresh = files.filter((f) => !rank.has(pathKey(f.path)));
  known.sort((a, b) => rank.get(pathKey(a.path))! - rank.get(pathKey(b.path))!);
  return { files: [...known, ...fresh], carry };
}

export async function packFolder(request: PackRequest): Promise<PackResult> {
  const format = request.format ?? packFormatFromExtension(request.target);
  if (!format) fail('unsupported', `cannot tell the format from ${request.target}: pass --format`);
  const { engine, options } = packFormatFor(format);
  if (!engine.pack) fail('unsupported', `writing ${engine.label} archives is not supported`);
  const target = resolve(request.target);
  // A target inside the folder (a watch that packs in place) is left out of its own input.
  let files = await collectFolder(request.dir, request.onWarning, target);
  let carry: Record<string, Uint8Array> | undefined;
  if (request.orderFrom) ({ files, carry } = await orderLike(files, request.orderFrom));
  const packOptions: PackOptions = {
    ...options,
    method: request.method,
    key: request.key,
    trailer: request.trailer,
    cipher: request.cipher,
    region: request.region,
    carry,
    paletteRgb: request.palette ? paletteRgb(paletteFromFile(request.palette, new Uint8Array(await readFile(request.palette)))) : undefined,
    onProgress: request.onProgress,
    onWarning: request.onWarning,
  };
  await writeFileAtomically(target, (sink) => engine.pack!(files, sink, packOptions));
  const size = (await stat(target)).size;
  return { target, format, files: files.length, bytes: files.reduce((n, f) => n + f.size, 0), size };
}
