import { UNIT_TABLE_FIELDS, type UnitRow } from '../../shared/search-types.js';
import { findSection, getValue, parseTdf } from '../tdf/parse.js';
import type { CheckableInstall } from './install-checks.js';

/** The units the game loads (definition winners), each with its main FBI fields, for the studio's table. */
export async function unitTable(install: CheckableInstall): Promise<UnitRow[]> {
  const rows: UnitRow[] = [];
  for (const unit of await install.defs('units')) {
    const info = findSection(parseTdf(await install.read(unit.file, unit.archive)).sections, 'UNITINFO');
    const fields: UnitRow['fields'] = {};
    for (const key of UNIT_TABLE_FIELDS) {
      const value = info ? getValue(info, key)?.trim() : undefined;
      if (value) fields[key] = value;
    }
    rows.push({ unitName: unit.name, file: unit.file, archive: unit.archive, fields });
  }
  return rows;
}
