import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../helpers/run-cli.js';
import { KIND_STORED, encodeEntry, encodeTrailer } from '../../../../electron/formats/pangya/layout.js';
import { REGION_KEYS } from '../../../../electron/formats/pangya/regions.js';
import { fixtureFiles } from './fixtures.js';

let root: string;
let input: string;
const files = fixtureFiles(5);
const totalBytes = files.reduce((n, f) => n + f.bytes.length, 0);
/** Noise, an empty file and two short texts with nothing to repeat. */
const incompressible = new Set(['data/sub/noise.bin', 'data/sub/empty.dat', 'data/한글 이름.txt', 'top.ini']);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'pangya-cli-'));
  input = join(root, 'input');
  for (const f of files) {
    await mkdir(dirname(join(input, f.path)), { recursive: true });
    await writeFile(join(input, f.path), f.bytes);
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

interface Listed {
  path: string;
  size: number;
  packedSize: number;
  method: string;
  dir?: true;
}

const combos: { args: string[]; cipher: 'xor' | 'xtea'; region: string | null; method: 'lz77' | 'lz77x' | 'none' }[] = [];
for (const method of ['lz77', 'lz77x', 'none'] as const) {
  combos.push({ args: ['--cipher', 'xor', '--method', method], cipher: 'xor', region: null, method });
  for (const region of ['us', 'jp', 'th', 'eu', 'id', 'kr']) {
    combos.push({ args: ['--cipher', 'xtea', '--region', region, '--method', method], cipher: 'xtea', region, method });
  }
}
combos.push({ args: [], cipher: 'xtea', region: 'us', method: 'lz77' });

describe('modpak pack --format pangya, and back through list, extract, cat, verify, info', () => {
  for (const combo of combos) {
    const label = combo.args.length ? combo.args.join(' ') : '(defaults: xtea us lz77)';
    it(label, async () => {
      const target = join(root, `${combo.cipher}-${combo.region}-${combo.method}-${combo.args.length}.pak`);
      const packed = await runCli(['pack', input, '--target', target, '--format', 'pangya', ...combo.args]);
      expect(packed.code, packed.stderr).toBe(0);

      const info = await runCli(['info', '--json', target]);
      expect(info.code, info.stderr).toBe(0);
      expect(JSON.parse(info.stdout)).toMatchObject({
        format: 'pangya',
        files: files.length,
        dirs: 2,
        bytes: totalBytes,
        cipher: combo.cipher,
        region: combo.region,
      });
      expect(JSON.parse(info.stdout).regionCandidates).toBeUndefined();

      const list = await runCli(['list', '--json', target]);
      expect(list.code).toBe(0);
      const entries = JSON.parse(list.stdout) as Listed[];
      expect(entries.filter((e) => e.dir).map((e) => e.path)).toEqual(['data', 'data/sub']);
      for (const f of files) {
        const e = entries.find((x) => x.path === f.path)!;
        expect(e.size, f.path).toBe(f.bytes.length);
        // Files that do not shrink are stored whatever the method.
        const method = combo.method === 'none' || incompressible.has(f.path) ? 'stored' : combo.method;
        expect(e.method, f.path).toBe(method);
        if (method !== 'stored') expect(e.packedSize, f.path).toBeLessThan(f.bytes.length);
        else expect(e.packedSize, f.path).toBe(f.bytes.length);
      }

      const out = join(root, `out-${combo.cipher}-${combo.region}-${combo.method}-${combo.args.length}`);
      const extracted = await runCli(['extract', target, '--target', out]);
      expect(extracted.code, extracted.stderr).toBe(0);
      for (const f of files) expect(Buffer.compare(await readFile(join(out, f.path)), Buffer.from(f.bytes)), f.path).toBe(0);

      const cat = await runCli(['cat', target, 'DATA/한글 이름.TXT']);
      expect(cat.code).toBe(0);
      expect(cat.stdoutBytes.toString('utf8')).toBe('안녕하세요 팡야');

      const verify = await runCli(['verify', '--json', target]);
      expect(verify.code, verify.stdout).toBe(0);
      expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true, files: files.length, bytes: totalBytes, errors: [], warnings: [] });
    });
  }

  it('writes XOR entries with types 0x0N, the extra byte, and names with \\', async () => {
    const target = join(root, 'bytes-xor.pak');
    expect((await runCli(['pack', input, '--target', target, '--format', 'pangya', '--cipher', 'xor'])).code).toBe(0);
    const bytes = await readFile(target);
    const tableOffset = bytes.readUInt32LE(bytes.length - 9);
    expect(bytes[bytes.length - 1]).toBe(0x12);
    // First entry: the folder "data", type 2, sizes 0 (realSize ^ 0x71), name ^ 0x71, then a zero byte.
    expect([...bytes.subarray(tableOffset, tableOffset + 14 + 4 + 1)]).toEqual([
      4,
      0x02,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0x71,
      0,
      0,
      0,
      ...Buffer.from('data').map((b) => b ^ 0x71),
      0,
    ]);
    const second = tableOffset + 19;
    expect(bytes[second + 1]).toBe(0x01);
    const name = bytes.subarray(second + 14, second + 14 + bytes[second]!).map((b) => b ^ 0x71);
    expect(Buffer.from(name).toString('latin1')).toBe('data\\readme.txt');
  });

  it('warns that --region means nothing with --cipher xor, and refuses --method zlib', async () => {
    const target = join(root, 'warn.pak');
    const warned = await runCli(['pack', input, '--target', target, '--format', 'pangya', '--cipher', 'xor', '--region', 'kr']);
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('modpak: warning: --region kr has no effect with --cipher xor');
    const zlib = await runCli(['pack', input, '--target', join(root, 'zlib.pak'), '--format', 'pangya', '--method', 'zlib']);
    expect(zlib.code).toBe(1);
    expect(zlib.stderr.trim().split('\n')).toEqual([
      `modpak: ${join(root, 'zlib.pak')}: Pangya PAK has no zlib method: use lz77, lz77x or none`,
    ]);
  });
});

describe('modpak extract on a Pangya archive with names that climb out', () => {
  it('refuses them with a warning and extracts the rest inside the target', async () => {
    const ascii = (s: string) => new TextEncoder().encode(s);
    const data = ascii('goodevil');
    const table = [
      encodeEntry({ kind: KIND_STORED, offset: 0, packedSize: 4, realSize: 4, name: ascii('in\\good.txt') }, 'xtea', REGION_KEYS.eu),
      encodeEntry({ kind: KIND_STORED, offset: 4, packedSize: 4, realSize: 4, name: ascii('..\\..\\evil.txt') }, 'xtea', REGION_KEYS.eu),
    ];
    const file = join(root, 'climb.pak');
    await writeFile(file, Buffer.concat([data, ...table, encodeTrailer(data.length, table.length)]));
    const out = join(root, 'climb-out', 'deep');
    const run = await runCli(['extract', file, '--target', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('modpak: warning: refused to extract "../../evil.txt": it would land outside the target folder');
    expect((await readFile(join(out, 'in', 'good.txt'))).toString()).toBe('good');
    await expect(readFile(join(root, 'evil.txt'))).rejects.toThrow(/ENOENT/);
    await expect(readFile(join(root, 'climb-out', 'evil.txt'))).rejects.toThrow(/ENOENT/);
  });
});
