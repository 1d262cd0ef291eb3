/**
 * The HPI engine: Total Annihilation's v1 (.hpi .ufo .ccx .gp3) and TA: Kingdoms' v2, read and write.
 * Recognised from the bytes: 'HAPI' + 0x00010000 or 0x00020000. TA saved games ('BANK') are recognised
 * and reported as such, not parsed.
 */
import type { FormatEngine } from '../archive.js';
import { fail } from '../../../shared/errors.js';
import { sniffHpi } from './header.js';
import { HpiV1Archive } from './v1-reader.js';
import { writeHpiV1 } from './v1-writer.js';
import { HpiV2Archive } from './v2-reader.js';
import { writeHpiV2 } from './v2-writer.js';

export { sniffHpi, type HpiKind } from './header.js';

export const hpiEngine: FormatEngine = {
  id: 'hpi',
  label: 'HPI',
  async detect(source) {
    return { match: (await sniffHpi(source)) !== null };
  },
  async open(source) {
    const kind = await sniffHpi(source);
    if (kind === 'bank') fail('unsupported', 'a TA saved game (BANK), not a file archive: not parsed');
    if (kind === 'v1') return HpiV1Archive.open(source);
    if (kind === 'v2') return HpiV2Archive.open(source);
    fail('bad-magic', 'not an HPI archive (HAPI v1 or v2)');
  },
  packOptions: (implied) => ((implied.version ?? 1) === 2 ? ['method'] : ['method', 'key', 'trailer']),
  async pack(files, sink, options) {
    if ((options.version ?? 1) === 2) await writeHpiV2(files, sink, options);
    else await writeHpiV1(files, sink, options);
  },
};
