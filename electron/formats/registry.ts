import type { FormatEngine } from './archive.js';
import { hpiEngine } from './hpi/index.js';
import { quakePakEngine, sinPakEngine } from './pak/index.js';
import { daikatanaEngine } from './daikatana/index.js';
import { pangyaEngine } from './pangya/index.js';
import { wadEngine } from './wad/index.js';

/**
 * Every format engine, in detection order. Each format lives in its own folder and exports one engine;
 * adding a format means adding it here, nothing else (the CLI, services and VFS only see FormatEngine).
 * The 'PACK' family validates each layout against the file; when several fit, the first listed here is
 * chosen and `detectFormat` reports the others.
 */
export const formatEngines: readonly FormatEngine[] = [hpiEngine, quakePakEngine, sinPakEngine, daikatanaEngine, pangyaEngine, wadEngine];
