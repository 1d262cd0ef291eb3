/**
 * Windows-1252, the 8-bit code page TA's files and tools use, written once for every side (HPI names,
 * TDF text, the studio's previews and editor). Written out because engines differ: Node before 23 decodes
 * the 'windows-1252' label as Latin-1, turning 0x80 into U+0080 instead of €. The five bytes the code page
 * leaves undefined (0x81 0x8D 0x8F 0x90 0x9D) map to the C1 control characters of the same value, as
 * Windows does, so every byte survives decoding and encoding again.
 */

/** 0x80–0x9F. */
const HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019,
  0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];
const BYTE_OF = new Map<number, number>(HIGH.map((code, i) => [code, 0x80 + i]));

/** The character of one byte. */
export function cp1252Char(byte: number): number {
  return byte >= 0x80 && byte < 0xa0 ? (HIGH[byte - 0x80] ?? byte) : byte;
}

/** The byte of a UTF-16 code unit, or undefined when Windows-1252 has no such character. */
export function cp1252Byte(code: number): number | undefined {
  if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) return code;
  return BYTE_OF.get(code);
}

export function decodeCp1252(bytes: Uint8Array): string {
  const CHUNK = 0x8000;
  let out = '';
  const codes = new Uint16Array(Math.min(bytes.length, CHUNK));
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const end = Math.min(bytes.length, start + CHUNK);
    for (let i = start; i < end; i++) codes[i - start] = cp1252Char(bytes[i]!);
    // Chunked so String.fromCharCode never gets more arguments than the engine allows.
    out += String.fromCharCode(...codes.subarray(0, end - start));
  }
  return out;
}

/**
 * Text back to bytes. Returns the index of the first character Windows-1252 cannot hold instead of
 * throwing, so each caller refuses it in its own words (a name, a line of a file).
 */
export function encodeCp1252(text: string): { bytes: Uint8Array } | { unencodable: number } {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const b = cp1252Byte(text.charCodeAt(i));
    if (b === undefined) return { unencodable: i };
    bytes[i] = b;
  }
  return { bytes };
}
