/**
 * WAD2 (Quake) and WAD3 (Half-Life) lump types. The two share the directory layout but number their types
 * differently: Quake's wad.h has 0x44 for miptex, Valve's wadlib 0x43 (0x44 is "raw" there). Pure: the
 * archive engine, the writer and the asset decoders all name types from this one table.
 */

export type WadVersion = 2 | 3;

export type WadLumpKind = 'none' | 'label' | 'palette' | 'qtex' | 'colormap' | 'qpic' | 'sound' | 'miptex' | 'raw' | 'colormap2' | 'font';

const WAD2_TYPES: Record<number, WadLumpKind> = {
  0x00: 'none',
  0x01: 'label',
  0x40: 'palette',
  0x41: 'qtex',
  0x42: 'qpic',
  0x43: 'sound',
  0x44: 'miptex',
};
const WAD3_TYPES: Record<number, WadLumpKind> = {
  0x00: 'none',
  0x01: 'label',
  0x40: 'palette',
  0x41: 'colormap',
  0x42: 'qpic',
  0x43: 'miptex',
  0x44: 'raw',
  0x45: 'colormap2',
  0x46: 'font',
};

/** The name of a stored type byte ("miptex"), or `type 0x47` for one neither table knows. */
export function wadLumpKind(version: WadVersion, type: number): WadLumpKind | `type 0x${string}` {
  return (version === 2 ? WAD2_TYPES : WAD3_TYPES)[type] ?? `type 0x${type.toString(16).padStart(2, '0')}`;
}

/** The type byte a writer stores for `kind`. */
export function wadTypeCode(version: WadVersion, kind: WadLumpKind): number {
  const table = version === 2 ? WAD2_TYPES : WAD3_TYPES;
  for (const [code, name] of Object.entries(table)) if (name === kind) return Number(code);
  // WAD2 has no font or raw type: Quake stores such lumps as plain 'lumpy' data (0x40).
  return 0x40;
}
