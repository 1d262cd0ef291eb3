/** What preview a path gets, from its extension. */
export type PreviewKind = 'tdf' | 'text' | 'pcx' | 'image' | 'audio' | 'hex';

import { extensionOf, isTdfSyntax, isTextFile } from '../../shared/file-kinds';

const IMAGES: Record<string, string> = { PNG: 'image/png', JPG: 'image/jpeg', JPEG: 'image/jpeg', BMP: 'image/bmp', GIF: 'image/gif', TGA: 'image/x-tga' };

export function previewKindOf(path: string): PreviewKind {
  const ext = extensionOf(path);
  if (isTdfSyntax(path)) return 'tdf';
  if (isTextFile(path)) return 'text';
  if (ext === 'PCX') return 'pcx';
  if (ext in IMAGES && ext !== 'TGA') return 'image';
  if (ext === 'WAV') return 'audio';
  return 'hex';
}

export function imageMimeOf(path: string): string {
  return IMAGES[extensionOf(path)] ?? 'application/octet-stream';
}
