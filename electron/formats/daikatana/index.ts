import type { FormatEngine, PackFile } from '../archive.js';
import { DAIKATANA_LAYOUT, type PackRecord } from '../pak/layout.js';
import { detectLayout } from '../pak/recognition.js';
import { openPack } from '../pak/archive.js';
import { writePack } from '../pak/writer.js';
import { DAIKATANA_METHOD } from '../file-codecs.js';

/**
 * Daikatana PAK: the Quake header with 72-byte entries (name[56], offset, length, compressedLength,
 * compressed 0/1) and its own compression (codec.ts). The writer compresses only the types the engine
 * accepts compressed and stores a file when compression does not shrink it.
 */

/** The engine refuses to stream other types compressed (sounds, for instance). */
const COMPRESSIBLE = /\.(tga|bmp|wal|pcx|bsp)$/i;

export function isCompressible(path: string): boolean {
  return COMPRESSIBLE.test(path);
}

const methodOf = (file: PackFile) => (isCompressible(file.path) && file.size > 0 ? DAIKATANA_METHOD : 0);

function storedLengthWarning(r: PackRecord): string | null {
  if (r.compressed || r.declaredCompressedLength === r.length) return null;
  return `${r.name}: stored entry declares compressedLength ${r.declaredCompressedLength}, not its length ${r.length} (the length is used)`;
}

export const daikatanaEngine: FormatEngine = {
  id: 'daikatana',
  label: DAIKATANA_LAYOUT.label,
  detect: (source) => detectLayout(source, DAIKATANA_LAYOUT),
  open: (source) => openPack(source, DAIKATANA_LAYOUT, DAIKATANA_METHOD, storedLengthWarning),
  pack: (files, sink, options) => writePack(files, sink, options, DAIKATANA_LAYOUT, methodOf),
};
