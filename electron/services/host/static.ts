import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

/** The built renderer's files, served read-only from one folder; nothing outside it is reachable. */
const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wav': 'audio/wav',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(path: string): string {
  return contentTypes[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file for a URL path inside `root`, or null when it is missing or would leave the folder (by name or
 * by a symbolic link).
 * `/` is index.html.
 */
export async function staticFile(root: string, urlPath: string): Promise<{ path: string; bytes: Buffer } | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const rel = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const base = resolve(root);
  const full = resolve(join(base, rel));
  if (full !== base && !full.startsWith(base + sep)) return null;
  // Only real paths inside the folder: a symbolic link planted in it (to a file or a folder) is not followed out.
  const [realBase, realFull] = await Promise.all([realpath(base).catch(() => null), realpath(full).catch(() => null)]);
  if (realBase === null || realFull === null || (realFull !== realBase && !realFull.startsWith(realBase + sep))) return null;
  const info = await stat(realFull).catch(() => null);
  if (!info?.isFile()) return null;
  return { path: realFull, bytes: await readFile(realFull) };
}
