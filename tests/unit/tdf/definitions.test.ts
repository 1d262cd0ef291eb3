import { describe, expect, it } from 'vitest';
import { definedNamesIn, definitionWinners, isDefinitionFile } from '../../../electron/tdf/definitions.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('definition files', () => {
  it('features are recursive, weapons and units top level only', () => {
    expect(isDefinitionFile('features', 'FEATURES/URBAN/CARS.TDF')).toBe(true);
    expect(isDefinitionFile('features', 'FEATURES/TREES.TDF')).toBe(true);
    expect(isDefinitionFile('features', 'FEATURES/URBAN/CARS.FBI')).toBe(false);
    expect(isDefinitionFile('weapons', 'WEAPONS/WEAPONS.TDF')).toBe(true);
    expect(isDefinitionFile('weapons', 'WEAPONS/OLD/WEAPONS.TDF')).toBe(false);
    expect(isDefinitionFile('units', 'UNITS/ARMCOM.FBI')).toBe(true);
    expect(isDefinitionFile('units', 'UNITS/OLD/ARMCOM.FBI')).toBe(false);
    expect(isDefinitionFile('units', 'UNITSX/ARMCOM.FBI')).toBe(false);
  });

  it('names: section names for features and weapons, UnitName in [UNITINFO] for units', () => {
    expect(definedNamesIn('features', bytes('[CarScar05]{world=urban;}\n[Tree1]\n{\n}'))).toEqual(['CarScar05', 'Tree1']);
    expect(definedNamesIn('weapons', bytes('[ARM_LASER]{damage=10;[DAMAGE]{default=5;}}'))).toEqual(['ARM_LASER']);
    expect(definedNamesIn('units', bytes('[UNITINFO]\r\n{\r\nName=Commander;\r\nunitname=ARMCOM;\r\n}'))).toEqual(['ARMCOM']);
    expect(definedNamesIn('units', bytes('[SOMETHING]{UnitName=X;}'))).toEqual([]);
  });
});

describe('definitionWinners', () => {
  it('the first definition of a name wins, case-insensitively; the rest are shadowed in walk order', () => {
    const rows = definitionWinners([
      { file: 'features/urban/cars2.tdf', archive: null, names: ['CarScar05'] },
      { file: 'features/urban/cars.tdf', archive: 'a.ufo', names: ['carscar05', 'Other'] },
      { file: 'features/x.tdf', archive: 'b.hpi', names: ['CARSCAR05'] },
    ]);
    expect(rows).toEqual([
      {
        name: 'CarScar05',
        file: 'features/urban/cars2.tdf',
        archive: null,
        shadowed: [
          { file: 'features/urban/cars.tdf', archive: 'a.ufo', hiddenBy: 'name' },
          { file: 'features/x.tdf', archive: 'b.hpi', hiddenBy: 'name' },
        ],
      },
      { name: 'Other', file: 'features/urban/cars.tdf', archive: 'a.ufo', shadowed: [] },
    ]);
  });
});
