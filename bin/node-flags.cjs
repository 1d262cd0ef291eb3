'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/**
 * What `bin/modpak` sets once its heap is made: the shebang's heap sizes back at V8's defaults (0 for both),
 * since V8 accepts node's compiled internals and the bundle's cache under its default flags only; and
 * synchronous optimizing compiles, which only isolates made afterwards (the worker threads) take up.
 */
const FLAGS_AFTER_START = '--max-semi-space-size=0 --initial-old-space-size=0 --no-concurrent-recompilation';

/**
 * The node flags `bin/modpak`'s shebang passes (its heap's sizes and how it scavenges), for whatever starts
 * node as users' modpak does but by itself: the bundle's warm-up, the tests' and benchmarks' child processes.
 */
function modpakNodeFlags() {
  const shebang = readFileSync(join(__dirname, 'modpak'), 'utf8').split('\n')[0];
  return shebang.split(/\s+/).filter((word) => word.startsWith('--'));
}

module.exports = { FLAGS_AFTER_START, modpakNodeFlags };
