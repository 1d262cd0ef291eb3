import { MemorySink } from '../../../../electron/io/byte-sink.js';
import { engineFor } from '../../../../electron/formats/index.js';
import type { FormatId, PackFile } from '../../../../electron/formats/archive.js';

/**
 * Hand-crafted 'PACK' archives for recognition tests. `Craft` writes fields into a directory and refuses a
 * write that would change a byte another field already set, so a directory meant to read two ways (64- and
 * 72-byte entries over the same bytes) is checked to be consistent as it is built.
 */
export class Craft {
  readonly dir: Uint8Array;
  private readonly owner: (string | null)[];

  constructor(dirLength: number) {
    this.dir = new Uint8Array(dirLength);
    this.owner = new Array<string | null>(dirLength).fill(null);
  }

  put(at: number, bytes: ArrayLike<number>, who: string): this {
    for (let i = 0; i < bytes.length; i++) {
      const p = at + i;
      const other = this.owner[p];
      if (other && this.dir[p] !== bytes[i]) throw new Error(`${who} writes ${bytes[i]} at ${p}, where ${other} put ${this.dir[p]}`);
      this.dir[p] = bytes[i]!;
      this.owner[p] = other ?? who;
    }
    return this;
  }

  name(at: number, name: string, who: string): this {
    return this.put(at, [...Array.from(name, (c) => c.charCodeAt(0)), 0], who);
  }

  i32(at: number, value: number, who: string): this {
    return this.put(at, [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff], who);
  }

  /** A Quake entry `k` (64 bytes each). */
  quake(k: number, name: string, offset: number, length: number): this {
    return this.name(64 * k, name, `Q${k}.name`)
      .i32(64 * k + 56, offset, `Q${k}.offset`)
      .i32(64 * k + 60, length, `Q${k}.length`);
  }

  /** A Daikatana entry `j` (72 bytes each). */
  daikatana(j: number, name: string, offset: number, length: number, compressedLength: number, flag: number): this {
    const at = 72 * j;
    return this.name(at, name, `D${j}.name`)
      .i32(at + 56, offset, `D${j}.offset`)
      .i32(at + 60, length, `D${j}.length`)
      .i32(at + 64, compressedLength, `D${j}.compressedLength`)
      .i32(at + 68, flag, `D${j}.flag`);
  }
}

/** 'PACK' header + `dataLength` bytes of data (printable filler) + the directory at the end. */
export function assemble(dir: Uint8Array, dataLength: number): Uint8Array {
  const out = new Uint8Array(12 + dataLength + dir.length);
  out.set([0x50, 0x41, 0x43, 0x4b]);
  const view = new DataView(out.buffer);
  view.setInt32(4, 12 + dataLength, true);
  view.setInt32(8, dir.length, true);
  for (let i = 0; i < dataLength; i++) out[12 + i] = 0x61 + (i % 26);
  out.set(dir, 12 + dataLength);
  return out;
}

/** A text file to pack. */
export const file = (path: string, text: string): PackFile => {
  const bytes = new TextEncoder().encode(text);
  return { path, size: bytes.length, read: async () => bytes };
};

/** `files` packed by the format's own writer. */
export async function packWith(format: FormatId, files: PackFile[]): Promise<Uint8Array> {
  const sink = new MemorySink();
  await engineFor(format).pack!(files, sink, {});
  return sink.toBytes();
}
