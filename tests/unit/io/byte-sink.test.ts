import { describe, expect, it, vi } from 'vitest';
import { mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSink, writeFileAtomically } from '../../../electron/io/byte-sink.js';
import { prng } from '../../helpers/prng.js';

const MB = 1 << 20;

describe('FileSink through writeFileAtomically', () => {
  it('writes every byte in order, whatever the mix of small, boundary-crossing and large writes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modpak-sink-'));
    try {
      const rand = prng(42);
      // Sizes around the 1 MiB staging buffer: empty, tiny, one short of it, exactly it, beyond it.
      const sizes = [0, 1, 19, MB - 1, 1, MB, 7, 3 * MB + 5, 65_536, MB - 19, 40, 2 * MB, 0, 123_457];
      for (let i = 0; i < 200; i++) sizes.push(Math.floor(rand() * 70_000));
      const parts = sizes.map((n) => Uint8Array.from({ length: n }, () => Math.floor(rand() * 256)));
      const copies = parts.map((p) => p.slice());
      const header = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
      const target = join(dir, 'out.bin');
      await writeFileAtomically(target, async (sink) => {
        await sink.write(new Uint8Array(header.length)); // a placeholder patched at the end, as the writers do
        for (const part of parts) {
          await sink.write(part);
          part.fill(0xee); // the caller's buffer is its own again once the write resolved
        }
        await sink.writeAt(0, header);
      });
      const expected = Buffer.concat([header, ...copies]);
      expect(Buffer.compare(await readFile(target), expected)).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('leaves the previous file untouched and no temporary file behind when producing fails', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modpak-sink-'));
    try {
      const target = join(dir, 'mod.ufo');
      await writeFile(target, 'the old archive');
      // One large write (awaited in full), and small ones that leave a staged megabyte being written.
      for (const produce of [
        async (sink: { write(b: Uint8Array): Promise<void> }) => sink.write(new Uint8Array(3 * MB)),
        async (sink: { write(b: Uint8Array): Promise<void> }) => {
          for (let i = 0; i < 24; i++) await sink.write(new Uint8Array(65_536).fill(i));
        },
      ]) {
        await expect(
          writeFileAtomically(target, async (sink) => {
            await produce(sink);
            throw new Error('disk full');
          }),
        ).rejects.toThrow('disk full');
        expect(await readFile(target, 'utf8')).toBe('the old archive');
        expect(await readdir(dir)).toEqual(['mod.ufo']);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('patches bytes whose staged megabyte was still being written, after that write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modpak-sink-'));
    try {
      const target = join(dir, 'out.bin');
      const piece = 65_536;
      const pieces = 200;
      await writeFileAtomically(target, async (sink) => {
        for (let i = 0; i < pieces; i++) {
          const at = sink.position;
          await sink.write(new Uint8Array(piece).fill(0xaa));
          // Right after the write that started a flush, patch the piece it flushed.
          if ((i + 1) % 16 === 0) await sink.writeAt(at, Uint8Array.of(i & 0xff));
        }
      });
      const out = await readFile(target);
      expect(out.length).toBe(piece * pieces);
      for (let i = 0; i < pieces; i++) expect(out[i * piece]).toBe((i + 1) % 16 === 0 ? i & 0xff : 0xaa);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('tells a failed write of a staged megabyte to the producer, with no unhandled rejection', async () => {
    // /dev/full refuses every write with ENOSPC, as a full disk does.
    const handle = await open('/dev/full', 'w');
    try {
      const sink = new FileSink(handle);
      const produce = async () => {
        for (let i = 0; i < 64; i++) await sink.write(new Uint8Array(65_536));
        await sink.flush();
        await sink.settle();
      };
      await expect(produce()).rejects.toMatchObject({ code: 'ENOSPC' });
    } finally {
      await handle.close();
    }
  });
});

describe('writeFileAtomically flushes to the disk', () => {
  it("always by default; with sync 'when-replacing' only when a file is there to replace", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modpak-sink-'));
    // Every FileHandle shares one prototype: spy on its sync (fsync) through a handle of the test's own.
    const probe = await open(join(dir, 'probe'), 'w');
    const sync = vi.spyOn(Object.getPrototypeOf(probe) as { sync(): Promise<void> }, 'sync');
    await probe.close();
    try {
      const bytes = (text: string) => async (sink: { write(b: Uint8Array): Promise<void> }) => sink.write(new TextEncoder().encode(text));
      const calls = async (fn: () => Promise<void>) => {
        sync.mockClear();
        await fn();
        return sync.mock.calls.length;
      };
      const edit = join(dir, 'ARMCOM.FBI');
      expect(await calls(() => writeFileAtomically(edit, bytes('a user edit')))).toBe(1);
      expect(await calls(() => writeFileAtomically(edit, bytes('edited again')))).toBe(1);
      const archive = join(dir, 'mod.ufo');
      expect(await calls(() => writeFileAtomically(archive, bytes('first build'), { sync: 'when-replacing' }))).toBe(0);
      expect(await calls(() => writeFileAtomically(archive, bytes('second build'), { sync: 'when-replacing' }))).toBe(1);
      expect(await readFile(archive, 'utf8')).toBe('second build');
      expect(await readFile(edit, 'utf8')).toBe('edited again');
    } finally {
      sync.mockRestore();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
