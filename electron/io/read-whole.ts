import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * A whole file's bytes read synchronously into an array of its own, or into `scratch` when it fits (the
 * result is then a view of it, valid until the caller reuses it). Writers that store files as they are
 * read every file into one scratch array: fresh arrays are memory outside the JavaScript heap, which the
 * collector frees only after tens of megabytes of them have piled up. Otherwise the array is its own (never a slice of Node's shared
 * buffer pool, so it can be handed to a worker or changed in place). Packing reads thousands of small
 * files one after another: fs.promises.readFile costs four thread-pool round trips per file and stalls
 * whatever else the thread is doing, where this is four plain system calls.
 */
export function readWholeFileSync(path: string, scratch?: Uint8Array, expectedSize?: number): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    // With the size known (a folder walk just listed it), a read past it that finds nothing replaces the
    // fstat: a pack of 30,000 files allocated 25 MB of Stats objects on the main thread otherwise.
    if (expectedSize !== undefined) {
      // With a byte of room past the size, the read that comes back short is that probe (a regular
      // file's read stops short only at its end): one read per file instead of two.
      if (scratch && scratch.length > expectedSize) {
        const got = readUpTo(fd, scratch.subarray(0, expectedSize + 1), expectedSize);
        if (got <= expectedSize) return scratch.subarray(0, got);
      } else {
        const out = readSized(fd, expectedSize, scratch);
        if (out.length < expectedSize || readSync(fd, probe, 0, 1, expectedSize) === 0) return out;
      }
    }
    return readSized(fd, fstatSync(fd).size, scratch);
  } finally {
    closeSync(fd);
  }
}

const probe = new Uint8Array(1);

function readSized(fd: number, size: number, scratch?: Uint8Array): Uint8Array {
  const out = scratch && scratch.length >= size ? scratch.subarray(0, size) : new Uint8Array(size);
  let at = 0;
  while (at < size) {
    const got = readSync(fd, out, at, size - at, at);
    if (got === 0) return out.subarray(0, at);
    at += got;
  }
  return out;
}

/** Reads into `out` until it is full, the file ends, or a read past `size` bytes comes back short; returns the bytes read. */
function readUpTo(fd: number, out: Uint8Array, size: number): number {
  let at = 0;
  while (at < out.length) {
    const got = readSync(fd, out, at, out.length - at, at);
    if (got === 0) break;
    at += got;
    if (at >= size && at < out.length) break;
  }
  return at;
}
