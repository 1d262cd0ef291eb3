import type { FormatEngine } from '../archive.js';
import { fail } from '../errors.js';

// Placeholder until the pangya engine lands: recognises nothing.
export const pangyaEngine: FormatEngine = { id: 'pangya', label: 'Pangya PAK', detect: async () => ({ match: false }), open: async () => fail('unsupported', 'Pangya not yet supported') };
