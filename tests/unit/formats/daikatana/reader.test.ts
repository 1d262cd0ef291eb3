import { describe, expect, it } from 'vitest';
import { MemorySource, type ByteSource } from '../../../../electron/io/byte-source.js';
import { MemorySink } from '../../../../electron/io/byte-sink.js';
import { openArchiveSource } from '../../../../electron/formats/index.js';
import { daikatanaEngine } from '../../../../electron/formats/daikatana/index.js';
import { FormatError } from '../../../../shared/errors.js';
import type { PackFile } from '../../../../electron/formats/archive.js';
import { Craft, assemble } from '../pak/craft.js';

/** A source that records every read, to show what opening and reading touch. */
class CountingSource implements ByteSource {
  readonly reads: [number, number][] = [];
  private readonly inner: MemorySource;
  constructor(bytes: Uint8Array) {
    this.inner = new MemorySource(bytes, 'counting');
  }
  get name() {
    return this.inner.name;
  }
  get size() {
    return this.inner.size;
  }
  read(offset: number, length: number) {
    this.reads.push([offset, length]);
    return this.inner.read(offset, length);
  }
  close() {
    return this.inner.close();
  }
}

const file = (path: string, bytes: Uint8Array): PackFile => ({ path, size: bytes.length, read: async () => bytes });

describe('Daikatana reader', () => {
  it('opens with the header and directory only, decodes an entry when it is read, keeps stored order', async () => {
    const sink = new MemorySink();
    const big = new Uint8Array(50_000).fill(7);
    await daikatanaEngine.pack!(
      [file('z.pcx', big), file('a.txt', new TextEncoder().encode('plain')), file('m.bsp', new Uint8Array(300))],
      sink,
      {},
    );
    const bytes = sink.toBytes();
    const source = new CountingSource(bytes);
    const archive = await openArchiveSource(source);
    const dirOffset = new DataView(bytes.buffer).getInt32(4, true);
    // Magic, header, directory (and other engines' magic checks): nothing from the data area.
    expect(source.reads.every(([o, l]) => o + l <= 12 || o >= dirOffset)).toBe(true);
    expect(archive.entries.map((e) => [e.path, e.method])).toEqual([
      ['z.pcx', 'dk'],
      ['a.txt', 'stored'],
      ['m.bsp', 'dk'],
    ]);
    source.reads.length = 0;
    expect(await archive.read(archive.entries[0]!)).toEqual(big);
    expect(source.reads).toEqual([[12, archive.entries[0]!.packedSize]]);
    // 770 byte runs of at most 65 (2 bytes each) and the end marker.
    expect(archive.entries[0]!.packedSize).toBe(770 * 2 + 1);
    await expect(archive.read({ path: 'x', dir: false, size: 1, packedSize: 1, method: 'stored' })).rejects.toBeInstanceOf(FormatError);
    await archive.close();
  });

  it('warns when a stored entry declares a compressedLength other than its length, and reads by length', async () => {
    const c = new Craft(144).daikatana(0, 'odd.txt', 12, 5, 9, 0).daikatana(1, 'ok.txt', 17, 3, 3, 0);
    const archive = await openArchiveSource(new MemorySource(assemble(c.dir, 8)));
    expect(archive.format).toBe('daikatana');
    expect(archive.warnings).toEqual(['odd.txt: stored entry declares compressedLength 9, not its length 5 (the length is used)']);
    expect(new TextDecoder().decode(await archive.read(archive.entries[0]!))).toBe('abcde');
    expect(new TextDecoder().decode(await archive.read(archive.entries[1]!))).toBe('fgh');
    expect(archive.info()).toMatchObject({ format: 'daikatana', files: 2, dirs: 0, bytes: 8, compressed: 0 });
  });
});
