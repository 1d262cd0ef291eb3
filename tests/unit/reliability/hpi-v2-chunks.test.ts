import { describe, expect, it } from 'vitest';
import { inflateSync } from 'node:zlib';
import { MemorySource } from '../../../electron/io/byte-source.js';
import { hpiEngine } from '../../../electron/formats/hpi/index.js';
import { packFile, packToBytes, sampleBytes } from '../formats/hpi/fixtures.js';
import { sqshZlib } from './hostile.js';

/**
 * HPI v2 payloads (item 13), decoded here from the format description, the way a reader that takes only
 * a file's first SQSH chunk (kbot-io) does: header DirBlock/DirSize/NameBlock/NameSize at 0x08..0x14;
 * a block is raw or one SQSH chunk (19-byte header: 'SQSH', version, method, scrambled, compressedSize,
 * size, checksum; scrambled payload byte i stored as ((p ^ i) + i) & 0xFF, i mod 256); Dir2 {namePtr,
 * firstSub, subCount, firstFile, fileCount}; File2 {namePtr, start, size, compressedSize, date, checksum}.
 */
function sqshPayload(bytes: Uint8Array, at: number): { data: Uint8Array; end: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset + at);
  expect(String.fromCharCode(...bytes.subarray(at, at + 4))).toBe('SQSH');
  const method = bytes[at + 5]!;
  const scrambled = bytes[at + 6] !== 0;
  const compressed = view.getUint32(7, true);
  const payload = bytes.slice(at + 19, at + 19 + compressed);
  if (scrambled) for (let i = 0; i < payload.length; i++) payload[i] = ((payload[i]! - (i & 0xff)) ^ (i & 0xff)) & 0xff;
  expect(method).toBe(2);
  return { data: new Uint8Array(inflateSync(payload)), end: at + 19 + compressed };
}

function block(bytes: Uint8Array, at: number, size: number): Uint8Array {
  return String.fromCharCode(...bytes.subarray(at, at + 4)) === 'SQSH' ? sqshPayload(bytes, at).data : bytes.slice(at, at + size);
}

/** Every root file's bytes, reading only the first chunk of a compressed payload. */
function firstChunkReader(bytes: Uint8Array): Map<string, Uint8Array> {
  const h = new DataView(bytes.buffer, bytes.byteOffset);
  const dir = block(bytes, h.getUint32(8, true), h.getUint32(12, true));
  const names = block(bytes, h.getUint32(16, true), h.getUint32(20, true));
  const d = new DataView(dir.buffer, dir.byteOffset);
  const out = new Map<string, Uint8Array>();
  const firstFile = d.getInt32(12, true);
  for (let i = 0; i < d.getInt32(16, true); i++) {
    const rec = firstFile + i * 24;
    const ptr = d.getInt32(rec, true);
    const name = String.fromCharCode(...names.subarray(ptr, names.indexOf(0, ptr)));
    const start = d.getUint32(rec + 4, true);
    const size = d.getUint32(rec + 8, true);
    const compressed = d.getUint32(rec + 12, true);
    out.set(name, compressed === 0 ? bytes.slice(start, start + size) : sqshPayload(bytes, start).data);
  }
  return out;
}

describe('HPI v2 files over 64 KiB (item 13)', () => {
  it('are written as one SQSH chunk, which a first-chunk-only reader reads whole', async () => {
    const big = sampleBytes(7, 300_000, 'runs');
    const small = sampleBytes(8, 5_000, 'text');
    const bytes = await packToBytes([packFile('big.tnt', big), packFile('small.txt', small)], { version: 2, method: 'zlib' });
    const files = firstChunkReader(bytes);
    expect(Buffer.from(files.get('big.tnt')!).equals(Buffer.from(big))).toBe(true);
    expect(Buffer.from(files.get('small.txt')!).equals(Buffer.from(small))).toBe(true);
  });

  it('multi-chunk payloads (as other writers lay them) are still read', async () => {
    // A v2 archive built here: one file of 150,000 bytes in three consecutive chunks, raw blocks.
    const plain = sampleBytes(9, 150_000, 'runs');
    const chunks = [plain.subarray(0, 65536), plain.subarray(65536, 131072), plain.subarray(131072)].map(sqshZlib);
    const payload = Buffer.concat(chunks);
    const names = new Uint8Array([0, ...Buffer.from('multi.bin'), 0]);
    const dir = new Uint8Array(20 + 24);
    const dv = new DataView(dir.buffer);
    dv.setInt32(12, 20, true);
    dv.setInt32(16, 1, true);
    dv.setInt32(20, 1, true);
    dv.setUint32(24, 32, true);
    dv.setUint32(28, plain.length, true);
    dv.setUint32(32, payload.length, true);
    const out = new Uint8Array(32 + payload.length + names.length + dir.length);
    const hv = new DataView(out.buffer);
    out.set(Buffer.from('HAPI'));
    hv.setUint32(4, 0x00020000, true);
    hv.setUint32(8, 32 + payload.length + names.length, true);
    hv.setUint32(12, dir.length, true);
    hv.setUint32(16, 32 + payload.length, true);
    hv.setUint32(20, names.length, true);
    hv.setUint32(24, 32, true);
    out.set(payload, 32);
    out.set(names, 32 + payload.length);
    out.set(dir, 32 + payload.length + names.length);
    const archive = await hpiEngine.open(new MemorySource(out, 'multi.hpi'));
    const entry = archive.entries.find((e) => e.path === 'multi.bin')!;
    const warnings: string[] = [];
    const data = await archive.read(entry, (m) => warnings.push(m));
    expect(Buffer.from(data).equals(Buffer.from(plain))).toBe(true);
    // Only the entry checksum (left 0 here) is off.
    expect(warnings).toEqual([expect.stringMatching(/^entry checksum 0x0 does not match/)]);
  });
});
