/**
 * The Cavedog trailer: TA 3.1c mounts an archive only if its last 36 bytes read
 * `Copyright ____ Cavedog Entertainment` (the year is not compared) with nothing after them.
 */
import { latin1 } from '../../../shared/bytes/reader.js';
export const CAVEDOG_TRAILER = 'Copyright 1997 Cavedog Entertainment';
export const TRAILER_SIZE = CAVEDOG_TRAILER.length; // 36
/** How much of the file's end we read to find a trailer that has bytes after it. */
export const TAIL_SIZE = 4096;

const PREFIX = 'Copyright ';
const SUFFIX = ' Cavedog Entertainment';

/** The trailer's text when the file ends with one, else null. `tail` is the file's last bytes. */
export function trailerText(tail: Uint8Array): string | null {
  if (tail.length < TRAILER_SIZE) return null;
  const text = latin1(tail.subarray(tail.length - TRAILER_SIZE));
  return text.startsWith(PREFIX) && text.endsWith(SUFFIX) ? text : null;
}

/** When a trailer appears in `tail` but not at its very end: how many bytes follow it. */
export function bytesAfterTrailer(tail: Uint8Array): number | null {
  const text = latin1(tail);
  for (let at = text.lastIndexOf(SUFFIX); at >= 0; at = text.lastIndexOf(SUFFIX, at - 1)) {
    const begin = at - 14; // 'Copyright ' + 4 year characters
    if (begin >= 0 && text.startsWith(PREFIX, begin)) return tail.length - (at + SUFFIX.length);
    if (at === 0) break;
  }
  return null;
}

/** The bytes a writer appends. */
export function trailerBytes(): Uint8Array {
  return Uint8Array.from(CAVEDOG_TRAILER, (c) => c.charCodeAt(0));
}
