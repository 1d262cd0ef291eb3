import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packFolder } from '../../../electron/mods/pack.js';

/**
 * A small TA install built with the real HPI writer: two .hpi archives (totala2.hpi's copy of ARMCOM.FBI
 * shadowed by totala1.hpi's, which ranks higher by name), a loose unit file, and an executable so the game
 * is detected. Texts use CRLF like Cavedog's files.
 */
export const crlf = (lines: string[]) => lines.join('\r\n') + '\r\n';

export const ARMCOM_FBI = crlf([
  '[UNITINFO]',
  '{',
  '\tUnitName=ARMCOM;',
  '\tName=Commander;',
  '\tMaxDamage=3000;',
  '\tBuildTime=75000;',
  '}',
]);
export const CORCOM_FBI = crlf(['[UNITINFO]', '{', '\tUnitName=CORCOM;', '\tName=Commander;', '\tMaxDamage=3000;', '}']);
export const ARMFLASH_FBI = crlf(['[UNITINFO]', '{', '\tUnitName=ARMFLASH;', '\tMaxDamage=400;', '}']);
export const WEAPONS_TDF = crlf([
  '[ARM_LASER]',
  '{',
  '\tname=Light Laser;',
  '\trange=300;',
  '\t[DAMAGE]',
  '\t{',
  '\t\tdefault=45;',
  '\t}',
  '}',
]);
export const PCX = new Uint8Array(Array.from({ length: 300 }, (_, i) => (i * 37) & 0xff));

export interface FixtureInstall {
  work: string;
  root: string;
  cleanup(): Promise<void>;
}

async function put(base: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), content);
  }
}

export async function packTree(work: string, target: string, files: Record<string, string | Uint8Array>): Promise<void> {
  const src = await mkdtemp(join(work, 'src-'));
  await put(src, files);
  await packFolder({ dir: src, target });
  await rm(src, { recursive: true, force: true });
}

export async function makeInstall(): Promise<FixtureInstall> {
  const work = await mkdtemp(join(tmpdir(), 'modpak-mods-'));
  const root = join(work, 'TotalA');
  await mkdir(root);
  await writeFile(join(root, 'TOTALA.EXE'), 'MZ');
  await packTree(work, join(root, 'totala1.hpi'), {
    'units/ARMCOM.FBI': ARMCOM_FBI,
    'units/CORCOM.FBI': CORCOM_FBI,
    'weapons/WEAPONS.TDF': WEAPONS_TDF,
    'unitpics/ARMCOM.PCX': PCX,
  });
  await packTree(work, join(root, 'totala2.hpi'), { 'units/ARMCOM.FBI': ARMCOM_FBI.replace('3000', '1') });
  await put(root, { 'units/ARMFLASH.FBI': ARMFLASH_FBI });
  return { work, root, cleanup: () => rm(work, { recursive: true, force: true }) };
}
