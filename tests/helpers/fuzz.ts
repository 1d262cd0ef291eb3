import { expect } from 'vitest';
import { MemorySource } from '../../electron/io/byte-source.js';
import { openArchiveSource } from '../../electron/formats/index.js';
import { FormatError } from '../../shared/errors.js';
import { prng } from './prng.js';

/**
 * A reusable fuzz harness for every archive format: deterministic mutations of a valid archive (truncation,
 * flipped bytes, 32-bit fields set to huge or negative values), each opened and fully read through the
 * format-neutral entry point. Every case must end in success or a FormatError: never another exception,
 * never a hang, never an allocation the file could not justify.
 */

export { prng };

export interface Mutation {
  label: string;
  bytes: Uint8Array;
}

const HUGE = [0xffffffff, 0x7fffffff, 0x80000000, 0x10000000, 0x00ffffff, 0xfffffff0];

/** `count` mutants of `original`, deterministic for a given seed. */
export function* mutations(original: Uint8Array, count: number, seed = 1): Generator<Mutation> {
  const rand = prng(seed);
  const pick = (n: number) => Math.floor(rand() * n);
  for (let i = 0; i < count; i++) {
    const kind = i % 5;
    const bytes = original.slice();
    if (kind === 0) {
      const cut = pick(original.length);
      yield { label: `#${i} truncated to ${cut}`, bytes: original.slice(0, cut) };
    } else if (kind === 1) {
      const flips = 1 + pick(8);
      const at: number[] = [];
      for (let f = 0; f < flips; f++) {
        const p = pick(bytes.length);
        bytes[p] = bytes[p]! ^ (1 + pick(255));
        at.push(p);
      }
      yield { label: `#${i} flipped bytes at ${at.join(',')}`, bytes };
    } else if (kind === 2 || kind === 3) {
      // Huge sizes, counts and offsets: overwrite an aligned 32-bit field, biased toward the header and
      // the start of the directory, where counts and sizes live.
      const region = kind === 2 ? Math.min(bytes.length, 256) : bytes.length;
      const p = Math.max(0, Math.min(bytes.length - 4, pick(region) & ~3));
      const value = HUGE[pick(HUGE.length)]!;
      new DataView(bytes.buffer, bytes.byteOffset, bytes.length).setUint32(p, value, true);
      yield { label: `#${i} u32 at ${p} = 0x${value.toString(16)}`, bytes };
    } else {
      // A field near the end (trailers, tables at the end of the file) set to a huge value.
      const p = Math.max(0, bytes.length - 4 - (pick(Math.min(bytes.length, 64)) & ~0));
      new DataView(bytes.buffer, bytes.byteOffset, bytes.length).setUint32(Math.min(p, bytes.length - 4), HUGE[pick(HUGE.length)]!, true);
      yield { label: `#${i} tail u32 at ${p}`, bytes };
    }
  }
}

/**
 * Run `fn` while every `new Uint8Array(n)` / `new ArrayBuffer(n)` larger than `limit` throws. This makes
 * "sizes are checked before anything is allocated" testable: a reader that trusts a huge size from the
 * file trips the guard instead of allocating gigabytes.
 */
export async function withAllocationLimit<T>(limit: number, fn: () => Promise<T>): Promise<T> {
  const RealU8 = globalThis.Uint8Array;
  const RealAB = globalThis.ArrayBuffer;
  const check = (n: unknown) => {
    if (typeof n === 'number' && n > limit) throw new Error(`allocation of ${n} bytes exceeds the fuzz limit of ${limit}`);
  };
  globalThis.Uint8Array = new Proxy(RealU8, {
    construct(target, args, newTarget) {
      check(args[0]);
      return Reflect.construct(target, args, newTarget === globalThis.Uint8Array ? target : newTarget);
    },
  });
  globalThis.ArrayBuffer = new Proxy(RealAB, {
    construct(target, args, newTarget) {
      check(args[0]);
      return Reflect.construct(target, args, newTarget === globalThis.ArrayBuffer ? target : newTarget);
    },
  });
  try {
    return await fn();
  } finally {
    globalThis.Uint8Array = RealU8;
    globalThis.ArrayBuffer = RealAB;
  }
}

export interface FuzzOutcome {
  ok: number;
  rejected: number;
}

/** Open and read every entry of `bytes` through the format-neutral entry point. */
export async function exerciseArchive(bytes: Uint8Array): Promise<void> {
  const archive = await openArchiveSource(new MemorySource(bytes, 'fuzz'));
  try {
    archive.info();
    for (const entry of archive.entries) {
      if (entry.dir) continue;
      await archive.read(entry, () => {});
      // The piece-by-piece reading must hold to the same rules.
      if (archive.stream) for await (const piece of archive.stream(entry, () => {})) void piece;
    }
  } finally {
    await archive.close();
  }
}

/**
 * Fuzz one valid archive: `count` mutants, each must succeed or fail with a FormatError, within
 * `perCaseMs`, allocating at most `allocationLimit` bytes at once (default: 16 MiB + 64 × the file).
 */
export async function fuzzArchive(
  original: Uint8Array,
  options: { count?: number; seed?: number; perCaseMs?: number; allocationLimit?: number } = {},
): Promise<FuzzOutcome> {
  const outcome: FuzzOutcome = { ok: 0, rejected: 0 };
  const limit = options.allocationLimit ?? 16 * 1024 * 1024 + 64 * original.length;
  for (const m of mutations(original, options.count ?? 300, options.seed ?? 1)) {
    const started = Date.now();
    try {
      await withAllocationLimit(limit, () => exerciseArchive(m.bytes));
      outcome.ok++;
    } catch (err) {
      if (!(err instanceof FormatError)) {
        throw new Error(
          `fuzz case ${m.label}: threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)} instead of a FormatError`,
          { cause: err },
        );
      }
      outcome.rejected++;
    }
    const took = Date.now() - started;
    expect(took, `fuzz case ${m.label} took ${took} ms`).toBeLessThan(options.perCaseMs ?? 2000);
  }
  return outcome;
}
