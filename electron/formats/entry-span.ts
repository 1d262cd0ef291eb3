/**
 * An entry kept as one run of its archive's file, stored or compressed as a whole by one of the PAK
 * family's codecs (Daikatana, Pangya's LZ77 types): where it lies and how it decodes is all a thread needs
 * to write it from the file alone, with no directory of its own. The method numbers are the ones the
 * writers' compression uses (file-codecs.ts), so they cross thread boundaries as they are.
 */
import type { ChunkScratch, ReadSync } from './archive.js';
import { DK_WINDOW, dkDecompress, dkDecompressPieces } from './daikatana/codec.js';
import { LZ_WINDOW, lz77Decode, lz77DecodePieces } from './pangya/lz77.js';

export const STORED_METHOD = 0;
/** Daikatana's compression; Pangya's LZ77 types 1 and 3 (the numbers of file-codecs.ts). */
export const DAIKATANA_METHOD = 16;
export const PANGYA_LZ77_METHOD = 17;
export const PANGYA_LZ77X_METHOD = 18;

export type SpanMethod = typeof STORED_METHOD | typeof DAIKATANA_METHOD | typeof PANGYA_LZ77_METHOD | typeof PANGYA_LZ77X_METHOD;

export interface EntrySpan {
  /** Where its bytes start in the archive's file, and how many it takes there. */
  offset: number;
  packedSize: number;
  /** Its decoded size. */
  size: number;
  method: SpanMethod;
}

/** A stored span is written a slice at a time, each read as one view of the source's read-ahead block. */
const STORED_SLICE = 128 << 10;

/** The span's stored bytes decoded whole. */
export function decodeSpan(method: SpanMethod, packed: Uint8Array, size: number): Uint8Array {
  switch (method) {
    case STORED_METHOD:
      return packed;
    case DAIKATANA_METHOD:
      return dkDecompress(packed, size);
    case PANGYA_LZ77_METHOD:
      return lz77Decode(packed, size, 1);
    case PANGYA_LZ77X_METHOD:
      return lz77Decode(packed, size, 3);
  }
}

/**
 * The same bytes a piece at a time, decoded in a window lent by `scratch` (each piece then valid until the
 * next), so a declared size costs no more memory than the window.
 */
export function decodeSpanPieces(method: SpanMethod, packed: Uint8Array, size: number, scratch?: ChunkScratch): Iterable<Uint8Array> {
  switch (method) {
    case STORED_METHOD:
      return [packed];
    case DAIKATANA_METHOD:
      return dkDecompressPieces(packed, size, scratch?.take(DK_WINDOW));
    case PANGYA_LZ77_METHOD:
      return lz77DecodePieces(packed, size, 1, scratch?.take(LZ_WINDOW));
    case PANGYA_LZ77X_METHOD:
      return lz77DecodePieces(packed, size, 3, scratch?.take(LZ_WINDOW));
  }
}

/**
 * The span's bytes handed to `put` piece by piece, synchronously (an extraction thread's writes): a stored
 * span in slices, a compressed one read whole (it is decoded before the next read) and decoded in pieces.
 * The same errors as the archive's own reads, raised when reached.
 */
export function spanPiecesSync(read: ReadSync, span: EntrySpan, put: (piece: Uint8Array) => void, scratch: ChunkScratch): void {
  const { offset, packedSize, size, method } = span;
  if (method === STORED_METHOD) {
    for (let at = 0; at < packedSize; at += STORED_SLICE) put(read(offset + at, Math.min(STORED_SLICE, packedSize - at)));
    return;
  }
  for (const piece of decodeSpanPieces(method, read(offset, packedSize), size, scratch)) put(piece);
}
