/** What preview a path gets, from its extension. */
export type PreviewKind = 'tdf' | 'text' | 'pcx' | 'image' | 'audio' | 'asset' | 'hex';

const TDF = new Set(['tdf', 'fbi', 'ota', 'gui', 'tdt']);
const TEXT = new Set(['txt', 'cfg', 'ini', 'bat', 'htm', 'html', 'lst', 'map', 'shader', 'def', 'qc', 'rc', 'bos', 'h', 'json', 'xml', 'csv', 'mnu', 'ai', 'ovr']);
/** Files the host's asset decoders show (asset.view): TA's sprites, palettes, models, scripts and maps. */
const ASSETS = new Set(['gaf', 'taf', 'pal', '3do', 'cob', 'tnt']);
const IMAGES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', bmp: 'image/bmp', gif: 'image/gif', tga: 'image/x-tga' };

export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export function previewKindOf(path: string): PreviewKind {
  const ext = extensionOf(path);
  if (TDF.has(ext)) return 'tdf';
  if (TEXT.has(ext)) return 'text';
  if (ext === 'pcx') return 'pcx';
  if (ASSETS.has(ext)) return 'asset';
  if (ext in IMAGES && ext !== 'tga') return 'image';
  if (ext === 'wav') return 'audio';
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
