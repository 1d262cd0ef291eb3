/** Byte helpers for previews: the contract carries file bytes as base64. */

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A classic hex dump: offset, 16 bytes, their printable ASCII. */
export function hexDump(bytes: Uint8Array, maxBytes = 16 * 1024): string {
  const n = Math.min(bytes.length, maxBytes);
  const lines: string[] = [];
  for (let row = 0; row < n; row += 16) {
    let hex = '';
    let ascii = '';
    for (let i = row; i < row + 16; i++) {
      const b = bytes[i];
      if (i < n && b !== undefined) {
        hex += b.toString(16).padStart(2, '0') + (i - row === 7 ? '  ' : ' ');
        ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
      } else {
        hex += i - row === 7 ? '    ' : '   ';
      }
    }
    lines.push(`${row.toString(16).padStart(8, '0')}  ${hex} ${ascii}`);
  }
  return lines.join('\n');
}

/** Text as the game wrote it: Windows-1252, which every byte decodes in. */
export { decodeCp1252 as decodeText } from '../../shared/text/cp1252';

/** Bytes as base64 (for the contract's byte fields), in chunks so a large file does not overflow the stack. */
export function bytesToBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
