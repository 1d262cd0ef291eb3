import { utf8 } from './writer.js';

/** The text files of a generated install, written the way TA's own are (CRLF, tabs, 8-bit). */
const crlf = (lines: string[]) => utf8(lines.join('\r\n') + '\r\n');

export function unitFbi(unitName: string, name: string, extra: Record<string, string> = {}): Uint8Array {
  const keys: Record<string, string> = {
    UnitName: unitName,
    Version: '1.2',
    Side: unitName.slice(0, 3).toUpperCase(),
    Name: name,
    Description: `${name} unit`,
    BuildTime: '1000',
    ...extra,
  };
  return crlf(['[UNITINFO]', '\t{', ...Object.entries(keys).map(([k, v]) => `\t${k}=${v};`), '\t}']);
}

/** A TDF of top-level sections (weapons, features), each with a few keys. */
export function sectionsTdf(sections: Record<string, Record<string, string>>, comment?: string): Uint8Array {
  const lines: string[] = comment ? [`// ${comment}`] : [];
  for (const [name, keys] of Object.entries(sections)) {
    lines.push(`[${name}]`, '\t{');
    for (const [k, v] of Object.entries(keys)) lines.push(`\t${k}=${v};`);
    lines.push('\t}');
  }
  return crlf(lines);
}

export const weapon = (damage: number, range = 300) => ({
  range: String(range),
  reloadtime: '0.5',
  weaponvelocity: '400',
  damage: String(damage),
});
export const feature = (world: string, description: string) => ({
  world,
  description,
  category: 'arm_corpses',
  footprintx: '2',
  footprintz: '2',
});
export const textFile = (lines: string[]) => crlf(lines);
