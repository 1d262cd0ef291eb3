import { readdirSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { foreignPackOptions, packFormatFor, packFormatFromExtension, packFormatLabel, withArchive } from '../formats/index.js';
import type { PackFile, PackFormatId, PackOptions } from '../formats/index.js';
import { isTemporaryFileOf, writeFileAtomically } from '../io/byte-sink.js';
import { readWholeFileSync } from '../io/read-whole.js';
import { fail } from '../../shared/errors.js';
import { pathKey } from '../../shared/paths.js';
import { compressionWorkers } from './compress-pool.js';
import { paletteFromFile } from '../../shared/assets/palettes.js';
import { paletteRgb } from '../../shared/assets/quake/palette.js';

/**
 * `modpak pack` and the studio's Export (export.ts) alike: a folder becomes an archive of any writable
 * format. The folder walk, case merging and stored-order ordering are format-neutral and live here; the
 * engines only turn an ordered list of files into bytes, compressing on every core.
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
  onProgress?: (done: number, total: number) => void;
  onWarning?: (message: string) => void;
}

export interface PackResult {
  target: string;
  format: PackFormatId;
  files: number;
  bytes: number;
  size: number;
}

/** A folder the walk went into: where it is on disk (ending in a separator), and its archive path. */
interface WalkedFolder {
  readonly prefix: string;
  readonly path: string;
}

/**
 * A file the folder walk found: its folder (shared by its siblings), its name and size, and nothing per
 * file beyond them; its paths are made when asked for. A pack of 30,000 files kept ~1 KB per file of
 * closures and path strings alive to the end, and the collector's heap grew to several times that.
 */
export class FolderFile implements PackFile {
  constructor(
    private readonly folder: WalkedFolder,
    readonly name: string,
    readonly size: number,
  ) {}
  get path(): string {
    return this.folder.path === '' ? this.name : `${this.folder.path}/${this.name}`;
  }
  /** Where the file is on disk. */
  get source(): string {
    return this.folder.prefix + this.name;
  }
  read(): Promise<Uint8Array> {
    return readFile(this.source);
  }
  readSync(scratch?: Uint8Array): Uint8Array {
    return readWholeFileSync(this.source, scratch, this.size);
  }
}

/**
 * Walk `dir` into archive paths, sorted by name at each level for a stable result. Folder names that
 * differ only in case are merged under the first spelling met (the game compares names case-insensitively);
 * files whose whole paths differ only in case are both kept, with a warning.
 */
export async function collectFolder(dir: string, onWarning?: (m: string) => void, exclude?: string): Promise<FolderFile[]> {
  const root = resolve(dir);
  const excluded = exclude ? resolve(exclude) : null;
  const rootStat = await stat(root).catch(() => null);
  if (!rootStat?.isDirectory()) fail('not-found', `${dir} is not a folder`);
  const folderSpelling = new Map<string, string>();
  const files: FolderFile[] = [];
  const seen = new Map<string, string>();
  // Synchronous listing and stats: a folder of 30,000 files costs 30,000 thread-pool round trips otherwise.
  const walk = (abs: string, rel: string) => {
    const folder: WalkedFolder = { prefix: abs.endsWith(sep) ? abs : abs + sep, path: rel };
    const items = readdirSync(abs, { withFileTypes: true });
    items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const item of items) {
      const full = folder.prefix + item.name;
      const path = rel === '' ? item.name : `${rel}/${item.name}`;
      if (item.isDirectory()) {
        const key = pathKey(path);
        const spelling = folderSpelling.get(key) ?? path;
        folderSpelling.set(key, spelling);
        walk(full, spelling);
      } else if (
        item.isFile() &&
        full !== excluded &&
        !(excluded !== null && abs === dirname(excluded) && isTemporaryFileOf(item.name, excluded))
      ) {
        const key = pathKey(path);
        const other = seen.get(key);
        if (other !== undefined)
          onWarning?.(`${path} and ${other} differ only in case: both are stored, the game reads the one packed last`);
        seen.set(key, path);
        files.push(new FolderFile(folder, item.name, statSync(full).size));
      }
    }
  };
  walk(root, '');
  return files;
}

/** An archive's files in stored order, and the opaque blocks a rewrite of it keeps (Archive.carryOver). */
export async function storedOrder(archivePath: string): Promise<{ order: string[]; carry: Record<string, Uint8Array> }> {
  return withArchive(archivePath, async (archive) => ({
    order: archive.entries.filter((e) => !e.dir).map((e) => e.path),
    carry: (await archive.carryOver?.()) ?? {},
  }));
}

/** `files` in the stored `order` (case-insensitive; the first spelling ranks); files it lacks follow in their own order. */
export function orderLike(files: readonly PackFile[], order: readonly string[]): PackFile[] {
  const rank = new Map<string, number>();
  order.forEach((p, i) => {
    if (!rank.has(pathKey(p))) rank.set(pathKey(p), i);
  });
  const rankOf = (f: PackFile) => rank.get(pathKey(f.path)) ?? -1;
  const known = files.filter((f) => rankOf(f) >= 0);
  const fresh = files.filter((f) => rankOf(f) < 0);
  known.sort((a, b) => rankOf(a) - rankOf(b));
  return [...known, ...fresh];
}

export interface WriteArchiveRequest {
  files: readonly PackFile[];
  target: string;
  format?: PackFormatId;
  /** What the user should do when neither `format` nor the target's extension names a format. */
  formatHint: string;
  options: Omit<PackOptions, 'version' | 'startWorkers'>;
  /** Called after the engine wrote its last byte, before the file is renamed into place (cancelling throws there). */
  beforeCommit?: () => void;
}

/** The one way files become an archive on disk: the engine of the format, on every core, through a temporary file renamed into place. */
export async function writeArchive(request: WriteArchiveRequest): Promise<{ format: PackFormatId; size: number }> {
  const target = resolve(request.target);
  const format = request.format ?? packFormatFromExtension(target);
  if (!format) fail('unsupported', `cannot tell the archive format from ${request.target}: ${request.formatHint}`);
  const foreign = foreignPackOptions(format, request.options);
  if (foreign.length > 0) fail('unsupported', `${packFormatLabel(format)} archives take no ${foreign.join(', ')} option`);
  const { engine, options } = packFormatFor(format);
  const pack = engine.pack;
  if (!pack) fail('unsupported', `writing ${engine.label} archives is not supported`);
  const packOptions: PackOptions = { ...options, ...request.options, startWorkers: compressionWorkers() };
  await writeFileAtomically(
    target,
    async (sink) => {
      await pack(request.files, sink, packOptions);
      request.beforeCommit?.();
    },
    { sync: 'when-replacing' },
  );
  return { format, size: (await stat(target)).size };
}

export async function packFolder(request: PackRequest): Promise<PackResult> {
  const target = resolve(request.target);
  // A target inside the folder (a watch that packs in place) is left out of its own input.
  let files: PackFile[] = await collectFolder(request.dir, request.onWarning, target);
  let carry: Record<string, Uint8Array> | undefined;
  if (request.orderFrom) {
    const stored = await storedOrder(request.orderFrom);
    files = orderLike(files, stored.order);
    carry = stored.carry;
  }
  const { format, size } = await writeArchive({
    files,
    target,
    format: request.format,
    formatHint: 'pass --format',
    options: {
      method: request.method,
      key: request.key,
      trailer: request.trailer,
      cipher: request.cipher,
      region: request.region,
      carry,
      paletteRgb: request.palette
        ? paletteRgb(paletteFromFile(request.palette, new Uint8Array(await readFile(request.palette))))
        : undefined,
      onProgress: request.onProgress,
      onWarning: request.onWarning,
    },
  });
  return { target, format, files: files.length, bytes: files.reduce((n, f) => n + f.size, 0), size };
}
