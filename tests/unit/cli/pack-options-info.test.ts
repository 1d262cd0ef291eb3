import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, samplesDir } from '../../helpers/run-cli.js';

let work: string;
let src: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pack-options-'));
  src = join(work, 'src');
  await mkdir(join(src, 'units'), { recursive: true });
  await writeFile(join(src, 'units', 'ARMCOM.FBI'), '[UNITINFO]\r\n{\r\n\tMaxDamage=3000;\r\n}\r\n');
});
afterAll(() => rm(work, { recursive: true, force: true }));

const missing = (path: string) =>
  stat(path).then(
    () => false,
    () => true,
  );

describe('pack refuses options its format does not take (usage error, exit 2)', () => {
  it('names every foreign option and the format, and writes nothing', async () => {
    const target = join(work, 'x.pak');
    const r = await runCli(['pack', src, '--target', target, '--method', 'zlib', '--key', '5', '--cipher', 'xor', '--region', 'jp']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`modpak: --method, --key, --cipher, --region: not an option of Quake PAK archives (${target})\n`);
    expect(await missing(target)).toBe(true);
  });

  it('refuses a cipher for HPI, a key for HPI v2 and --no-trailer for Pangya', async () => {
    const cases: [string[], RegExp][] = [
      [['--target', join(work, 'a.ufo'), '--cipher', 'xtea'], /^modpak: --cipher: not an option of HPI v1 archives/],
      [['--target', join(work, 'b.hpi'), '--format', 'hpi2', '--key', '0'], /^modpak: --key: not an option of HPI v2 archives/],
      [['--target', join(work, 'c.pak'), '--format', 'pangya', '--no-trailer'], /^modpak: --no-trailer: not an option of Pangya/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['pack', src, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('takes the options a format does read', async () => {
    expect((await runCli(['pack', src, '--target', join(work, 'ok.ufo'), '--method', 'zlib', '--key', '0', '--no-trailer'])).code).toBe(0);
    expect(
      (await runCli(['pack', src, '--target', join(work, 'ok.pak'), '--format', 'pangya', '--cipher', 'xor', '--method', 'none'])).code,
    ).toBe(0);
  });
});

describe('modpak info says what it found in words', () => {
  it('gives TA 3.1c verdict as a sentence, never raw JSON', async () => {
    // ArmBani.ufo is a released mod: v1 with the Cavedog trailer as its last 36 bytes.
    const r = await runCli(['info', join(samplesDir, 'hpi', 'ArmBani.ufo')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('TA 3.1c would mount: yes — HPI v1 with the Cavedog trailer and a readable directory\n');
    expect(r.stdout).toMatch(/^trailer +Copyright \d{4} Cavedog Entertainment$/m);
    expect(r.stdout).not.toMatch(/[{}]/);
  });

  it('says why not for an archive packed without the trailer', async () => {
    const target = join(work, 'bare.ufo');
    expect((await runCli(['pack', src, '--target', target, '--no-trailer'])).code).toBe(0);
    const r = await runCli(['info', target]);
    expect(r.stdout).toContain('TA 3.1c would mount: no — no Cavedog trailer');
    expect(r.stdout).toMatch(/^trailer +none$/m);
  });
});
