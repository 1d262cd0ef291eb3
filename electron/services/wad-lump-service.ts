import { openArchive } from '../formats/index.js';
import { wadVersionOf } from '../formats/wad/archive.js';
import { findEntry } from './archive-service.js';
import type { WadVersion } from '../../shared/assets/quake/wad-types.js';

/**
 * What a WAD's directory says of one lump (its version and type), which its bytes alone cannot: the
 * asset commands decode `--entry NAME` of a WAD by it. Null when the file is not a WAD or has no such lump.
 */
export async function wadLumpType(file: string, entry: string): Promise<{ version: WadVersion; type: string } | null> {
  let archive;
  try {
    archive = await openArchive(file);
  } catch {
    return null;
  }
  try {
    const version = wadVersionOf(archive);
    const found = version ? findEntry(archive, entry) : undefined;
    return version && found?.entryType ? { version, type: found.entryType } : null;
  } finally {
    await archive.close();
  }
}
