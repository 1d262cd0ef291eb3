/**
 * Preload for a child process (`node --import ./faults.mjs …`): makes the N-th read or the N-th write of a
 * file under MODPAK_FAULT_DIR fail, whichever way the code reads and writes (sync and callback calls,
 * fs.promises, FileHandle methods, and the streams built on them). Operations elsewhere (node_modules,
 * the CLI bundle) are not counted.
 *
 *   MODPAK_FAULT_DIR     only paths under this folder count (fds opened on them too)
 *   MODPAK_FAULT         "read:N:EIO" or "write:N:ENOSPC" (absent: count only)
 *   MODPAK_FAULT_REPORT  a file the counts are written to at exit: {"read": R, "write": W, "injected": bool}
 * or, for many runs in one process, through globalThis[Symbol.for('modpak.faults')].arm(dir, fault).
 */
import fs from 'node:fs';
import { writeFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { Buffer } from 'node:buffer';
import { syncBuiltinESMExports } from 'node:module';

let root = null;
let faultKind, target, faultCode;
let counts = { read: 0, write: 0, injected: false };
/** Start counting afresh: under `dir` (null: nothing counts), failing as `fault` says. */
function arm(dir, fault) {
  root = dir ? resolve(dir) + sep : null;
  const [kind, at, code] = (fault ?? '').split(':');
  faultKind = kind;
  target = Number(at);
  faultCode = code;
  counts = { read: 0, write: 0, injected: false };
}
arm(process.env.MODPAK_FAULT_DIR, process.env.MODPAK_FAULT);
const report = process.env.MODPAK_FAULT_REPORT;
if (report) process.on('exit', () => writeFileSync(report, JSON.stringify(counts)));
// A driver running many commands in one process re-arms between them (see drive.mjs).
globalThis[Symbol.for('modpak.faults')] = { arm, counts: () => counts };

const messages = { EIO: 'i/o error', ENOSPC: 'no space left on device' };
const errnos = { EIO: -5, ENOSPC: -28 };

const watchedPath = (p) => {
  if (!root) return false;
  if (p instanceof URL) p = p.pathname;
  else if (Buffer.isBuffer(p)) p = p.toString();
  return typeof p === 'string' && (resolve(p) + sep).startsWith(root);
};
const fds = new Set();
const handles = new WeakSet();
const watchedFd = (fd) => typeof fd === 'number' && fds.has(fd);

/** Count one operation; the error to fail it with, or null. */
function tick(kind, syscall, path) {
  counts[kind]++;
  if (kind !== faultKind || counts[kind] !== target) return null;
  counts.injected = true;
  const code = faultCode || (kind === 'read' ? 'EIO' : 'ENOSPC');
  const err = new Error(`${code}: ${messages[code] ?? 'fault'}, ${syscall}${path ? ` '${path}'` : ''}`);
  Object.assign(err, { code, errno: errnos[code] ?? -5, syscall }, path ? { path } : {});
  return err;
}

// Opening: remember the fds and handles of watched files.
const { open, openSync } = fs;
fs.openSync = function (path, ...rest) {
  const fd = openSync.call(this, path, ...rest);
  if (watchedPath(path)) fds.add(fd);
  return fd;
};
fs.open = function (path, ...rest) {
  const cb = rest.pop();
  return open.call(this, path, ...rest, (err, fd) => {
    if (!err && watchedPath(path)) fds.add(fd);
    cb(err, fd);
  });
};
const pOpen = fs.promises.open;
fs.promises.open = async function (path, ...rest) {
  const handle = await pOpen.call(this, path, ...rest);
  if (watchedPath(path)) handles.add(handle);
  return handle;
};
for (const name of ['close', 'closeSync']) {
  const orig = fs[name];
  fs[name] = function (fd, ...rest) {
    fds.delete(fd);
    return orig.call(this, fd, ...rest);
  };
}

/** Wrap fs[name] (by fd, or by path when `byPath`) as a counted `kind` operation. */
function wrapSync(name, kind, byPath) {
  const orig = fs[name];
  if (!orig) return;
  fs[name] = function (first, ...rest) {
    if (byPath ? watchedPath(first) : watchedFd(first)) {
      const err = tick(kind, name.replace(/Sync$/, ''), byPath ? String(first) : undefined);
      if (err) throw err;
    }
    return orig.call(this, first, ...rest);
  };
}
function wrapCallback(name, kind, byPath) {
  const orig = fs[name];
  if (!orig) return;
  fs[name] = function (first, ...rest) {
    if (byPath ? watchedPath(first) : watchedFd(first)) {
      const err = tick(kind, name, byPath ? String(first) : undefined);
      const cb = rest[rest.length - 1];
      if (err && typeof cb === 'function') {
        process.nextTick(cb, err);
        return undefined;
      }
    }
    return orig.call(this, first, ...rest);
  };
}
function wrapPromise(obj, name, kind, byPath, syscall = name) {
  const orig = obj[name];
  if (!orig) return;
  obj[name] = async function (first, ...rest) {
    const watched = byPath ? watchedPath(first) : handles.has(this);
    if (watched) {
      const err = tick(kind, syscall, byPath ? String(first) : undefined);
      if (err) throw err;
    }
    return orig.call(this, first, ...rest);
  };
}

for (const n of ['readSync', 'readvSync']) wrapSync(n, 'read', false);
for (const n of ['writeSync', 'writevSync']) wrapSync(n, 'write', false);
for (const n of ['readFileSync']) wrapSync(n, 'read', true);
for (const n of ['writeFileSync', 'appendFileSync', 'copyFileSync']) wrapSync(n, 'write', true);
for (const n of ['read', 'readv']) wrapCallback(n, 'read', false);
for (const n of ['write', 'writev']) wrapCallback(n, 'write', false);
for (const n of ['readFile']) wrapCallback(n, 'read', true);
for (const n of ['writeFile', 'appendFile', 'copyFile']) wrapCallback(n, 'write', true);
// A readFileSync/writeFileSync given an fd counts too.
for (const [n, kind] of [
  ['readFileSync', 'read'],
  ['writeFileSync', 'write'],
]) {
  const byPath = fs[n];
  fs[n] = function (first, ...rest) {
    if (watchedFd(first)) {
      const err = tick(kind, n.replace(/Sync$/, ''));
      if (err) throw err;
    }
    return byPath.call(this, first, ...rest);
  };
}
for (const n of ['readFile']) wrapPromise(fs.promises, n, 'read', true);
for (const n of ['writeFile', 'appendFile', 'copyFile']) wrapPromise(fs.promises, n, 'write', true);

// FileHandle methods: the class is reached through a handle (it is not exported).
const probe = await pOpen(process.execPath, 'r');
const FileHandle = Object.getPrototypeOf(probe);
await probe.close();
for (const n of ['read', 'readv', 'readFile']) wrapPromise(FileHandle, n, 'read', false);
for (const n of ['write', 'writev', 'writeFile', 'appendFile']) wrapPromise(FileHandle, n, 'write', false);

// Named imports of builtins (`import { readSync } from 'node:fs'`, as the CLI bundle does) are bound to
// their own copies; without this they would bypass every wrapper above.
syncBuiltinESMExports();
