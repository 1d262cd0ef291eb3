/**
 * HPI names are 8-bit strings. We show them as Windows-1252 (what TA's tools ran on) and keep every byte
 * value reachable both ways: the five bytes 1252 leaves undefined map to the C1 control characters of the
 * same value, as Windows does, so decoding then encoding gives back the stored bytes.
 */
import { fail } from '../../../shared/errors.js';
import { cp1252Char, encodeCp1252 } from '../../../shared/text/cp1252.js';

const DECODE: string[] = Array.from({ length: 256 }, (_, b) => String.fromCharCode(cp1252Char(b)));

/** Longest name (one path component) read: far beyond any real archive's, and what every file system holds. */
export const MAX_NAME_BYTES = 255;
/** Longest full path built from the names of nested folders. */
export const MAX_PATH_LENGTH = 4096;

const label = (where: string, whereAt?: number) => (whereAt === undefined ? where : `${where} ${whereAt}`);

/**
 * The NUL-terminated name at `at` in `bytes` (a decoded block), bounded by `end` and by MAX_NAME_BYTES.
 * `where` says whose name it is in an error, followed by `whereAt` when given (so a directory walk builds
 * no label string per entry). Decoded byte by byte from a table of one-character strings: no view or
 * array is made per name.
 */
export function readName(bytes: Uint8Array, at: number, end: number, where: string, whereAt?: number): string {
  if (!Number.isSafeInteger(at) || at < 0 || at >= end)
    fail('out-of-bounds', `${label(where, whereAt)}: name at ${at} lies outside [0, ${end})`, { offset: at, expected: end });
  // The NUL is looked for within the longest allowed name only, so a name block without NULs costs little.
  const window = Math.min(end, at + MAX_NAME_BYTES + 1);
  let name = '';
  for (let i = at; i < window; i++) {
    const b = bytes[i]!;
    if (b === 0) return name;
    name += DECODE[b]!;
  }
  if (window < end)
    fail('bad-name', `${label(where, whereAt)}: name at ${at} is longer than ${MAX_NAME_BYTES} bytes`, {
      offset: at,
      expected: MAX_NAME_BYTES,
    });
  fail('bad-name', `${label(where, whereAt)}: name at ${at} is not NUL-terminated before ${end}`, { offset: at });
}

/**
 * Names read out of one decoded block (a whole directory), with the same bounds and errors as readName.
 * The block is turned into one Latin-1 string once, natively, and each name is a substring of it: one
 * string per name instead of one per character, which was most of a directory walk's garbage. Latin-1
 * and Windows-1252 differ only in 0x80–0x9F; a name holding such a byte is decoded by the table instead.
 */
export class BlockNames {
  private readonly text: string;

  constructor(private readonly bytes: Uint8Array) {
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  }

  /** readName(bytes, at, end, where, whereAt), from the block's text. */
  read(at: number, end: number, where: string, whereAt?: number): string {
    const bytes = this.bytes;
    if (!Number.isSafeInteger(at) || at < 0 || at >= end || end > bytes.length) return readName(bytes, at, end, where, whereAt);
    const window = Math.min(end, at + MAX_NAME_BYTES + 1);
    let high = false;
    for (let i = at; i < window; i++) {
      const b = bytes[i]!;
      if (b === 0) return high ? readName(bytes, at, end, where, whereAt) : this.text.substring(at, i);
      if (b >= 0x80 && b < 0xa0) high = true;
    }
    return readName(bytes, at, end, where, whereAt);
  }
}

/** A path joined from a folder's prefix and a name, refused past MAX_PATH_LENGTH (a chain of long folder names). */
export function joinedPath(prefix: string, name: string, where: string): string {
  if (prefix.length + name.length > MAX_PATH_LENGTH)
    fail('bad-name', `${where}: the path ${JSON.stringify((prefix + name).slice(0, 60))}… is longer than ${MAX_PATH_LENGTH} characters`, {
      expected: MAX_PATH_LENGTH,
      actual: prefix.length + name.length,
    });
  return prefix + name;
}

/** A name's stored bytes (without the NUL); characters outside Windows-1252 are refused. */
export function encodeName(name: string): Uint8Array {
  if (name.length > MAX_NAME_BYTES)
    fail(
      'bad-name',
      `cannot store the name ${JSON.stringify(name.slice(0, 60))}…: it is ${name.length} characters, longer than ${MAX_NAME_BYTES}`,
    );
  const encoded = encodeCp1252(name);
  if ('unencodable' in encoded || encoded.bytes.includes(0)) {
    fail('bad-name', `cannot store the name ${JSON.stringify(name)} in an HPI archive: only Windows-1252 characters fit`);
  }
  return encoded.bytes;
}
