import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { feature, sectionsTdf, textFile, unitFbi, weapon } from './content.js';
import { makePcx, makeWav, rampPalette, tone } from './media.js';
import { utf8, writeHpi, type DemoFile, type Tamper } from './writer.js';
import { demoTntSpec, writeOta, writeTnt } from './tnt-map.js';
import { demoSpriteGaf } from './gaf.js';
import { builtInTaPalette } from '../../shared/assets/ta/palette.js';

/**
 * The demo install: a small Total Annihilation folder that shows every rule of the layered filesystem at
 * once (the studio opens it when started without a folder; tests, e2e and benchmarks use it too). Every
 * archive is written by the HPI engine; the output is the same bytes on every run.
 *
 * - rev31.gp3 (mounted) and rev30.gp3 (ignored: only rev31.gp3 counts); btdata.ccx;
 *   AFark.ufo, zeta.ufo and _extra.ufo (`_` sorts after letters, so zeta.ufo wins their shared path);
 * - fifteen .hpi: ccbeta.hpi (no trailer), kingdoms.hpi (HPI v2), patched.hpi (bytes after the trailer) are
 *   ignored and take no slot; tactics1–8, totala1, totala2 fill the ten slots (tactics8.hpi has another
 *   year in its trailer, which the game does not compare); totala3, totala4 and worlds.hpi come from the
 *   disc stage (the install folder is the disc); Backup/old.hpi is in a subfolder and never mounted;
 * - overridden paths (rev31.gp3 over totala1.hpi's units/ARMCOM.fbi), loose files that beat every archive,
 *   definitions overriding each other (features/urban/cars2.tdf stored before cars.tdf), a text file,
 *   a PCX image and a WAV sound; a TNT map with its .ota (maps/Great Divide, in totala4.hpi) whose
 *   features are defined in several archives;
 * - palettes/PALETTE.PAL (the standard palette) and anims/DEMOFX.gaf in totala1.hpi, shadowed by another
 *   DEMOFX.gaf in rev31.gp3 (other colours), for the asset viewers and their compare mode; ARMPW has
 *   its build picture (unitpics/ARMPW.pcx) and gadget GAF (no Objectname: the demo has no models);
 * - the mistakes the sanity checks find: ARMFARK and CORZETA share UnitNumber 42, FARK_WELDER and zeta's
 *   ARM_LIGHTLASER share weapon ID 7, and ARMFARK's Weapon1 names a weapon nobody defines.
 */

export interface DemoArchive {
  name: string;
  files: DemoFile[];
  version?: 1 | 2;
  trailer?: boolean;
  tamper?: Tamper;
}

const f = (path: string, data: Uint8Array): DemoFile => ({ path, data });

function tacticsArchive(n: number): DemoArchive {
  return {
    name: `tactics${n}.hpi`,
    files: [
      f(`maps/Tactics${n}.ota`, textFile([`[GlobalHeader]`, `\t{`, `\tmissionname=Tactics ${n};`, `\tplanet=Green;`, `\t}`])),
      f(`units/TAC${n}UNIT.fbi`, unitFbi(`TAC${n}UNIT`, `Tactics unit ${n}`)),
    ],
    tamper: n === 8 ? { trailerYear: '1998' } : undefined,
  };
}

export function demoArchives(): DemoArchive[] {
  const logo = makePcx(32, 24, (x, y) => (x * 8 + y * 4) & 0xff, rampPalette());
  const beep = makeWav(tone(440, 0.25));
  const greatDivide = demoTntSpec();
  return [
    {
      name: 'rev31.gp3',
      files: [
        f('units/ARMCOM.fbi', unitFbi('ARMCOM', 'Commander', { BuildTime: '75000' })),
        f('gamedata/sidedata.tdf', sectionsTdf({ SIDE0: { name: 'ARM' }, SIDE1: { name: 'CORE' } }, 'patched by 3.1')),
        f('anims/DEMOFX.gaf', demoSpriteGaf('demofx', 208)),
      ],
    },
    { name: 'rev30.gp3', files: [f('units/ARMCOM.fbi', unitFbi('ARMCOM', 'Old patch commander'))] },
    {
      name: 'btdata.ccx',
      files: [
        f('units/ARMFAV.fbi', unitFbi('ARMFAV', 'Jeffy')),
        f('features/ccx/rocks.tdf', sectionsTdf({ Rock1: feature('all worlds', 'Rock') })),
      ],
    },
    {
      name: 'AFark.ufo',
      files: [
        f('units/ARMFARK.fbi', unitFbi('ARMFARK', 'Fark', { UnitNumber: '42', Weapon1: 'FARK_CANNON' })),
        f('weapons/fark.tdf', sectionsTdf({ FARK_WELDER: { ...weapon(5, 100), id: '7' } })),
      ],
    },
    {
      name: 'zeta.ufo',
      files: [
        f('gamedata/mods.txt', textFile(['zeta.ufo wins this path over _extra.ufo'])),
        f('weapons/zeta.tdf', sectionsTdf({ ARM_LIGHTLASER: { ...weapon(80), id: '7' } }, 'zeta.ufo makes the light laser stronger')),
        f('units/CORZETA.fbi', unitFbi('CORZETA', 'Zeta', { UnitNumber: '42' })),
      ],
    },
    {
      name: '_extra.ufo',
      files: [
        f('gamedata/mods.txt', textFile(['_extra.ufo: hidden by zeta.ufo'])),
        f('units/EXTRA.fbi', unitFbi('EXTRA', 'Extra')),
        f('units/ZETADUP.fbi', unitFbi('CORZETA', 'Duplicate of Zeta')),
      ],
    },
    { name: 'ccbeta.hpi', files: [f('units/CCBETA.fbi', unitFbi('CCBETA', 'Beta unit'))], trailer: false },
    { name: 'kingdoms.hpi', files: [f('units/KINGDOM.fbi', unitFbi('KINGDOM', 'Kingdoms unit'))], version: 2 },
    {
      name: 'patched.hpi',
      files: [f('units/PATCHED.fbi', unitFbi('PATCHED', 'Patched unit'))],
      tamper: { append: utf8('\r\nhand-edited\r\n') },
    },
    ...[1, 2, 3, 4, 5, 6, 7, 8].map(tacticsArchive),
    {
      name: 'totala1.hpi',
      files: [
        f('units/ARMCOM.fbi', unitFbi('ARMCOM', 'Commander')),
        f('units/CORCOM.fbi', unitFbi('CORCOM', 'Commander')),
        f('units/ARMPW.fbi', unitFbi('ARMPW', 'Peewee')),
        f('anims/ARMPW_gadget.gaf', demoSpriteGaf('ARMPW', 160, 3)),
        f(
          'unitpics/ARMPW.pcx',
          makePcx(64, 64, (x, y) => (((x >> 3) + (y >> 3)) * 9) & 0xff, rampPalette()),
        ),
        f('units/old/ARMOLD.fbi', unitFbi('ARMOLD', 'Never read: a subfolder of units/')),
        f('weapons/weapons.tdf', sectionsTdf({ ARM_LIGHTLASER: weapon(40), CORE_LIGHTLASER: weapon(40) })),
        f('weapons/old/weapons.tdf', sectionsTdf({ OLD_LASER: weapon(1) }, 'never read: a subfolder of weapons/')),
        f('features/urban/cars2.tdf', sectionsTdf({ CarScar05: feature('urban', 'Wrecked car (cars2.tdf, stored first: wins)') })),
        f(
          'features/urban/cars.tdf',
          sectionsTdf({ CarScar05: feature('urban', 'Wrecked car (cars.tdf: loses)'), CarScar06: feature('urban', 'Burnt car') }),
        ),
        f('features/trees.tdf', sectionsTdf({ Tree1: feature('green', 'Pine') })),
        f('bitmaps/logo.pcx', logo),
        f('sounds/beep.wav', beep),
        f('palettes/PALETTE.PAL', taPaletteFile()),
        f('anims/DEMOFX.gaf', demoSpriteGaf('demofx', 96)),
        f('docs/readme.txt', textFile(['Total Annihilation demo install', 'generated by ModPak Studio'])),
      ],
    },
    {
      name: 'totala2.hpi',
      files: [
        f('units/CORAK.fbi', unitFbi('CORAK', 'A.K.')),
        f('features/trees.tdf', sectionsTdf({ Tree1: feature('green', 'hidden by totala1.hpi') })),
        f('features/forest.tdf', sectionsTdf({ Tree1: feature('green', 'Fir (loses to trees.tdf)'), Tree2: feature('green', 'Fir') })),
      ],
    },
    {
      name: 'totala3.hpi',
      files: [
        f('maps/Coast to Coast.ota', textFile(['[GlobalHeader]', '\t{', '\tmissionname=Coast to Coast;', '\t}'])),
        f('units/CORAK.fbi', unitFbi('CORAK', 'hidden by totala2.hpi')),
      ],
    },
    {
      name: 'totala4.hpi',
      files: [
        f('maps/Great Divide.ota', writeOta('Great Divide', greatDivide.starts)),
        f('maps/Great Divide.tnt', writeTnt(greatDivide.spec)),
      ],
    },
    { name: 'worlds.hpi', files: [f('sections/green/grass.sct', new Uint8Array(64).fill(7))] },
  ];
}

/** The standard TA palette as its 1024-byte file (R, G, B, 0). */
function taPaletteFile(): Uint8Array {
  const rgba = builtInTaPalette().rgba;
  return rgba.map((v, i) => (i % 4 === 3 ? 0 : v));
}

export const demoLooseFiles = (): DemoFile[] => [
  f('units/CORCOM.fbi', unitFbi('CORCOM', 'Loose commander (beats every archive)', { BuildTime: '1' })),
  f('docs/notes.txt', textFile(['Loose files in the install folder beat every archive.'])),
  f('totala.ini', textFile(['[Preferences]', 'Sound=1'])),
];

/** Write the demo install into `dir` (created if needed). Returns `dir`. */
export async function generateDemoInstall(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const a of demoArchives()) {
    await writeHpi(join(dir, a.name), a.files, { version: a.version ?? 1, trailer: a.trailer }, a.tamper);
  }
  await writeHpi(join(dir, 'Backup', 'old.hpi'), [f('units/ARMCOM.fbi', unitFbi('ARMCOM', 'A backup: never mounted'))]);
  for (const file of demoLooseFiles()) {
    await mkdir(dirname(join(dir, file.path)), { recursive: true });
    await writeFile(join(dir, file.path), file.data);
  }
  return dir;
}
