import { open, type FileHandle } from 'node:fs/promises';
import { fail } from '../../shared/errors.js';

/**
 * Random access to an archive's bytes. Readers never slurp: they ask for the ranges they need, and every
 * range is checked against the real size first, so a lying header cannot make us allocate or read past the
 * file. Original game archives are opened read-only ('r').
 */
export interface ByteSource {
  /** A name for messages (the path, or a label for in-memory data). */
  readonly name: string;
  readonly size: number;
  /** Exactly `length` bytes at `offset`, or a FormatError('truncated') if the file is shorter. */
  read(offset: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

function checkRead(source: ByteSource, offset: number, length: number): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
    fail('out-of-bounds', `invalid read at ${offset} of ${length} bytes`, { offset });
  }
  if (offset + length > source.size) {
    fail('truncated', `unexpected end of file: ${offset} + ${length} > ${source.size}`, {
      offset,
      expected: offset + length,
      actual: source.size,
    });
  }
}

export class FileSource implements ByteSource {
  private constructor(
    readonly name: string,
    readonly size: number,
    private readonly handle: FileHandle,
  ) {}

  static async open(path: string): Promise<FileSource> {
    const handle = await open(path, 'r');
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) fail('unsupported', 'not a regular file');
      return new FileSource(path, stat.size, handle);
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    checkRead(this, offset, length);
    const out = new Uint8Array(length);
    let done = 0;
    while (done < length) {
      const { bytesRead } = await this.handle.read(out, done, length - done, offset + done);
      if (bytesRead === 0) fail('truncated', `unexpected end of file at ${offset + done}`, { offset: offset + done });
      done += bytesRead;
    }
    return out;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

export class MemorySource implements ByteSource {
  readonly size: number;
  constructor(
    private readonly bytes: Uint8Array,
    readonly name = '<memory>',
  ) {
    this.size = bytes.length;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    checkRead(this, offset, length);
    return this.bytes.subarray(offset, offset + length);
  }

  async close(): Promise<void> {}
}
