/** What preview a path gets, from its extension. */
export type PreviewKind = 'tdf' | 'text' | 'pcx' | 'image' | 'audio' | 'asset' | 'hex';

import { extensionOf, isTdfSyntax, isTextFile } from '../../shared/file-kinds';
/**
 * Files the host's asset decoders show (asset.view): TA's sprites, palettes, models, scripts and maps, and
 * the Quake family's pictures (qpic, WAL, sprites, Quake 2 sprites), models (MDL, MD2, DKM) and maps (BSP).
 */
const ASSETS = new Set(['GAF', 'TAF', 'PAL', '3DO', 'COB', 'TNT', 'LMP', 'WAL', 'SPR', 'SP2', 'BSP', 'MDL', 'MD2', 'DKM']);

const IMAGES: Record<string, string> = {
  PNG: 'image/png',
  JPG: 'image/jpeg',
  JPEG: 'image/jpeg',
  BMP: 'image/bmp',
  GIF: 'image/gif',
  TGA: 'image/x-tga',
};

export function previewKindOf(path: string): PreviewKind {
  const ext = extensionOf(path);
  if (isTdfSyntax(path)) return 'tdf';
  if (isTextFile(path)) return 'text';
  if (ext === 'PCX') return 'pcx';
  if (ASSETS.has(ext)) return 'asset';
  if (ext in IMAGES && ext !== 'TGA') return 'image';
  if (ext === 'WAV') return 'audio';
  return 'hex';
}

/** The label of a preview kind on its tab. */
export function previewKindLabel(kind: PreviewKind, path: string): string {
  if (kind === 'tdf') return 'TDF';
  if (kind === 'asset') return extensionOf(path).toUpperCase();
  return kind;
}

export function imageMimeOf(path: string): string {
  return IMAGES[extensionOf(path)] ?? 'application/octet-stream';
}
