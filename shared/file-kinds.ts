/**
 * What a file is, from its name, the same for the CLI's diffs, the VFS's mount rules and the studio's
 * previews and editor: one extension function and one list of each kind.
 */

/** The extension of a path's last segment in upper case, without the dot ('' when there is none). */
export function extensionOf(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const dot = path.lastIndexOf('.');
  return dot > slash ? path.slice(dot + 1).replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32)) : '';
}

/** TA's TDF syntax (`[SECTION] { key=value; }`): definitions, GUIs, maps' OTA, terrain TDT. */
export const TDF_EXTENSIONS: ReadonlySet<string> = new Set(['TDF', 'FBI', 'GUI', 'OTA', 'TDT']);

/** Plain text the games and their tools use (scripts' BOS sources, configs, lists, shaders, ...). */
export const TEXT_EXTENSIONS: ReadonlySet<string> = new Set([
  ...TDF_EXTENSIONS,
  'TXT',
  'BOS',
  'H',
  'INI',
  'CFG',
  'LST',
  'BAT',
  'SCR',
  'MD',
  'JSON',
  'CSV',
  'HTM',
  'HTML',
  'XML',
  'MAP',
  'SHADER',
  'DEF',
  'QC',
  'RC',
  'MNU',
  'AI',
  'OVR',
]);

export function isTdfSyntax(path: string): boolean {
  return TDF_EXTENSIONS.has(extensionOf(path));
}

export function isTextFile(path: string): boolean {
  return TEXT_EXTENSIONS.has(extensionOf(path));
}
