'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/**
 * The shebang's heap flags back at V8's defaults (0 for both), as `bin/modpak` sets them once its heap is
 * made: V8 accepts node's compiled internals, and the bundle's cache, under its default flags only.
 */
const HEAP_FLAGS_OFF = '--max-semi-space-size=0 --initial-old-space-size=0';

/**
 * The node flags `bin/modpak`'s shebang passes (its heap's sizes), for whatever starts node as
 * users' modpak does but by itself: the bundle's warm-up, the tests' and benchmarks' child processes.
 */
function modpakNodeFlags() {
  const shebang = readFileSync(join(__dirname, 'modpak'), 'utf8').split('\n')[0];
  return shebang.split(/\s+/).filter((word) => word.startsWith('--'));
}

module.exports = { HEAP_FLAGS_OFF, modpakNodeFlags };
