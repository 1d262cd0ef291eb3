/**
 * A quick "can LZ77 shrink this at all?" for the 4 KiB-window LZ77s whose tokens cost a flag bit each and
 * are a literal byte or a 2-byte match of 2..17 bytes from at most 4095 back: HPI's (SQSH method 1) and
 * Pangya's (types 1 and 3). Both writers store what cannot shrink, so noise and data already compressed
 * skip the encoder's search.
 */

const MAX_DISTANCE = 4095;
const MAX_MATCH = 17;
/** Positions are absolute: each input starts 4096 past the end of the last, so no table needs clearing. FAR is out of every window. */
const FAR = -8192;
/** Last position of each 3-byte hash. */
const probe = new Int32Array(1 << 12).fill(FAR);
let probeBase = 0;
/** Below this size the test is not worth it: the encoder is cheap there. */
const PROBE_FROM = 256;

/**
 * Whether LZ77 would not make `data` smaller than it is: a quick greedy pass, with one candidate per
 * position, that counts the bytes it covers with matches of 3 or more within the window, and stops as soon
 * as 1/16 of the input is covered. Below that no parse saves more than the 1 bit a byte its flags cost
 * (a covered byte saves 8 bits at best, in a 17-byte match), so the bytes are as good stored.
 */
export function lz77CannotShrink(data: Uint8Array): boolean {
  const n = data.length;
  if (n < PROBE_FROM) return false;
  if (probeBase > (1 << 30) - n - 8192) {
    probe.fill(FAR);
    probeBase = 0;
  }
  const b = probeBase;
  probeBase += n + 4096;
  const enough = n >>> 4;
  let covered = 0;
  for (let pos = 0; pos + 3 <= n;) {
    const key = Math.imul((data[pos]! << 16) | (data[pos + 1]! << 8) | data[pos + 2]!, 0x9e3779b1) >>> 20;
    const c = probe[key]! - b;
    probe[key] = b + pos;
    if (pos - c <= MAX_DISTANCE && data[c] === data[pos] && data[c + 1] === data[pos + 1] && data[c + 2] === data[pos + 2]) {
      let l = 3;
      while (l < MAX_MATCH && pos + l < n && data[c + l] === data[pos + l]) l++;
      covered += l;
      if (covered >= enough) return false;
      pos += l;
    } else pos++;
  }
  return true;
}
