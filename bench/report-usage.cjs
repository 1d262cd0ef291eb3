// Loaded with `node --require` into a measured child process: at exit, write this process's resource usage
// (peak RSS, CPU time) as JSON to the file named by MODPAK_USAGE_FILE. CommonJS, so that it does not load
// node's ES module loader itself: under bin/modpak's heap flag that loader's modules would compile afresh
// before modpak resets the flags (15 ms more than a user's start).
'use strict';
const { writeFileSync } = require('node:fs');
const { peakRssKb } = require('./peak-rss.cjs');

const started = performance.now();
process.on('exit', () => {
  const u = process.resourceUsage();
  const file = process.env.MODPAK_USAGE_FILE;
  if (file)
    writeFileSync(
      file,
      JSON.stringify({
        ms: performance.now() - started,
        maxRssKb: peakRssKb(),
        cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000,
        userMs: u.userCPUTime / 1000,
      }),
    );
});
