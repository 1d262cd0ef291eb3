// Loaded with `node --import` into a measured child process: at exit, write this process's resource usage
// (peak RSS, CPU time) as JSON to the file named by MODPAK_USAGE_FILE.
import { writeFileSync } from 'node:fs';
import { peakRssKb } from './peak-rss.mjs';

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
