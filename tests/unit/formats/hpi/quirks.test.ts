import { describe, expect, it } from 'vitest';
import { encodeChunk, wrapChunk } from '../../../../electron/formats/hpi/sqsh.js';
import { encodeLz77 } from '../../../../electron/formats/hpi/lz77.js';
import { openBytes, sameBytes, sampleBytes } from './fixtures.js';

/** A one-file v1 archive (no cipher) built by hand: the file record says `flag`, the chunks say what they are. */
function handV1(size: number, flag: number, chunks: Uint8Array[]): Uint8Array {
  const name = new TextEncoder().encode('unit.fbi\0');
  const dirEnd = 20 + 8 + 9 + name.length + 9;
  const tableLength = chunks.length * 4;
  const total = dirEnd + tableLength + chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  out.set(new TextEncoder().encode('HAPI'), 0);
  v.setUint32(4, 0x10000, true);
  v.setUint32(8, dirEnd, true);
  v.setUint32(16, 20, true);
  v.setUint32(20, 1, true); // root: 1 entry
  v.setUint32(24, 28, true);
  v.setUint32(28, 37, true); // name
  v.setUint32(32, 37 + name.length, true); // file record
  out.set(name, 37);
  const rec = 37 + name.length;
  v.setUint32(rec, dirEnd, true);
  v.setUint32(rec + 4, size, true);
  out[rec + 8] = flag;
  let at = dirEnd + tableLength;
  chunks.forEach((c, i) => {
    v.setUint32(dirEnd + i * 4, c.length, true);
    out.set(c, at);
    at += c.length;
  });
  return out;
}

describe('HPI v1 reader quirks', () => {
  const data = sampleBytes(50, 65536 + 1000, 'text');
  const first = data.subarray(0, 65536);
  const second = data.subarray(65536);

  it("decodes by each chunk's method, not the file flag, including stored (method 0) chunks", async () => {
    for (const [flag, chunks] of [
      [1, [encodeChunk(first, 2, true), encodeChunk(second, 2, false)]],
      [2, [encodeChunk(first, 1, true), encodeChunk(second, 0, true)]],
      [1, [encodeChunk(first, 0, false), encodeChunk(second, 1, true)]],
      [7, [encodeChunk(first, 2, true), encodeChunk(second, 1, true)]],
    ] as const) {
      const archive = await openBytes(handV1(data.length, flag, [...chunks]));
      const warnings: string[] = [];
      expect(sameBytes(await archive.read(archive.entries[0]!, (m) => warnings.push(m)), data), `flag ${flag}`).toBe('same');
      expect(warnings).toEqual([]);
    }
  });

  it('refuses a declared size the chunk table cannot hold, before allocating', async () => {
    const bytes = handV1(0x7fffffff, 1, [encodeChunk(first, 1, true)]);
    await expect(openBytes(bytes)).rejects.toThrow(/need 32768 chunks/);
  });

  it('refuses a chunk whose size differs from its share of the file', async () => {
    const archive = await openBytes(handV1(data.length, 1, [encodeChunk(data.subarray(0, 1000), 1, true), encodeChunk(second, 1, true)]));
    await expect(archive.read(archive.entries[0]!)).rejects.toThrow(/chunk 0 holds 1000 bytes, expected 65536/);
  });

  it('refuses a chunk-size table that overflows the file', async () => {
    const bytes = handV1(1000, 1, [encodeChunk(data.subarray(0, 1000), 1, true)]);
    const dirEnd = new DataView(bytes.buffer).getUint32(8, true);
    new DataView(bytes.buffer).setUint32(dirEnd, 0x10000000, true);
    const archive = await openBytes(bytes);
    await expect(archive.read(archive.entries[0]!)).rejects.toThrow(/chunks overflows its bounds/);
  });

  it('accepts an LZ77 stream without its terminator when the size is met, and scrambling is per chunk', async () => {
    const small = data.subarray(0, 5000);
    const stream = encodeLz77(small);
    // Drop the terminator's two bytes: the stream still yields exactly the declared size.
    const chunk = wrapChunk(stream.subarray(0, stream.length - 2), small.length, 1, true);
    const archive = await openBytes(handV1(small.length, 1, [chunk]));
    expect(sameBytes(await archive.read(archive.entries[0]!), small)).toBe('same');
  });
});

describe('HPI v1 HeaderKey 0xFF', () => {
  it('reads an archive enciphered with K = 0xFF (old tools), and says TA 3.1c would not mount it', async () => {
    const { packToBytes, packFile } = await import('./fixtures.js');
    const { positionCipher } = await import('../../../../electron/formats/hpi/cipher.js');
    const { taMountStatus } = await import('../../../../electron/vfs/probe.js');
    const { taMountVerdict } = await import('../../../../electron/vfs/rules/ta-mount.js');
    const { MemorySource } = await import('../../../../electron/io/byte-source.js');
    const plain = await packToBytes([packFile('units/A.FBI', 'hello hello hello')], { key: 0 });
    const old = plain.slice();
    old.set(positionCipher(plain.subarray(20, plain.length - 36), 20, 0xff), 20);
    new DataView(old.buffer).setUint32(12, 0xff, true);
    const archive = await openBytes(old);
    expect(new TextDecoder().decode(await archive.read(archive.entries[1]!))).toBe('hello hello hello');
    expect(taMountVerdict(archive.info())).toEqual({ ok: false, reason: expect.stringMatching(/HeaderKey 0xFF/) });
    expect(await taMountStatus(new MemorySource(old))).toMatchObject({ ok: false });
    // The same archive left plain with HeaderKey 0xFF: the game reads it as plain, and so do we.
    const asGame = plain.slice();
    new DataView(asGame.buffer).setUint32(12, 0xff, true);
    const read = await openBytes(asGame);
    expect(read.warnings.join()).toMatch(/unenciphered/);
    expect(new TextDecoder().decode(await read.read(read.entries[1]!))).toBe('hello hello hello');
    expect(taMountVerdict(read.info())).toMatchObject({ ok: true });
    expect(await taMountStatus(new MemorySource(asGame))).toMatchObject({ ok: true });
  });
});
