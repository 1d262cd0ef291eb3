'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/**
 * The node flags `bin/modpak`'s shebang passes (`--max-semi-space-size=1`), for whatever starts node as
 * users' modpak does but by itself: the bundle's warm-up, the tests' and benchmarks' child processes.
 */
function modpakNodeFlags() {
  const shebang = readFileSync(join(__dirname, 'modpak'), 'utf8').split('\n')[0];
  return shebang.split(/\s+/).filter((word) => word.startsWith('--'));
}

module.exports = { modpakNodeFlags };
