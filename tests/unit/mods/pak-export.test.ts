import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packFolder } from '../../../electron/mods/pack.js';
import { writeRecord } from '../../../electron/mods/workspace.js';
import { withArchive } from '../../../electron/formats/index.js';
import { createStudioHost } from '../../../electron/services/handlers/index.js';
import type { Envelope, StudioHost } from '../../../electron/services/host/host.js';

/**
 * The Mods screen's export for a Quake-family install writes the game's own PAK into its mod folder:
 * Daikatana's 72-byte entries (with its compression for .bsp/.tga/.bmp/.wal/.pcx) for Daikatana, Quake's
 * 64-byte entries for Quake, Half-Life and Quake 2. Read back by the engine and by a decoder written here
 * from formats.md.
 */
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'modpak-pak-export-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

async function put(base: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), content);
  }
}
async function pak(target: string, files: Record<string, string>, format: 'pak' | 'daikatana'): Promise<void> {
  const src = await mkdtemp(join(work, 'src-'));
  await put(src, files);
  await mkdir(dirname(target), { recursive: true });
  await packFolder({ dir: src, target, format });
}
function ok<T>(answer: Envelope): T {
  if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return answer.result as T;
}

interface DecodedEntry {
  name: string;
  bytes: Uint8Array;
  compressed: boolean;
}

/** formats.md "Daikatana PAK": 'PACK', dirOffset, dirLength; 72-byte entries name[56], offset, length, compressedLength, compressed. */
function decodeDaikatana(file: Uint8Array): DecodedEntry[] {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  expect(String.fromCharCode(...file.subarray(0, 4))).toBe('PACK');
  const dirOffset = view.getInt32(4, true);
  const dirLength = view.getInt32(8, true);
  expect(dirLength % 72).toBe(0);
  const out: DecodedEntry[] = [];
  for (let at = dirOffset; at < dirOffset + dirLength; at += 72) {
    const nameBytes = file.subarray(at, at + 56);
    const name = String.fromCharCode(...nameBytes.subarray(0, nameBytes.indexOf(0)));
    const offset = view.getInt32(at + 56, true);
    const length = view.getInt32(at + 60, true);
    const compressedLength = view.getInt32(at + 64, true);
    const compressed = view.getInt32(at + 68, true) !== 0;
    const stored = file.subarray(offset, offset + (compressed ? compressedLength : length));
    out.push({ name, compressed, bytes: compressed ? inflateDaikatana(stored, length) : stored });
  }
  return out;
}

/** The opcodes of formats.md, copied byte by byte. */
function inflateDaikatana(input: Uint8Array, length: number): Uint8Array {
  const out: number[] = [];
  let i = 0;
  for (;;) {
    const x = input[i++]!;
    if (x === 0xff) break;
    if (x <= 0x3f) for (let n = 0; n < x + 1; n++) out.push(input[i++]!);
    else if (x <= 0x7f) for (let n = 0; n < x - 62; n++) out.push(0);
    else if (x <= 0xbf) {
      const b = input[i++]!;
      for (let n = 0; n < x - 126; n++) out.push(b);
    } else if (x <= 0xfd) {
      const d = input[i++]!;
      const from = out.length - (d + 2);
      for (let n = 0; n < x - 190; n++) out.push(out[from + n]!);
    }
  }
  expect(out.length).toBe(length);
  return Uint8Array.from(out);
}

/** formats.md "Quake PAK": 64-byte entries name[56], offset, length. */
function decodeQuake(file: Uint8Array): { name: string; bytes: Uint8Array }[] {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const dirOffset = view.getInt32(4, true);
  const dirLength = view.getInt32(8, true);
  expect(dirLength % 64).toBe(0);
  const out: { name: string; bytes: Uint8Array }[] = [];
  for (let at = dirOffset; at < dirOffset + dirLength; at += 64) {
    const nameBytes = file.subarray(at, at + 56);
    const offset = view.getInt32(at + 56, true);
    out.push({
      name: String.fromCharCode(...nameBytes.subarray(0, nameBytes.indexOf(0))),
      bytes: file.subarray(offset, offset + view.getInt32(at + 60, true)),
    });
  }
  return out;
}

// A BSP-named file with long runs (Daikatana compresses .bsp) and a text file (always stored).
const bsp = new Uint8Array(3000).map((_, i) => (i < 1000 ? 0 : i < 2000 ? 7 : i % 13));
const mine = { 'maps/e1m1.bsp': bsp, 'scripts/mine.txt': 'my mod\n' };

async function studio(root: string): Promise<StudioHost> {
  return createStudioHost({ facts: { version: '1', host: 'web', initialRoot: root, demo: false }, recentFile: null, warm: false });
}

describe("export into a Quake-family mod folder writes that game's PAK as the next pakN.pak", () => {
  it('Daikatana: a Daikatana PAK (72-byte entries, .bsp compressed) that the engine and the install read, and wins', async () => {
    const root = join(work, 'daikatana');
    await put(root, { 'daikatana.exe': 'MZ' });
    await pak(join(root, 'data', 'pak0.pak'), { 'maps/e1m1.bsp': 'base', 'scripts/base.txt': 'base' }, 'daikatana');
    await pak(join(root, 'mymod', 'pak0.pak'), { 'scripts/mod.txt': 'mod' }, 'daikatana');
    const ws = join(work, 'ws-dk');
    await put(ws, mine);
    await writeRecord(ws, { version: 1 });
    const host = await studio(root);
    try {
      const opened = ok<{ game: string }>(await host.call('install.open', { root, mod: 'mymod' }));
      expect(opened.game).toBe('daikatana');
      ok(await host.call('workspace.open', { dir: ws, root }));
      const impact = ok<{ archive: string; rank: number; wins: { path: string }[] }>(
        await host.call('mods.impact', { root, archive: ws, name: 'pak1.pak', mod: 'mymod' }),
      );
      expect(impact).toMatchObject({ archive: 'mymod/pak1.pak', rank: 1 });
      expect(impact.wins.map((w) => w.path).sort()).toEqual(['maps/e1m1.bsp', 'scripts/mine.txt']);

      const target = join(root, 'mymod', 'pak1.pak');
      ok(await host.call('mods.export', { dir: ws, target, game: 'daikatana' }));
      const file = new Uint8Array(await readFile(target));
      const decoded = decodeDaikatana(file);
      expect(decoded.map((e) => [e.name, e.compressed])).toEqual([
        ['maps/e1m1.bsp', true],
        ['scripts/mine.txt', false],
      ]);
      expect([...decoded[0]!.bytes]).toEqual([...bsp]);
      expect(new TextDecoder().decode(decoded[1]!.bytes)).toBe('my mod\n');
      // The engine recognises it as Daikatana's and reads the same bytes.
      await withArchive(target, async (archive) => {
        expect(archive.format).toBe('daikatana');
        expect([...(await archive.read(archive.entries.find((e) => e.path === 'maps/e1m1.bsp')!))]).toEqual([...bsp]);
      });
      const again = ok<{ mounted: { archive: string }[] }>(await host.call('install.open', { root, mod: 'mymod' }));
      expect(again.mounted[0]!.archive).toBe('mymod/pak1.pak');
      const winner = ok<{ winner: { archive: string } }>(await host.call('install.resolve', { root, path: 'maps/e1m1.bsp' }));
      expect(winner.winner.archive).toBe('mymod/pak1.pak');
    } finally {
      await host.close();
    }
  });

  it('Quake: a Quake PAK (64-byte entries, stored)', async () => {
    const root = join(work, 'quake');
    await put(root, { 'quake.exe': 'MZ' });
    await pak(join(root, 'id1', 'pak0.pak'), { 'maps/e1m1.bsp': 'base' }, 'pak');
    await pak(join(root, 'mymod', 'pak0.pak'), { 'progs/a.mdl': 'mod' }, 'pak');
    const ws = join(work, 'ws-q');
    await put(ws, mine);
    await writeRecord(ws, { version: 1 });
    const host = await studio(root);
    try {
      ok(await host.call('install.open', { root, mod: 'mymod' }));
      ok(await host.call('workspace.open', { dir: ws, root }));
      const target = join(root, 'mymod', 'pak1.pak');
      ok(await host.call('mods.export', { dir: ws, target, game: 'quake' }));
      const decoded = decodeQuake(new Uint8Array(await readFile(target)));
      expect(decoded.map((e) => e.name)).toEqual(['maps/e1m1.bsp', 'scripts/mine.txt']);
      expect([...decoded[0]!.bytes]).toEqual([...bsp]);
      await withArchive(target, async (archive) => expect(archive.format).toBe('pak'));
    } finally {
      await host.close();
    }
  });
});
