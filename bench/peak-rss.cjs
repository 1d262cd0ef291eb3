'use strict';
const { readFileSync } = require('node:fs');

/**
 * This process's peak resident set size in KiB. On Linux it is VmHWM from /proc/self/status, not
 * getrusage's ru_maxrss: ru_maxrss survives execve, so a child spawned by a large parent (the bench
 * process, after packing a 300 MB corpus in memory) reports the parent's size from the moment of the
 * fork. VmHWM belongs to the address space the child builds after exec. Elsewhere: ru_maxrss.
 */
function peakRssKb() {
  try {
    const match = /^VmHWM:\s*(\d+)\s*kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]);
  } catch {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS;
}

module.exports = { peakRssKb };
