import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  compileBos,
  decompileCob,
  readCob,
  type CobFile,
  type IncludeFile,
  type IncludeResolver,
} from '../../shared/assets/ta/cob/index.js';
import { writeFileAtomically } from '../io/byte-sink.js';
import { openAsset, type AssetSourceOptions } from './asset-service.js';
import { latin1 } from '../../shared/bytes/reader.js';

/**
 * COB unit scripts for the CLI (`modpak cob info|decompile|compile`) and the studio: read, decompile, and
 * compile BOS with its `#include`s found on disk (the including file's folder, the BOS's folder, then each
 * include folder) or, when the BOS is a path in an install, in the install beside it first.
 */

export interface CobInfo {
  version: number;
  scripts: string[];
  pieces: string[];
  staticVars: number;
  sounds?: string[];
}

export function cobInfo(cob: CobFile): CobInfo {
  const info: CobInfo = { version: cob.version, scripts: cob.scripts.map((s) => s.name), pieces: cob.pieces, staticVars: cob.staticVars };
  if (cob.version === 6) info.sounds = cob.sounds;
  return info;
}

/** The bytes of a COB or BOS: a file, or a path in an install (its winner). */
export async function readAssetBytes(file: string, options: AssetSourceOptions = {}): Promise<Uint8Array> {
  const asset = await openAsset(file, options);
  try {
    return asset.bytes;
  } finally {
    await asset.close();
  }
}

/** A COB's facts; messages name it as `what`. */
export function readCobInfo(bytes: Uint8Array, what: string): CobInfo {
  return cobInfo(readCob(bytes, what));
}

export { decompileCob };

/** A file in `dir` whose name matches `name` ignoring case (TA's headers are EXPTYPE.H as often as exptype.h). */
async function findInFolder(dir: string, name: string): Promise<string | null> {
  const path = join(dir, name);
  const entries = await readdir(dirname(path)).catch(() => [] as string[]);
  const wanted = basename(path).toLowerCase();
  const hit = entries.find((e) => e === basename(path)) ?? entries.find((e) => e.toLowerCase() === wanted);
  return hit === undefined ? null : join(dirname(path), hit);
}

export function diskIncludeResolver(mainFile: string, includeDirs: string[]): IncludeResolver {
  return async (name: string, from: string): Promise<IncludeFile | null> => {
    const dirs = [...(from.startsWith('<') ? [] : [dirname(from)]), dirname(mainFile), ...includeDirs];
    for (const dir of [...new Set(dirs)]) {
      const path = await findInFolder(dir, name);
      if (path) return { path, text: await readFile(path, 'latin1') };
    }
    return null;
  };
}

/**
 * Compile a BOS file to COB bytes. With `install`, `file` is a path in the install and an include is looked
 * for beside it in the install before the include folders.
 */
export async function compileBosAsset(file: string, options: AssetSourceOptions & { includeDirs?: string[] } = {}): Promise<Uint8Array> {
  const includeDirs = options.includeDirs ?? [];
  if (!options.install) {
    const source = await readFile(file, 'latin1');
    return compileBos(source, { file, resolveInclude: diskIncludeResolver(file, includeDirs) });
  }
  const asset = await openAsset(file, options);
  try {
    const onDisk = diskIncludeResolver(join(options.install, file), includeDirs);
    const folder = file.replace(/[^/\\]*$/, '');
    const resolveInclude: IncludeResolver = async (name, from) => {
      const inInstall =
        from.startsWith('<') || from.startsWith(options.install!) ? null : `${from.replace(/[^/\\]*$/, '') || folder}${name}`;
      const bytes = inInstall ? await asset.context.readFile(inInstall) : null;
      if (bytes && inInstall) return { path: inInstall, text: latin1(bytes) };
      return onDisk(name, from);
    };
    return await compileBos(latin1(asset.bytes), { file, resolveInclude });
  } finally {
    await asset.close();
  }
}

/** Write COB bytes through a temporary file renamed into place. */
export async function writeCobFile(target: string, bytes: Uint8Array): Promise<void> {
  await writeFileAtomically(target, (sink) => sink.write(bytes));
}
