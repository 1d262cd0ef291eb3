/** Quake 2's surface flags and contents bits (q_shared.h), named for the WAL facts. */

const SURFACE_FLAGS: [number, string][] = [
  [0x1, 'light'],
  [0x2, 'slick'],
  [0x4, 'sky'],
  [0x8, 'warp'],
  [0x10, 'trans33'],
  [0x20, 'trans66'],
  [0x40, 'flowing'],
  [0x80, 'nodraw'],
  [0x100, 'hint'],
  [0x200, 'skip'],
];

const CONTENTS: [number, string][] = [
  [0x1, 'solid'],
  [0x2, 'window'],
  [0x4, 'aux'],
  [0x8, 'lava'],
  [0x10, 'slime'],
  [0x20, 'water'],
  [0x40, 'mist'],
  [0x8000, 'areaportal'],
  [0x10000, 'playerclip'],
  [0x20000, 'monsterclip'],
  [0x1000000, 'origin'],
  [0x2000000, 'monster'],
  [0x4000000, 'deadmonster'],
  [0x8000000, 'detail'],
  [0x10000000, 'translucent'],
  [0x20000000, 'ladder'],
];

function describe(value: number, names: [number, string][]): string {
  if (value === 0) return '0x0';
  const known = names.filter(([bit]) => (value & bit) !== 0).map(([, name]) => name);
  const rest = names.reduce((v, [bit]) => v & ~bit, value) >>> 0;
  const parts = [...known, ...(rest ? [`0x${rest.toString(16)}`] : [])];
  return `0x${(value >>> 0).toString(16)}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

export const describeSurfaceFlags = (flags: number) => describe(flags, SURFACE_FLAGS);
export const describeContents = (contents: number) => describe(contents, CONTENTS);
