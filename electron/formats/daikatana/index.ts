import type { FormatEngine } from '../archive.js';
import { fail } from '../errors.js';

// Placeholder until the daikatana engine lands: recognises nothing.
export const daikatanaEngine: FormatEngine = { id: 'daikatana', label: 'Daikatana PAK', detect: async () => ({ match: false }), open: async () => fail('unsupported', 'Daikatana not yet supported') };
