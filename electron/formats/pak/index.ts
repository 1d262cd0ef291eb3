import type { FormatEngine } from '../archive.js';
import { fail } from '../errors.js';

// Placeholder until the pak engine lands: recognises nothing.
export const quakePakEngine: FormatEngine = { id: 'pak', label: 'Quake PAK', detect: async () => ({ match: false }), open: async () => fail('unsupported', 'PAK not yet supported') };
export const sinPakEngine: FormatEngine = { id: 'sin', label: 'SiN PAK', detect: async () => ({ match: false }), open: async () => fail('unsupported', 'SiN not yet supported') };
