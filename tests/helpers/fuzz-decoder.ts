import { FormatError } from '../../shared/errors.js';
import { mutations, withAllocationLimit } from './fuzz.js';

/**
 * Fuzz a pure asset decoder (not an archive): `count` mutants of a valid file through `decode`; each must
 * succeed or throw a FormatError, without a hang and without an allocation larger than the file justifies.
 */
export async function fuzzDecoder(
  original: Uint8Array,
  decode: (bytes: Uint8Array) => unknown,
  options: { count?: number; seed?: number; allocationLimit?: number } = {},
): Promise<{ ok: number; rejected: number }> {
  const outcome = { ok: 0, rejected: 0 };
  const limit = options.allocationLimit ?? 16 * 1024 * 1024 + 64 * original.length;
  for (const m of mutations(original, options.count ?? 300, options.seed ?? 1)) {
    try {
      await withAllocationLimit(limit, () => withFloatLimit(limit, async () => decode(m.bytes)));
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
  }
  return outcome;
}

/** Model decoders allocate Float32Arrays (positions, UVs) too: `new Float32Array(n)` over the limit throws. */
async function withFloatLimit<T>(limit: number, fn: () => Promise<T>): Promise<T> {
  const RealF32 = globalThis.Float32Array;
  globalThis.Float32Array = new Proxy(RealF32, {
    construct(target, args, newTarget) {
      const n = args[0];
      if (typeof n === 'number' && n * 4 > limit) throw new Error(`allocation of ${n * 4} bytes exceeds the fuzz limit of ${limit}`);
      return Reflect.construct(target, args, newTarget === globalThis.Float32Array ? target : newTarget);
    },
  });
  try {
    return await fn();
  } finally {
    globalThis.Float32Array = RealF32;
  }
}
