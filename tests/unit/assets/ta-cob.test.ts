import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { samplesDir } from '../../helpers/run-cli.js';
import { FormatError } from '../../../shared/errors.js';
import { compileBos, decompileCob, readCob, writeCob } from '../../../shared/assets/ta/cob/index.js';
import { literalText, scaleLiteral } from '../../../shared/assets/ta/cob/opcodes.js';

const scriptsDir = join(samplesDir, 'ta', 'scripts');
const armimrDir = join(samplesDir, 'ta', 'armimr', 'scripts');
const pairs = [
  ...readdirSync(scriptsDir)
    .filter((f) => f.endsWith('.cob'))
    .map((f) => join(scriptsDir, f)),
  join(armimrDir, 'ARMIMR.cob'),
];
const bytesOf = (path: string) => new Uint8Array(readFileSync(path));
const bosOf = (cob: string) => readFileSync(cob.replace(/\.cob$/, '.bos'), 'latin1');
const name = (path: string) => path.replace(/^.*\//, '');

/** The BOS facts a reader can check, found with plain regular expressions (not the compiler's parser). */
function bosFacts(source: string) {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const pieces = [...text.matchAll(/^\s*piece\s+([^;]+);/gim)].flatMap((m) => m[1]!.split(',').map((s) => s.trim()));
  const statics = [...text.matchAll(/^\s*static-var\s+([^;]+);/gim)].flatMap((m) => m[1]!.split(',').map((s) => s.trim()));
  // Functions: a name and a parameter list at brace depth 0, followed by the opening brace.
  const functions: string[] = [];
  let depth = 0;
  let at = 0;
  const header = /([A-Za-z_]\w*)\s*\([^()]*\)\s*\{/y;
  while (at < text.length) {
    const c = text[at]!;
    if (depth === 0) {
      header.lastIndex = at;
      const m = header.exec(text);
      if (m && (at === 0 || !/\w/.test(text[at - 1]!))) {
        functions.push(m[1]!);
        at = header.lastIndex;
        depth = 1;
        continue;
      }
    }
    if (c === '{') depth++;
    if (c === '}') depth--;
    at++;
  }
  return { pieces, statics, functions };
}

/** The header words, read here with a DataView from the format description (11 little-endian words). */
function header(bytes: Uint8Array) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const w = (i: number) => v.getUint32(i * 4, true);
  return { version: w(0), scripts: w(1), pieces: w(2), codeLength: w(3), statics: w(4), codeOffset: w(9) };
}

describe('COB reader on the sample scripts', () => {
  it('finds 13 sample COBs, 12 beside their BOS in ta/scripts and ARMIMR', () => {
    expect(pairs).toHaveLength(13);
  });

  it.each(pairs.map((p) => [name(p), p]))('%s: header, pieces and scripts agree with the file and its BOS', (_, path) => {
    const bytes = bytesOf(path);
    const cob = readCob(bytes, name(path));
    const h = header(bytes);
    expect(cob.version).toBe(h.version);
    expect(cob.version).toBe(4);
    expect(cob.scripts).toHaveLength(h.scripts);
    expect(cob.code.length).toBe(h.codeLength);
    expect(cob.code[0]).toBe(new DataView(bytes.buffer, bytes.byteOffset).getUint32(h.codeOffset, true));
    const facts = bosFacts(bosOf(path));
    expect(cob.pieces).toEqual(facts.pieces);
    const scriptNames = cob.scripts.map((s) => s.name);
    if (name(path) === 'ARMIMR.cob') {
      // Its #include "StateChg.h" and "smokeunit.h" add SmokeUnit, InitState and RequestState and two statics.
      expect(scriptNames.length).toBe(facts.functions.length + 3);
      expect(scriptNames).toEqual(expect.arrayContaining([...facts.functions, 'SmokeUnit', 'InitState', 'RequestState']));
      expect(cob.staticVars).toBe(facts.statics.length + 2);
    } else {
      expect(scriptNames).toEqual(facts.functions);
      expect(cob.staticVars).toBe(facts.statics.length);
    }
  });
});

describe('decompile -> compile', () => {
  it.each(pairs.map((p) => [name(p), p]))('%s round-trips byte-exact', async (_, path) => {
    const bytes = bytesOf(path);
    const bos = decompileCob(bytes, name(path));
    const again = await compileBos(bos, { file: name(path).replace('.cob', '.bos') });
    expect(again.length).toBe(bytes.length);
    expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
  });

  it('decompiles to readable BOS: pieces, functions, motion in their units, explosion flags by name', () => {
    const bos = decompileCob(bytesOf(join(scriptsDir, 'andaa.cob')));
    expect(bos).toContain('piece  base, turret, sleeve, flare1, flare2, flare3, flare4;');
    expect(bos).toContain('move turret to y-axis [-15] speed [15];');
    expect(bos).toContain('turn turret to y-axis <180> speed <200>;');
    expect(bos).toContain('explode sleeve type FALL | SMOKE | FIRE | EXPLODE_ON_HIT | BITMAP3;');
    expect(bos).toContain('Func_Var_1 = flare1;');
    expect(bos).toMatch(/while\( get BUILD_PERCENT_LEFT \)/);
  });
});

describe('BOS -> COB', () => {
  it('the standard headers the samples include are not among the samples, so the built-in copies serve', () => {
    for (const h of ['exptype.h', 'sfxtype.h', 'StateChg.h', 'smokeunit.h']) {
      for (const dir of [scriptsDir, armimrDir, join(samplesDir, 'ta')]) expect(existsSync(join(dir, h))).toBe(false);
    }
  });

  it.each(pairs.filter((p) => !p.includes('ARMIMR')).map((p) => [name(p), p]))(
    '%s: the sample .bos compiles to exactly the .cob',
    async (_, path) => {
      const out = await compileBos(bosOf(path), { file: name(path).replace('.cob', '.bos') });
      expect(Buffer.from(out).equals(Buffer.from(bytesOf(path)))).toBe(true);
    },
  );

  it('ARMIMR.bos needs StateChg.h, which is not available: one clear error with file and line', async () => {
    await expect(compileBos(bosOf(join(armimrDir, 'ARMIMR.cob')), { file: 'ARMIMR.bos' })).rejects.toThrow(
      /^ARMIMR\.bos:7: cannot find include file "StateChg\.h"$/,
    );
  });

  it('resolves includes through the resolver, from the including file, and expands #define with arguments', async () => {
    const files: Record<string, string> = {
      'inc/a.h': '#define TWICE(x) ((x) + (x))\n#include "b.h"\n',
      'inc/b.h': '#ifndef B_H\n#define B_H\n#define SPEED <90>\n#endif\n',
    };
    const seen: string[] = [];
    const resolve = (file: string, from: string) => {
      seen.push(`${file}<-${from}`);
      const path = from === 'main.bos' ? `inc/${file}` : `${from.replace(/[^/]*$/, '')}${file}`;
      return files[path] === undefined ? null : { path, text: files[path]! };
    };
    const src = '#include "a.h"\n#include "b.h"\npiece base;\nCreate()\n{\n turn base to y-axis TWICE(3) speed SPEED;\n}\n';
    const cob = readCob(await compileBos(src, { file: 'main.bos', resolveInclude: resolve }));
    expect(seen).toEqual(['a.h<-main.bos', 'b.h<-inc/a.h', 'b.h<-main.bos']);
    // push <90> (16380), push 3, push 3, add, turn base y; then the appended return (0).
    expect([...cob.code]).toEqual([
      0x10021001, 16380, 0x10021001, 3, 0x10021001, 3, 0x10031000, 0x10002000, 0, 1, 0x10021001, 0, 0x10065000,
    ]);
  });

  it('truncates [linear] and <angle> literals toward zero after scaling by 163840 and 182', async () => {
    expect(scaleLiteral(0.5, 'angle')).toBe(91);
    expect(scaleLiteral(1.4, 'linear')).toBe(Math.trunc(1.4 * 163840));
    expect(scaleLiteral(-15, 'linear')).toBe(-2457600);
    expect(scaleLiteral(-0.001, 'angle')).toBe(0);
    const cob = readCob(await compileBos('piece p;\nf()\n{\n move p to x-axis [-2.5] now;\n}\n'));
    expect(cob.code[1]! | 0).toBe(-409600);
  });

  it('prints every integer as a literal that converts back to it, or as the integer', () => {
    let x = 12345;
    for (let i = 0; i < 20000; i++) {
      x = (Math.imul(x, 1103515245) + 12345) | 0;
      const value = (i % 2 ? x : x % 100000) | 0;
      for (const form of ['linear', 'angle'] as const) {
        const text = literalText(value, form);
        if (text !== null) expect(scaleLiteral(Number(text), form)).toBe(value);
      }
    }
  });

  it('writes version 6 with its sound table when the BOS declares sounds, and reads it back', async () => {
    const bytes = await compileBos('piece base;\nsound boom, hiss;\nCreate()\n{\n hide base;\n}\n');
    const cob = readCob(bytes);
    expect(cob.version).toBe(6);
    expect(cob.sounds).toEqual(['boom', 'hiss']);
    expect(header(bytes).codeOffset).toBe(52);
    expect(Buffer.from(await compileBos(decompileCob(bytes))).equals(Buffer.from(bytes))).toBe(true);
  });

  it('compiles if/else, var, get with arguments, ++ and attach-unit the way it decompiles them', async () => {
    const src = `piece base, arm;\nstatic-var count;\nf(a)\n{\n var b;\n b = get PIECE_XZ(arm);\n if (a == 1) { ++count; } else { count--; attach-unit a to arm; }\n return (b);\n}\n#include "exptype.h"\n`;
    // PIECE_XZ is defined after its use: the error says so with the line.
    await expect(compileBos(src, { file: 'x.bos' })).rejects.toThrow(/^x\.bos:6: unknown name PIECE_XZ$/);
    const fixed = `#include "exptype.h"\n${src.replace('#include "exptype.h"\n', '')}`;
    const bytes = await compileBos(fixed);
    expect(Buffer.from(await compileBos(decompileCob(bytes))).equals(Buffer.from(bytes))).toBe(true);
    const cob = readCob(bytes);
    // get with arguments pushes the value number then four arguments, zero-filled.
    const code = [...cob.code];
    const get = code.indexOf(0x10043000);
    expect(code.slice(get - 10, get)).toEqual([0x10021001, 7, 0x10021001, 1, 0x10021001, 0, 0x10021001, 0, 0x10021001, 0]);
    // The body ends with a return, so no return (0) is appended.
    expect(code.slice(-3)).toEqual([0x10021002, 1, 0x10065000]);
  });
});

describe('bad BOS: one FormatError naming the file and line', () => {
  const cases: [string, RegExp][] = [
    ['piece a;\nf()\n{\n  move b to x-axis [1] now;\n}\n', /^t\.bos:4: b is not a declared piece$/],
    ['piece a;\nf()\n{\n  sleep 10\n}\n', /^t\.bos:5: expected ';' after sleep, found '}'$/],
    ['f()\n{\n  call-script g();\n}\n', /^t\.bos:3: g is not a function of this script$/],
    ['f()\n{\n  x = 1;\n}\n', /^t\.bos:3: x is not a variable$/],
    ['#ifdef A\nf() {}\n', /^t\.bos:1: this #if has no #endif$/],
    ['f()\n{\n /* open\n', /^t\.bos:3: a \/\* comment is never closed$/],
    ['f() { sleep 1.5; }', /^t\.bos:1: 1\.5 is not an integer/],
    ['#define LOOP LOOP LOOP\nf() { sleep LOOP; }', /^t\.bos:2: unknown name LOOP$/],
    ['#include "t.bos"\n', /^t\.bos:1: #include nested deeper than 32/],
  ];
  it.each(cases)('%j', async (src, message) => {
    const self = (file: string) => (file === 't.bos' ? { path: 't.bos', text: src } : null);
    const err = await compileBos(src, { file: 't.bos', resolveInclude: self }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as Error).message).toMatch(message);
  });
});

describe('writer', () => {
  it('lays the tables out as Scriptor does: code, entries, name tables, then names from header word 10', () => {
    const bytes = writeCob({
      version: 4,
      scripts: [{ name: 'A', code: [0x10021001, 0, 0x10065000] }],
      pieces: ['p', 'q'],
      staticVars: 3,
      sounds: [],
    });
    const v = new DataView(bytes.buffer);
    const w = (i: number) => v.getUint32(i * 4, true);
    expect([w(0), w(1), w(2), w(3), w(4), w(5)]).toEqual([4, 1, 2, 3, 3, 0]);
    expect(w(9)).toBe(44);
    expect(w(6)).toBe(44 + 12);
    expect(w(7)).toBe(w(6) + 4);
    expect(w(8)).toBe(w(7) + 4);
    expect(w(10)).toBe(w(8) + 8);
    expect(Buffer.from(bytes.subarray(w(10))).toString('latin1')).toBe('A\0p\0q\0');
  });
});

describe('decompile -> compile on generated scripts', () => {
  /** Random BOS source (nested if/else/while, returns, empty blocks, motion, calls), from a seeded generator. */
  function randomBos(seed: number): string {
    let s = seed;
    const rand = (n: number) => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return (s >>> 8) % n;
    };
    const exprs = [
      'a',
      'b',
      'S1',
      '0',
      '1',
      '-7',
      '[2.5]',
      '<45>',
      'a + 1',
      'a - (b - 1)',
      '(a < b) == 0',
      '!a',
      'a * b / 2',
      'get HEALTH',
      'get PIECE_XZ(base)',
      'rand(1, 6)',
      'a | 2 & 3',
      'a AND b OR !S1',
    ];
    const e = () => exprs[rand(exprs.length)]!;
    const stmt = (depth: number): string => {
      const k = rand(depth > 2 ? 9 : 13);
      switch (k) {
        case 0:
          return `a = ${e()};`;
        case 1:
          return `S1 = ${e()};`;
        case 2:
          return `sleep ${e()};`;
        case 3:
          return `turn arm to y-axis ${e()} speed <30>;`;
        case 4:
          return `move base to z-axis ${e()} now;`;
        case 5:
          return `call-script g(${e()}, ${e()});`;
        case 6:
          return `return (${e()});`;
        case 7:
          return `explode arm type BITMAPONLY | BITMAP2;`;
        case 8:
          return `spin arm around x-axis speed <10> accelerate <1>;`;
        case 9:
          return `if (${e()}) { ${block(depth + 1)} }`;
        case 10:
          return `if (${e()}) { ${block(depth + 1)} } else { ${block(depth + 1)} }`;
        case 11:
          return `while (${e()}) { ${block(depth + 1)} }`;
        default:
          return `if (${e()}) { ${block(depth + 1)} } else if (${e()}) { ${block(depth + 1)} }`;
      }
    };
    const block = (depth: number) => Array.from({ length: rand(4) }, () => stmt(depth)).join(' ');
    return `#include "exptype.h"\npiece base, arm;\nstatic-var S1;\nf(a, b)\n{\n${block(0)}\n}\ng(a, b)\n{\n${block(0)}\n}\n`;
  }

  it('500 random scripts come back byte-exact', async () => {
    for (let seed = 1; seed <= 500; seed++) {
      const source = randomBos(seed);
      const bytes = await compileBos(source);
      const again = await compileBos(decompileCob(bytes));
      expect(Buffer.from(again).equals(Buffer.from(bytes)), source).toBe(true);
    }
  });
});

describe('hostile nesting is refused before it exhausts the stack', () => {
  it('BOS: 100000 parentheses, a 100000-term sum, 100000 nested ifs, 100000 negations', async () => {
    const wrap = (body: string) => `f(a)\n{\n${body}\n}\n`;
    const deep = [
      wrap(`a = ${'('.repeat(100000)}1${')'.repeat(100000)};`),
      wrap(`a = 1${' + 1'.repeat(100000)};`),
      wrap(`${'if (a) { '.repeat(100000)}${'} '.repeat(100000)}`),
      wrap(`a = ${'!'.repeat(100000)}a;`),
    ];
    for (const src of deep)
      await expect(compileBos(src, { file: 'deep.bos' })).rejects.toThrow(/^deep\.bos:\d+: .* nested more than 200 deep$/);
  });

  it('COB: a 100000-deep sum and 100000 nested jumps fail as FormatErrors', () => {
    const sum = [0x10021001, 1];
    for (let i = 0; i < 100000; i++) sum.push(0x10021001, 1, 0x10031000);
    sum.push(0x10065000);
    const ifs: number[] = [];
    const n = 100000;
    for (let i = 0; i < n; i++) ifs.push(0x10021001, 1, 0x10066000, 4 * n);
    ifs.push(0x10021001, 0, 0x10065000);
    for (const code of [sum, ifs]) {
      const bytes = writeCob({ version: 4, scripts: [{ name: 'f', code }], pieces: [], staticVars: 0, sounds: [] });
      expect(() => decompileCob(bytes)).toThrow(FormatError);
      expect(() => decompileCob(bytes)).toThrow(/nested more than 200 deep/);
    }
  });
});
