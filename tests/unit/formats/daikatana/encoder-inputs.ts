import { prng } from '../../../helpers/prng.js';

/**
 * 3DO- and BSP-like tables for the encoder tests: `count` little-endian ints whose high bytes repeat from
 * record to record, so 3-byte prefixes recur every few bytes.
 */
export function records(count: number, seed: number): Uint8Array {
  const rand = prng(seed);
  const out = new Uint8Array(count * 4);
  const view = new DataView(out.buffer);
  let v = 0;
  for (let i = 0; i < count; i++) view.setInt32(i * 4, (v += Math.floor(rand() * 64) - 32) * 65536, true);
  return out;
}
