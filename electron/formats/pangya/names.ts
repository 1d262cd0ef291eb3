import { createRequire } from 'node:module';
import { fail } from '../../../shared/errors.js';
import { latin1 } from '../../../shared/bytes/reader.js';

type Iconv = typeof import('iconv-lite');
let iconvLoaded: Iconv | null = null;

/**
 * iconv-lite, loaded on the first name that is not ASCII. Imported at start it cost every command ~40 ms
 * (its encodings, and the ESM loader's CommonJS export scan). A bundle (the CLI's, a worker's, Electron's)
 * has `require`, through which esbuild inlines the package or resolves it beside the bundle; the sources
 * (tests, the TypeScript loader) resolve it from this file.
 */
function iconv(): Iconv {
  if (iconvLoaded === null) {
    // A direct require() call, so that esbuild inlines the package into a bundle that carries its packages.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (typeof require === 'function') iconvLoaded = require('iconv-lite') as Iconv;
    else iconvLoaded = createRequire(import.meta.url)('iconv-lite') as Iconv;
  }
  return iconvLoaded;
}

/**
 * Pangya names are CP949 (Korean Windows): ASCII plus two-byte Hangul and Hanja, including the UHC
 * extension (syllables such as 똠 that EUC-KR lacks). Node's ICU 'euc-kr' decoder stops at EUC-KR, so
 * iconv-lite does both directions; it decodes what is not CP949 to U+FFFD, which CP949 cannot encode,
 * so a U+FFFD in the result means the bytes were not CP949.
 */

export interface DecodedName {
  text: string;
  /** False when the bytes are not valid CP949 (decoded with replacement characters). */
  cp949: boolean;
}

/** Control bytes (and DEL) never appear in a real name; with a wrong XTEA key they almost always do. */
export function hasControlBytes(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x20 || b === 0x7f) return true;
  }
  return false;
}

/** Whether every byte is ASCII, which CP949 keeps as is. */
function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

function isAsciiText(name: string): boolean {
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) >= 0x80) return false;
  return true;
}

export function decodeName(bytes: Uint8Array): DecodedName {
  // ASCII reads as Latin-1: iconv-lite builds its CP949 tables on first use (~60 ms), which most archives never need.
  if (isAscii(bytes)) return { text: latin1(bytes), cp949: true };
  const text = iconv().decode(bytes as Buffer, 'cp949');
  return { text, cp949: !text.includes('\uFFFD') };
}

/** `name` in CP949; FormatError('bad-name') naming `shown` when it has a character CP949 cannot represent. */
export function encodeName(name: string, shown = name): Uint8Array {
  if (isAsciiText(name)) {
    const ascii = new Uint8Array(name.length);
    for (let i = 0; i < name.length; i++) ascii[i] = name.charCodeAt(i);
    return ascii;
  }
  const buf = iconv().encode(name, 'cp949');
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
  // iconv-lite substitutes '?' for what it cannot encode: a round trip tells a real '?' from a lost one.
  if (decodeName(bytes).text !== name) fail('bad-name', `${shown}: the name has characters CP949 cannot store`);
  return bytes;
}

/**
 * The bytes of an XTEA entry's name: enciphered names are padded to whole 8-byte blocks with 0x00 (or
 * 0xCD, the MSVC debug heap's fill), so trailing 0x00 and 0xCD are trimmed. 0xCD is also a valid CP949
 * trail byte: when trimming leaves a dangling lead byte, one 0xCD is given back.
 */
export function trimNamePadding(bytes: Uint8Array): Uint8Array {
  return bytes.subarray(0, paddedNameEnd(bytes, 0, bytes.length));
}

/** Where the name in bytes[start, end) ends once its padding is trimmed (see trimNamePadding). */
export function paddedNameEnd(bytes: Uint8Array, start: number, end: number): number {
  let trimmed = end;
  while (trimmed > start && (bytes[trimmed - 1] === 0x00 || bytes[trimmed - 1] === 0xcd)) trimmed--;
  if (trimmed < end && bytes[trimmed] === 0xcd && endsWithLeadByte(bytes, start, trimmed)) trimmed++;
  return trimmed;
}

/** Whether bytes[start, end) ends with an unpaired CP949 lead byte (0x81..0xFE). */
function endsWithLeadByte(bytes: Uint8Array, start: number, end: number): boolean {
  let i = start;
  let dangling = false;
  while (i < end) {
    if (bytes[i]! >= 0x81 && bytes[i]! <= 0xfe) {
      if (i + 1 >= end) {
        dangling = true;
        break;
      }
      i += 2;
    } else i++;
  }
  return dangling;
}

/** Bits of `nameShape`. */
export const NAME_CONTROL = 1;
export const NAME_ASCII = 2;
/** ASCII whose path is the name with `\` turned into `/`: no leading, trailing or doubled separator. */
export const NAME_PLAIN_PATH = 4;
/** Nothing but separators: the name leaves no path. */
export const NAME_ALL_SEPARATORS = 8;

/**
 * What the name in bytes[start, end) is made of, as NAME_* bits, in one pass: whether it has control bytes,
 * is ASCII, and whether its path needs more than its separators turned (see normalizeArchivePath).
 */
export function nameShape(bytes: Uint8Array, start: number, end: number): number {
  let control = false;
  let ascii = true;
  let doubled = false;
  let onlySeparators = true;
  let previousSeparator = true; // a leading separator counts as doubled
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b < 0x20 || b === 0x7f) control = true;
    else if (b >= 0x80) ascii = false;
    const separator = b === 0x2f || b === 0x5c;
    if (separator && previousSeparator) doubled = true;
    if (!separator) onlySeparators = false;
    previousSeparator = separator;
  }
  let shape = 0;
  if (control) shape |= NAME_CONTROL;
  if (ascii) {
    shape |= NAME_ASCII;
    if (!doubled && !previousSeparator) shape |= NAME_PLAIN_PATH;
    if (onlySeparators && end > start) shape |= NAME_ALL_SEPARATORS;
  }
  return shape;
}
