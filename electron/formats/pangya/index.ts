import type { FormatEngine } from '../archive.js';
import { FormatError } from '../../../shared/errors.js';
import { detectTable, openPangya, readTrailer } from './reader.js';
import { TRAILER_SIZE } from './layout.js';
import { packPangya } from './writer.js';

/**
 * Pangya PAK (Ntreev's golf game): a table at the end behind a 0x12 trailer, names and some sizes
 * enciphered with XOR (old archives) or XTEA with one of six regional keys, data stored or LZ77.
 * Recognised by its trailer and a table whose structure walks cleanly; the key is found on open.
 */
export const pangyaEngine: FormatEngine = {
  id: 'pangya',
  label: 'Pangya PAK',
  async detect(source) {
    let trailerFits = false;
    try {
      if (source.size < TRAILER_SIZE) return { match: false };
      const trailer = await readTrailer(source);
      trailerFits = true;
      const { raws } = await detectTable(source, trailer);
      // An empty table is weak evidence: require it to sit right before the trailer.
      if (raws.length === 0 && trailer.tableOffset !== source.size - TRAILER_SIZE) return { match: false };
      return { match: true };
    } catch (err) {
      if (!(err instanceof FormatError)) throw err;
      // A sound trailer over a table that does not walk is a damaged Pangya PAK: claim it with the lowest
      // confidence, so that when nothing else fits, opening it says what is wrong with the table.
      return trailerFits ? { match: true, confidence: -1 } : { match: false };
    }
  },
  open: openPangya,
  packOptions: () => ['method', 'cipher', 'region'],
  pack: packPangya,
};
