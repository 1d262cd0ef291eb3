import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHpi, type DemoFile } from '../../../electron/demo/writer.js';
import { runCli } from '../../helpers/run-cli.js';

/**
 * `modpak mount grep` and `modpak mount check` on a generated install with planted problems: a duplicate
 * UnitNumber, a duplicate weapon ID, a model and a weapon that do not exist. The expected answers come from
 * what is planted, not from the code.
 */
const text = (lines: string[]) => new TextEncoder().encode(lines.join('\r\n') + '\r\n');
const file = (path: string, lines: string[]): DemoFile => ({ path, data: text(lines) });
const unit = (name: string, fields: Record<string, string>) =>
  file(`units/${name}.fbi`, ['[UNITINFO]', '{', `\tUnitName=${name};`, ...Object.entries(fields).map(([k, v]) => `\t${k}=${v};`), '}']);

let base: string;
let root: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'modpak-search-'));
  root = join(base, 'TA');
  await mkdir(root);
  await writeHpi(join(root, 'totala1.hpi'), [
    unit('ARMAAA', { UnitNumber: '100', Objectname: 'ARMAAA', Weapon1: 'LASER', Corpse: 'ARMAAA_DEAD' }),
    unit('ARMBBB', { UnitNumber: '200', Objectname: 'ARMBBB', Weapon1: 'LASER' }),
    { path: 'objects3d/ARMAAA.3do', data: new Uint8Array(52) },
    { path: 'objects3d/ARMBBB.3do', data: new Uint8Array(52) },
    file('weapons/base.tdf', ['[LASER]', '{', '\tID=5;', '\tdamage=10;', '}', '[ROCKET]', '{', '\tID=6;', '}']),
    file('features/corpses.tdf', ['[ARMAAA_DEAD]', '{', '\tworld=all;', '}']),
  ]);
  // A mod that plants the problems: its unit takes ARMAAA's UnitNumber and names a model and a weapon
  // nobody provides; its weapon takes ROCKET's ID.
  await writeHpi(join(root, 'mymod.ufo'), [
    unit('MYUNIT', { UnitNumber: '100', Objectname: 'NOSUCHMODEL', Weapon1: 'NOSUCHGUN' }),
    file('weapons/mine.tdf', ['[MYGUN]', '{', '\tID=6;', '\tdamage=99;', '}']),
  ]);
  await writeFile(join(root, 'notes.txt'), 'damage is dealt\r\nnothing here\r\n');
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe('modpak mount check', () => {
  it('finds the duplicate UnitNumber, the duplicate weapon ID and the references to nothing, exit 0', async () => {
    const run = await runCli(['mount', 'check', root, '--game', 'ta', '--json']);
    expect(run.code).toBe(0);
    const problems: { kind: string; message: string; paths: string[] }[] = JSON.parse(run.stdout);
    const kinds = problems.map((p) => p.kind).sort();
    expect(kinds).toEqual(['duplicate-unitnumber', 'duplicate-weapon-id', 'missing-reference', 'missing-reference']);
    const unitNumber = problems.find((p) => p.kind === 'duplicate-unitnumber')!;
    expect(unitNumber.paths.sort()).toEqual(['units/ARMAAA.fbi', 'units/MYUNIT.fbi']);
    expect(unitNumber.message).toMatch(/UnitNumber 100.*ARMAAA.*MYUNIT|UnitNumber 100.*MYUNIT.*ARMAAA/);
    const weaponId = problems.find((p) => p.kind === 'duplicate-weapon-id')!;
    expect(weaponId.message).toMatch(/ID 6/);
    expect(weaponId.paths.sort()).toEqual(['weapons/base.tdf', 'weapons/mine.tdf']);
    const missing = problems
      .filter((p) => p.kind === 'missing-reference')
      .map((p) => p.message)
      .join('\n');
    expect(missing).toMatch(/MYUNIT: Objectname=NOSUCHMODEL names no model/);
    expect(missing).toMatch(/MYUNIT: Weapon1=NOSUCHGUN names no weapon/);
    expect(missing).not.toMatch(/ARMAAA|ARMBBB/);
  });

  it('prints one line per problem, then the count', async () => {
    const run = await runCli(['mount', 'check', root, '--game', 'ta']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n').at(-1)).toBe('4 problems');
  });
});

describe('modpak mount grep', () => {
  it('finds lines in the winners with path, archive and 1-based line; -i and -p', async () => {
    const run = await runCli(['mount', 'grep', root, 'DAMAGE=', '-i', '--game', 'ta', '--json']);
    expect(run.code).toBe(0);
    const hits: { path: string; archive: string | null; line: number; text: string }[] = JSON.parse(run.stdout);
    expect(hits.map((h) => [h.path, h.archive, h.line, h.text.trim()]).sort()).toEqual([
      ['weapons/base.tdf', 'totala1.hpi', 4, 'damage=10;'],
      ['weapons/mine.tdf', 'mymod.ufo', 4, 'damage=99;'],
    ]);
    const caseSensitive = JSON.parse((await runCli(['mount', 'grep', root, 'DAMAGE=', '--game', 'ta', '--json'])).stdout);
    expect(caseSensitive).toEqual([]);
    const loose = JSON.parse((await runCli(['mount', 'grep', root, 'damage', '-p', '*.txt', '--game', 'ta', '--json'])).stdout);
    expect(loose).toEqual([{ path: 'notes.txt', archive: null, line: 1, text: 'damage is dealt' }]);
  });

  it('refuses a pattern that is not a regular expression as a usage error', async () => {
    const run = await runCli(['mount', 'grep', root, '(unclosed', '--game', 'ta']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/not a regular expression/);
  });
});
