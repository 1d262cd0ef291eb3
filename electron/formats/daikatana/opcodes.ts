/**
 * Daikatana's PAK compression, as the engine reads it. One opcode byte x at a time:
 *   0x00–0x3F  copy x+1 literal bytes          0x40–0x7F  write x−62 zeros (2..65)
 *   0x80–0xBF  read b, write it x−126 times    0xC0–0xFD  read d, copy x−190 bytes (2..63) starting
 *   0xFE       one-byte no-op                             d+2 bytes back, byte by byte
 *   0xFF       end
 * The decoder is codec.ts, the encoder encode.ts.
 */
export const LITERAL_MAX = 64;
export const ZERO_RUN_MIN = 2;
export const RUN_MAX = 65;
export const COPY_MIN = 2;
export const COPY_MAX = 63;
export const DISTANCE_MIN = 2;
export const DISTANCE_MAX = 257;
export const END = 0xff;

export const LITERALS = 0x00;
export const ZEROS = 0x40;
export const RUN = 0x80;
export const COPY = 0xc0;
