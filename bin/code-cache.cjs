'use strict';
/**
 * Loads a CommonJS bundle with a V8 code cache: V8 then starts it from the bytecode a previous run
 * compiled instead of parsing ~0.7 MB of JavaScript and compiling every function a command calls (on the
 * bench machine `modpak info` started in ~58 ms with the cache, 82 ms without). Node 20 has no compile
 * cache of its own (module.enableCompileCache is Node 22), so this does what it does for one file.
 *
 * The cache is named for the V8 version, node's flags, and the bundle's size and modification time. V8
 * checks a cache against its own version and flags and the source's length only, so a rebuilt bundle must
 * never meet the cache of the one before; and it refuses a cache made under other flags (bin/modpak's
 * shebang passes one, a test's `node bin/modpak` none), so each set of flags keeps its own rather than
 * the two replacing each other at every start. A cache is written once, after a run that found none (or
 * one V8 refused), through a temporary file renamed into place; where the folder cannot be written,
 * nothing is kept.
 */
const { closeSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { isAscii } = require('node:buffer');
const Module = require('node:module');
const vm = require('node:vm');
const { crc32 } = require('node:zlib');

/**
 * A cache file is MAGIC, the CRC-32 of the V8 data, then the data. V8 checks a cache's version, flags
 * and length but not its bytes (release builds skip the checksum), and bytes damaged on disk abort the
 * process (a fatal error, not an exception); a cache whose sum is wrong is never given to V8.
 */
const MAGIC = 0x3143504d; // "MPC1"
const sealed = (data) => {
  const head = Buffer.alloc(8);
  head.writeUInt32LE(MAGIC, 0);
  head.writeUInt32LE(crc32(data), 4);
  return Buffer.concat([head, data]);
};
const checked = (file) => {
  if (file.length < 8 || file.readUInt32LE(0) !== MAGIC) return null;
  const data = file.subarray(8);
  return crc32(data) === file.readUInt32LE(4) ? data : null;
};

/**
 * Node's options as given (its command line, then NODE_OPTIONS) but those that only preload a module,
 * which leave V8's flags as they were: a preloaded hook (the bench's) does not need a cache of its own.
 */
function flagsForV8() {
  const words = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean)];
  const kept = [];
  for (let i = 0; i < words.length; i++) {
    if (PRELOADS.has(words[i])) i++;
    else if (!PRELOADS.has(words[i].split('=')[0])) kept.push(words[i]);
  }
  return kept;
}
const PRELOADS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader']);

/**
 * Runs the bundle at `file` as a CommonJS module; `cacheDir` holds its cache. Returns its exports,
 * what became of the cache ('used', 'missing' or 'refused'), and keep(), which writes a cache when
 * there was no usable one (call it once the command has run, so the cache holds what it compiled).
 */
function loadWithCodeCache(file, cacheDir) {
  const fd = openSync(file, 'r');
  let source;
  let stats;
  try {
    stats = fstatSync(fd);
    const bytes = readFileSync(fd);
    source = isAscii(bytes) ? bytes.latin1Slice() : bytes.toString('utf8');
  } finally {
    closeSync(fd);
  }
  const flags = crc32(flagsForV8().join(' ')).toString(16);
  const cacheFile = join(cacheDir, `modpak-${process.versions.v8}-${flags}-${stats.size}-${Math.trunc(stats.mtimeMs)}.cache`);
  let stored = null;
  try {
    stored = readFileSync(cacheFile);
  } catch {
    // none yet
  }
  const cachedData = stored && checked(stored);
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    cachedData: cachedData ?? undefined,
  });
  const cache = stored === null ? 'missing' : !cachedData || script.cachedDataRejected ? 'refused' : 'used';
  const module = new Module(file, null);
  module.filename = file;
  module.paths = Module._nodeModulePaths(dirname(file));
  script.runInThisContext()(module.exports, Module.createRequire(file), module, file, dirname(file));
  module.loaded = true;
  const keep = () => {
    if (cache === 'used') return;
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    try {
      mkdirSync(cacheDir, { recursive: true });
      writeFileSync(tmp, sealed(script.createCachedData()));
      renameSync(tmp, cacheFile);
    } catch {
      try {
        unlinkSync(tmp);
      } catch {
        // nothing was written
      }
    }
  };
  return { exports: module.exports, cache, keep };
}

module.exports = { loadWithCodeCache };
