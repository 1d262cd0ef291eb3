/**
 * Daikatana's PAK compression, as the engine reads it. One opcode byte x at a time:
 *   0x00–0x3F  copy x+1 literal bytes          0x40–0x7F  write x−62 zeros (2..65)
 *   0x80–0xBF  read b, write it x−126 times    0xC0–0xFD  read d, copy x−190 bytes (2..63) starting
 *   0xFE       one-byte no-op                             d+2 bytes back, byte by byte
 *   0xFF       end
 * The decoder is wasm/stream.wat (driven by codec.ts), the encoder wasm/encode.wat (driven by encode.ts);
 * the bounds their callers size buffers by are below.
 */
/** The longest literal opcode's bytes: the encoder's worst case adds an opcode per this many. */
export const LITERAL_MAX = 64;
/** The most one opcode writes (a zero run): a piece's overshoot past its stop. */
export const RUN_MAX = 65;
/** The furthest a back-reference reaches: the history a piecewise decode keeps. */
export const DISTANCE_MAX = 257;
