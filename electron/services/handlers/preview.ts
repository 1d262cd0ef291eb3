import type { FilePreview } from '../../../shared/contract.js';

/** The default preview size: enough for any text or image the screens show, small enough for IPC. */
export const DEFAULT_PREVIEW_BYTES = 1 << 20;

/** A file's first bytes as the contract's preview (base64, with whether it was cut). */
export function toPreview(
  path: string,
  bytes: Uint8Array,
  archive: string | null,
  maxBytes = DEFAULT_PREVIEW_BYTES,
  size = bytes.length,
): FilePreview {
  const shown = bytes.length > maxBytes ? bytes.subarray(0, maxBytes) : bytes;
  return {
    path,
    size,
    data: Buffer.from(shown.buffer, shown.byteOffset, shown.byteLength).toString('base64'),
    truncated: size > shown.length,
    archive,
  };
}
