import { closeSync, fstatSync, openSync, read as readCallback, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
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
  /**
   * The same bytes, for a caller done with them before its next read on this source: they may be a view
   * of memory that a later read overwrites. Lets a sequential decoder read a whole archive through one
   * buffer instead of a new one per block. Sources without it are read with `read`.
   */
  readTransient?(offset: number, length: number): Promise<Uint8Array>;
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

/** Bytes read ahead once reads run sequentially: one system call per block instead of one per entry. */
const READ_AHEAD = 256 << 10;
/** Reads larger than this bypass the block (they are already one call each). */
const AHEAD_MAX_READ = 128 << 10;

const readAsync = (fd: number, into: Uint8Array, at: number, length: number, position: number) =>
  new Promise<number>((resolve, reject) => readCallback(fd, into, at, length, position, (err, n) => (err ? reject(err) : resolve(n))));

/**
 * A file read by positioned reads on its descriptor. Random reads (a directory, one entry) are
 * asynchronous and exact. Once reads follow each other (a read starts where the last ended, or inside the
 * block read ahead), the next 256 KiB are read in one synchronous call and small reads are views of it:
 * decoding every entry in order (verify, extract) then costs a system call per 256 KiB, not a thread-pool
 * round trip per entry, which left the decoding thread idle almost half the time. A block a `read` has
 * lent a view of is never overwritten (the next block is a new array), so such a view stays valid for as
 * long as it is held; a block only `readTransient` has used is refilled in place.
 */
export class FileSource implements ByteSource {
  private block: Uint8Array | null = null;
  private blockAt = 0;
  private lastEnd = -1;
  /** Whether `read` handed out a view of the block (then it must not be refilled in place). */
  private blockLent = false;

  private constructor(
    readonly name: string,
    readonly size: number,
    private readonly fd: number,
    private readonly closeFd: () => Promise<void>,
  ) {}

  static async open(path: string): Promise<FileSource> {
    const handle = await open(path, 'r');
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) fail('unsupported', 'not a regular file');
      return new FileSource(path, stat.size, handle.fd, () => handle.close());
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  /** The same, opened synchronously (worker threads, which have nothing else to do meanwhile). */
  static openSync(path: string): FileSource {
    const fd = openSync(path, 'r');
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) fail('unsupported', 'not a regular file');
      return new FileSource(path, stat.size, fd, async () => closeSync(fd));
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    checkRead(this, offset, length);
    return this.fromBlock(offset, length, false) ?? this.readExact(offset, length);
  }

  async readTransient(offset: number, length: number): Promise<Uint8Array> {
    checkRead(this, offset, length);
    return this.fromBlock(offset, length, true) ?? this.readExact(offset, length);
  }

  /**
   * readTransient without a promise, for a thread that decodes and writes synchronously anyway (an
   * extraction's batch): a random or large read is one synchronous call into a new array.
   */
  readTransientSync(offset: number, length: number): Uint8Array {
    checkRead(this, offset, length);
    const served = this.fromBlock(offset, length, true);
    if (served) return served;
    const out = new Uint8Array(length);
    this.fill(out, 0, length, offset);
    return out;
  }

  /** The bytes from the read-ahead block (refilled first when reads run sequentially), or null: read them exactly. */
  private fromBlock(offset: number, length: number, transient: boolean): Uint8Array | null {
    const end = offset + length;
    const block = this.block;
    const inBlock = block !== null && offset >= this.blockAt && offset <= this.blockAt + block.length;
    const sequential = offset === this.lastEnd || inBlock;
    this.lastEnd = end;
    if (inBlock && end <= this.blockAt + block.length) {
      if (!transient) this.blockLent = true;
      return block.subarray(offset - this.blockAt, end - this.blockAt);
    }
    if (!sequential || length > AHEAD_MAX_READ) return null;
    const want = Math.min(READ_AHEAD, this.size - offset);
    const reuse = block !== null && !this.blockLent && block.buffer.byteLength >= want;
    const next = reuse ? new Uint8Array(block.buffer, 0, want) : new Uint8Array(want);
    this.block = null;
    const got = this.fill(next, 0, want, offset, length);
    this.block = got === want ? next : next.subarray(0, got);
    this.blockAt = offset;
    this.blockLent = !transient;
    return next.subarray(0, length);
  }

  /** Read into `into` from `at` on, stopping early at the end of the file; fewer than `needed` bytes is a truncation. */
  private fill(into: Uint8Array, at: number, want: number, position: number, needed = want): number {
    let got = 0;
    while (got < want) {
      const n = readSync(this.fd, into, at + got, want - got, position + got);
      if (n === 0) break;
      got += n;
    }
    if (got < needed) fail('truncated', `unexpected end of file at ${position + got}`, { offset: position + got });
    return got;
  }

  private async readExact(offset: number, length: number): Promise<Uint8Array> {
    const out = new Uint8Array(length);
    let done = 0;
    while (done < length) {
      const bytesRead = await readAsync(this.fd, out, done, length - done, offset + done);
      if (bytesRead === 0) fail('truncated', `unexpected end of file at ${offset + done}`, { offset: offset + done });
      done += bytesRead;
    }
    return out;
  }

  async close(): Promise<void> {
    this.block = null;
    await this.closeFd();
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
