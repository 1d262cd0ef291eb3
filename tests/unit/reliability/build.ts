/**
 * Archives written in the tests from the format descriptions (../shared/docs/formats.md), independent of
 * the writers under test: a Quake PAK ('PACK', i32 dirOffset, i32 dirLength; 64-byte entries of a
 * 56-byte NUL-padded name, i32 offset, i32 length).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RawEntry {
  name: string;
  data: Uint8Array | string;
}

const bytesOf = (d: Uint8Array | string) => (typeof d === 'string' ? new TextEncoder().encode(d) : d);

/** A Quake PAK holding `entries` (names as latin1 bytes, up to 55 of them), data first, directory last. */
export function quakePak(entries: readonly RawEntry[], magic = 'PACK', entrySize = 64): Uint8Array {
  const datas = entries.map((e) => bytesOf(e.data));
  const dataBytes = datas.reduce((n, d) => n + d.length, 0);
  const dirOffset = 12 + dataBytes;
  const out = new Uint8Array(dirOffset + entries.length * entrySize);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = magic.charCodeAt(i);
  view.setInt32(4, dirOffset, true);
  view.setInt32(8, entries.length * entrySize, true);
  let at = 12;
  entries.forEach((e, i) => {
    const d = datas[i]!;
    out.set(d, at);
    const rec = dirOffset + i * entrySize;
    for (let c = 0; c < e.name.length; c++) out[rec + c] = e.name.charCodeAt(c) & 0xff;
    view.setInt32(rec + entrySize - 8, at, true);
    view.setInt32(rec + entrySize - 4, d.length, true);
    at += d.length;
  });
  return out;
}

/** A scratch folder for one test, removed afterwards. */
export async function withScratch<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'modpak-rel-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function put(path: string, bytes: Uint8Array | string): Promise<string> {
  await writeFile(path, bytesOf(bytes));
  return path;
}
