import type { FormatEngine } from '../archive.js';
import { wadMagicVersion } from './layout.js';
import { openWad } from './archive.js';
import { writeWad } from './writer.js';

/** WAD2 (Quake) and WAD3 (Half-Life) texture and picture archives: one engine, the version from the magic. */
export const wadEngine: FormatEngine = {
  id: 'wad',
  label: 'WAD',
  async detect(source) {
    if (source.size < 4) return { match: false };
    return { match: wadMagicVersion(await source.read(0, 4)) !== null };
  },
  open: openWad,
  // The PNG decoder (and pako with it) loads only when a WAD is packed, not with every archive read.
  pack: async (files, sink, options) => writeWad(files, sink, options, (await import('./png-lumps.js')).pngToMiptex),
};
