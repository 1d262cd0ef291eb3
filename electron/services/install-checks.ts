import type { DefinitionKind, DefinitionWinner } from '../../shared/vfs-types.js';
import type { InstallProblem } from '../../shared/search-types.js';
import { findSection, getValue, parseTdf, upperAscii, type TdfSection } from '../../shared/tdf/parse.js';

/**
 * The TA sanity checks modders trip on, over an install's definition winners (what the game loads):
 * two units with one `UnitNumber`, two weapons with one `ID`, and FBI references that resolve to nothing
 * (the model, weapons, corpse, explosions, sound category). `modpak mount check`, the studio's checks and
 * the MCP tool share this.
 */

/** What the checks need of a mounted install. */
export interface CheckableInstall {
  defs(kind: DefinitionKind): Promise<DefinitionWinner[]>;
  resolve(path: string): { winner: unknown | null };
  read(path: string, archive?: string | null): Promise<Uint8Array>;
}

const where = (d: { file: string; archive: string | null }) => `${d.file} (${d.archive ?? 'loose file'})`;

/** The FBI keys that name another definition or file, with where the game looks it up. */
const REFERENCES: { key: string; what: string; exists: (value: string, ctx: Known) => boolean }[] = [
  { key: 'Objectname', what: 'model', exists: (v, k) => k.hasFile(`objects3d/${v}.3do`) },
  { key: 'Corpse', what: 'feature', exists: (v, k) => k.features.has(upperAscii(v)) },
  ...[1, 2, 3].map((n) => ({ key: `Weapon${n}`, what: 'weapon', exists: (v: string, k: Known) => k.weapons.has(upperAscii(v)) })),
  { key: 'ExplodeAs', what: 'weapon', exists: (v, k) => k.weapons.has(upperAscii(v)) },
  { key: 'SelfDestructAs', what: 'weapon', exists: (v, k) => k.weapons.has(upperAscii(v)) },
  { key: 'SoundCategory', what: 'sound category', exists: (v, k) => k.soundCategories === null || k.soundCategories.has(upperAscii(v)) },
];

interface Known {
  weapons: Set<string>;
  features: Set<string>;
  /** null when the install has no gamedata/sound.tdf (nothing to check against). */
  soundCategories: Set<string> | null;
  hasFile(path: string): boolean;
}

export async function checkInstall(install: CheckableInstall): Promise<InstallProblem[]> {
  const [units, weapons, features] = await Promise.all([install.defs('units'), install.defs('weapons'), install.defs('features')]);
  const soundTdf = install.resolve('gamedata/sound.tdf').winner ? parseTdf(await install.read('gamedata/sound.tdf')) : null;
  const known: Known = {
    weapons: new Set(weapons.map((w) => upperAscii(w.name))),
    features: new Set(features.map((f) => upperAscii(f.name))),
    soundCategories: soundTdf ? new Set(soundTdf.sections.map((s) => upperAscii(s.name))) : null,
    hasFile: (path) => install.resolve(path).winner !== null,
  };
  const problems: InstallProblem[] = [];
  const byUnitNumber = new Map<string, DefinitionWinner[]>();
  for (const unit of units) {
    const info = findSection(parseTdf(await install.read(unit.file, unit.archive)).sections, 'UNITINFO');
    if (!info) continue;
    const number = getValue(info, 'UnitNumber')?.trim();
    if (number) byUnitNumber.set(number, [...(byUnitNumber.get(number) ?? []), unit]);
    for (const ref of REFERENCES) {
      const value = getValue(info, ref.key)?.trim();
      if (value && !ref.exists(value, known)) {
        problems.push({
          kind: 'missing-reference',
          message: `${unit.name}: ${ref.key}=${value} names no ${ref.what} in the install (${where(unit)})`,
          paths: [unit.file],
        });
      }
    }
  }
  for (const [number, same] of byUnitNumber) {
    if (same.length > 1)
      problems.push({
        kind: 'duplicate-unitnumber',
        message: `UnitNumber ${number} is used by ${same.map((u) => `${u.name} in ${where(u)}`).join(', ')}`,
        paths: same.map((u) => u.file),
      });
  }
  const byWeaponId = new Map<string, { name: string; file: string; archive: string | null }[]>();
  const weaponFiles = new Map<string, TdfSection[]>();
  for (const weapon of weapons) {
    const fileKey = `${weapon.archive}\0${weapon.file}`;
    let sections = weaponFiles.get(fileKey);
    if (!sections) weaponFiles.set(fileKey, (sections = parseTdf(await install.read(weapon.file, weapon.archive)).sections));
    const section = findSection(sections, weapon.name);
    const id = section ? getValue(section, 'ID')?.trim() : undefined;
    if (id) byWeaponId.set(id, [...(byWeaponId.get(id) ?? []), weapon]);
  }
  for (const [id, same] of byWeaponId) {
    if (same.length > 1)
      problems.push({
        kind: 'duplicate-weapon-id',
        message: `weapon ID ${id} is used by ${same.map((w) => `${w.name} in ${where(w)}`).join(', ')}`,
        paths: [...new Set(same.map((w) => w.file))],
      });
  }
  return problems;
}
