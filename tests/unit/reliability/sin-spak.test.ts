import { describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { put, quakePak, withScratch } from './build.js';

/**
 * SiN (item 12), from the format description: header `magic[4], i32 dirOffset, i32 dirLength`; 128-byte
 * entries `name[120]` (NUL-padded), `i32 offset, i32 length`; SiN's magic is 'SPAK' (pakextract, pakka),
 * and 128-byte entries under 'PACK' (older tools) are read too. The decoder below is this test's own.
 */
function decodeSin(bytes: Uint8Array): { magic: string; files: Map<string, string> } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  const dirOffset = view.getInt32(4, true);
  const dirLength = view.getInt32(8, true);
  expect(dirLength % 128).toBe(0);
  const files = new Map<string, string>();
  for (let at = dirOffset; at < dirOffset + dirLength; at += 128) {
    const field = bytes.subarray(at, at + 120);
    const name = String.fromCharCode(...field.subarray(0, field.indexOf(0)));
    const offset = view.getInt32(at + 120, true);
    const length = view.getInt32(at + 124, true);
    files.set(name, Buffer.from(bytes.subarray(offset, offset + length)).toString('latin1'));
  }
  return { magic, files };
}

const CONTENT: Record<string, string> = {
  'maps/sin1.bsp': 'a map '.repeat(50),
  ['sound/weapons/' + 'long_name_'.repeat(10) + '.wav']: 'wav',
};

describe("SiN's SPAK magic", () => {
  it("pack --format sin writes 'SPAK', which this test's decoder reads back", async () => {
    await withScratch(async (dir) => {
      for (const [path, text] of Object.entries(CONTENT)) {
        await mkdir(join(dir, 'src', path, '..'), { recursive: true });
        await writeFile(join(dir, 'src', path), text);
      }
      const target = join(dir, 'out.sin');
      const run = await runCli(['pack', join(dir, 'src'), '--target', target, '--format', 'sin']);
      expect(run.code, run.stderr).toBe(0);
      const decoded = decodeSin(new Uint8Array(await readFile(target)));
      expect(decoded.magic).toBe('SPAK');
      expect(Object.fromEntries(decoded.files)).toEqual(CONTENT);
    });
  });

  it("reads a real-layout 'SPAK' archive and an older tool's 128-byte-entry 'PACK' one as SiN", async () => {
    await withScratch(async (dir) => {
      const entries = Object.entries(CONTENT).map(([name, data]) => ({ name, data }));
      for (const magic of ['SPAK', 'PACK']) {
        const file = await put(join(dir, `${magic}.sin`), quakePak(entries, magic, 128));
        const info = JSON.parse((await runCli(['info', file, '--json'])).stdout) as { format: string; files: number };
        expect(info, magic).toMatchObject({ format: 'sin', files: 2 });
        const cat = await runCli(['cat', file, 'maps/sin1.bsp']);
        expect(cat.stdout).toBe(CONTENT['maps/sin1.bsp']);
      }
      // 'SPAK' is SiN's alone: a Quake-sized directory under it is not read as Quake.
      const quakeShaped = await put(join(dir, 'q.pak'), quakePak([{ name: 'a.txt', data: 'x' }], 'SPAK', 64));
      const run = await runCli(['info', quakeShaped]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/not a valid SiN PAK: directory length 64 is not a multiple of the 128-byte SiN PAK entry/);
    });
  });
});
