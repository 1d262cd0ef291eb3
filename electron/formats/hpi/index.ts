import type { FormatEngine } from '../archive.js';
import { fail } from '../errors.js';

// Placeholder until the hpi engine lands: recognises nothing.
export const hpiEngine: FormatEngine = { id: 'hpi', label: 'HPI', detect: async () => ({ match: false }), open: async () => fail('unsupported', 'HPI not yet supported') };
