import type { FormatEngine } from '../archive.js';
import { QUAKE_LAYOUT, SIN_LAYOUT, type PackLayout } from './layout.js';
import { detectLayout } from './recognition.js';
import { openPack } from './archive.js';
import { writePack } from './writer.js';

/**
 * Quake / Half-Life / Quake 2 PAK (64-byte entries: name[56], offset, length) and SiN PAK (the same header,
 * 128-byte entries: name[120], offset, length). Everything is stored; the two differ only in layout.
 */
function plainPackEngine(layout: PackLayout): FormatEngine {
  return {
    id: layout.id,
    label: layout.label,
    detect: (source) => detectLayout(source, layout),
    open: (source) => openPack(source, layout),
    pack: (files, sink, options) => writePack(files, sink, options, layout),
  };
}

export const quakePakEngine: FormatEngine = plainPackEngine(QUAKE_LAYOUT);
export const sinPakEngine: FormatEngine = plainPackEngine(SIN_LAYOUT);
