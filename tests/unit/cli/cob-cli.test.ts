import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, samplesDir } from '../../helpers/run-cli.js';

const scripts = join(samplesDir, 'ta', 'scripts');
const sample = (n: string) => join(scripts, n);
let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'modpak-cob-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Names and counts straight from the header tables, decoded here from the format description. */
function decodeTables(bytes: Buffer) {
  const w = (i: number) => bytes.readUInt32LE(i * 4);
  const str = (at: number) => bytes.toString('latin1', at, bytes.indexOf(0, at));
  const names = (table: number, count: number) => Array.from({ length: count }, (_, i) => str(bytes.readUInt32LE(table + 4 * i)));
  return { version: w(0), scripts: names(w(7), w(1)), pieces: names(w(8), w(2)), staticVars: w(4) };
}

describe('modpak cob info', () => {
  it('--json gives exactly version, scripts in file order, pieces and staticVars', async () => {
    const r = await runCli(['cob', 'info', sample('andhors.cob'), '--json']);
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(Object.keys(info)).toEqual(['version', 'scripts', 'pieces', 'staticVars']);
    expect(info).toEqual(decodeTables(readFileSync(sample('andhors.cob'))));
  });

  it('prints the same facts as text', async () => {
    const r = await runCli(['cob', 'info', sample('andaca.cob')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('pieces       3: base, nano, engine');
    expect(r.stdout).toMatch(/^static vars {2}2$/m);
  });

  it('fails in one line naming the file for a file that is no COB, and for a missing one', async () => {
    const bad = await runCli(['cob', 'info', sample('andaa.bos')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(`modpak: ${sample('andaa.bos')}: version 1717920803 is not a COB version (4 for TA, 6 for TA:Kingdoms)\n`);
    const missing = await runCli(['cob', 'info', join(tmp, 'none.cob')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`modpak: ${join(tmp, 'none.cob')}: no such file or folder\n`);
  });

  it('fails in one line on a truncated COB', async () => {
    const cut = join(tmp, 'cut.cob');
    writeFileSync(cut, readFileSync(sample('andaa.cob')).subarray(0, 600));
    const r = await runCli(['cob', 'info', cut]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^modpak: ${cut.replace(/[.]/g, '\\.')}: [^\\n]*overflows[^\\n]*\\n$`));
  });
});

describe('modpak cob decompile and compile', () => {
  it('decompile prints BOS that compile turns back into the same bytes, written atomically', async () => {
    const dec = await runCli(['cob', 'decompile', sample('anddragon.cob')]);
    expect(dec.code).toBe(0);
    expect(dec.stdout).toMatch(/^piece {2}/m);
    const bos = join(tmp, 'dragon.bos');
    writeFileSync(bos, dec.stdout);
    const out = join(tmp, 'dragon.cob');
    const c = await runCli(['cob', 'compile', bos, '--target', out]);
    expect(c.code).toBe(0);
    expect(readFileSync(out).equals(readFileSync(sample('anddragon.cob')))).toBe(true);
    expect(readdirSync(tmp).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('compiles a sample .bos to its .cob', async () => {
    const out = join(tmp, 'andch.cob');
    expect((await runCli(['cob', 'compile', sample('andch.bos'), '-t', out])).code).toBe(0);
    expect(readFileSync(out).equals(readFileSync(sample('andch.cob')))).toBe(true);
  });

  it('finds includes in -I folders, ignoring the case of the file name', async () => {
    const inc = join(tmp, 'inc');
    mkdirSync(inc, { recursive: true });
    writeFileSync(join(inc, 'MYCONST.H'), '#define DELAY 250\n');
    const bos = join(tmp, 'inc-test.bos');
    writeFileSync(bos, '#include "myconst.h"\npiece base;\nCreate()\n{\n\tsleep DELAY;\n}\n');
    const out = join(tmp, 'inc-test.cob');
    const missing = await runCli(['cob', 'compile', bos, '-t', out]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`modpak: ${bos}:1: cannot find include file "myconst.h"\n`);
    const r = await runCli(['cob', 'compile', bos, '-t', out, '-I', inc]);
    expect(r.code).toBe(0);
    const cob = readFileSync(out);
    // Code at word 11: push-constant 250, sleep, then the appended return (0).
    expect([0, 1, 2, 3, 4].map((i) => cob.readUInt32LE(44 + 4 * i))).toEqual([0x10021001, 250, 0x10013000, 0x10021001, 0]);
  });

  it('an exptype.h in an -I folder wins over the built-in copy', async () => {
    const inc = join(tmp, 'myheaders');
    mkdirSync(inc, { recursive: true });
    writeFileSync(
      join(inc, 'EXPTYPE.H'),
      '#define BITMAPONLY 99\n#define BITMAP4 1\n#define BITMAP5 2\n#define BITMAP2 3\n#define HEALTH 4\n#define BUILD_PERCENT_LEFT 17\n#define INBUILDSTANCE 5\n',
    );
    const out = join(tmp, 'andaca-own.cob');
    const r = await runCli(['cob', 'compile', sample('andaca.bos'), '-t', out, '-I', inc]);
    expect(r.stderr).toBe('');
    const words = Array.from({ length: (readFileSync(out).length - 44) >> 2 }, (_, i) => readFileSync(out).readInt32LE(44 + 4 * i));
    const explodeFlags = words.flatMap((w, i) => (w === 0x10071000 ? [words[i - 4], words[i - 2]] : []));
    expect(explodeFlags.slice(0, 4)).toEqual([99, 1, 99, 2]);
  });

  it('a compile error is one line FILE:LINE: message, exit 1, and leaves the target alone', async () => {
    const bos = join(tmp, 'broken.bos');
    writeFileSync(bos, 'piece base;\nCreate()\n{\n\tturn base to w-axis <90> now;\n}\n');
    const out = join(tmp, 'broken.cob');
    writeFileSync(out, 'previous');
    const r = await runCli(['cob', 'compile', bos, '--target', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`modpak: ${bos}:4: expected x-axis, y-axis or z-axis, found 'w'\n`);
    expect(readFileSync(out, 'utf8')).toBe('previous');
  });

  it('compile without --target is a usage error', async () => {
    expect((await runCli(['cob', 'compile', sample('andch.bos')])).code).toBe(2);
  });
});

describe('cob commands on an install path', () => {
  it('info, decompile and compile read FILE from the install, includes beside the BOS there', async () => {
    const root = join(tmp, 'install');
    mkdirSync(join(root, 'scripts'), { recursive: true });
    copyFileSync(sample('andgant.cob'), join(root, 'scripts', 'ANDGANT.COB'));
    writeFileSync(join(root, 'scripts', 'delay.h'), '#define DELAY 40\n');
    writeFileSync(join(root, 'scripts', 'unit.bos'), '#include "delay.h"\npiece base;\nCreate()\n{\n\tsleep DELAY;\n}\n');
    const info = await runCli(['cob', 'info', 'scripts/andgant.cob', '--install', root, '--game', 'ta', '--json']);
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toEqual(decodeTables(readFileSync(sample('andgant.cob'))));
    const dec = await runCli(['cob', 'decompile', 'scripts/andgant.cob', '--install', root, '--game', 'ta']);
    expect(dec.code).toBe(0);
    expect(dec.stdout).toContain('piece  ');
    const out = join(tmp, 'unit.cob');
    const c = await runCli(['cob', 'compile', 'scripts/unit.bos', '--install', root, '--game', 'ta', '-t', out]);
    expect(c.stderr).toBe('');
    expect(readFileSync(out).readUInt32LE(48)).toBe(40);
    const missing = await runCli(['cob', 'info', 'scripts/nothing.cob', '--install', root, '--game', 'ta']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('modpak: scripts/nothing.cob: no such file in the install\n');
  });
});
