import { stat } from 'node:fs/promises';

/**
 * What tells one version of a file from another without reading it: its size, mtime and inode (a file
 * written through a temporary and renamed into place has a new inode even when size and mtime repeat).
 */
export function fileStamp(info: { size: number; mtimeMs: number; ino: number }): string {
  return `${info.size}:${info.mtimeMs}:${info.ino}`;
}

/** The stamp of the file at `path` now, or null when there is none. */
export async function fileStampOf(path: string): Promise<string | null> {
  const info = await stat(path).catch(() => null);
  return info ? fileStamp(info) : null;
}
