/**
 * Windows-1252 → string, as TA's tools wrote text. Written out because engines differ: Node before 23
 * decodes the 'windows-1252' label as Latin-1, turning 0x80 into U+0080 instead of €.
 */

/** 0x80–0x9F; 0 marks the five bytes the code page leaves undefined (kept as their C1 code point). */
const HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
  0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

export function decodeCp1252(bytes: Uint8Array): string {
  const CHUNK = 0x8000;
  let out = '';
  const codes = new Uint16Array(Math.min(bytes.length, CHUNK));
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const end = Math.min(bytes.length, start + CHUNK);
    for (let i = start; i < end; i++) {
      const b = bytes[i];
      // Everything outside 0x80–0x9F is Latin-1, i.e. the byte is the code point.
      codes[i - start] = b >= 0x80 && b < 0xa0 ? HIGH[b - 0x80] || b : b;
    }
    // Chunked so String.fromCharCode never gets more arguments than the engine allows.
    out += String.fromCharCode(...codes.subarray(0, end - start));
  }
  return out;
}
