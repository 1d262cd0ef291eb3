/**
 * HPI names are 8-bit strings. We show them as Windows-1252 (what TA's tools ran on) and keep every byte
 * value reachable both ways: the five bytes 1252 leaves undefined map to the C1 control characters of the
 * same value, as Windows does, so decoding then encoding gives back the stored bytes.
 */
import { fail } from '../../../shared/errors.js';
import { cp1252Char, encodeCp1252 } from '../../../shared/text/cp1252.js';

const DECODE: string[] = Array.from({ length: 256 }, (_, b) => String.fromCharCode(cp1252Char(b)));

/** The NUL-terminated name at `at` in `bytes` (a decoded block), bounded by `end`. */
export function readName(bytes: Uint8Array, at: number, end: number, where: string): string {
  if (!Number.isSafeInteger(at) || at < 0 || at >= end) fail('out-of-bounds', `${where}: name at ${at} lies outside [0, ${end})`, { offset: at, expected: end });
  const stop = bytes.indexOf(0, at);
  if (stop < 0 || stop >= end) fail('bad-name', `${where}: name at ${at} is not NUL-terminated before ${end}`, { offset: at });
  const raw = bytes.subarray(at, stop);
  let high = false;
  for (let i = 0; i < raw.length; i++) if (raw[i]! >= 0x80) high = true;
  // Plain ASCII (nearly every name) converts in one native call; the table only for 8-bit names.
  if (!high) return String.fromCharCode.apply(null, raw as unknown as number[]);
  let s = '';
  for (let i = 0; i < raw.length; i++) s += DECODE[raw[i]!]!;
  return s;
}

/** A name's stored bytes (without the NUL); characters outside Windows-1252 are refused. */
export function encodeName(name: string): Uint8Array {
  const encoded = encodeCp1252(name);
  if ('unencodable' in encoded || encoded.bytes.includes(0)) {
    fail('bad-name', `cannot store the name ${JSON.stringify(name)} in an HPI archive: only Windows-1252 characters fit`);
  }
  return encoded.bytes;
}
