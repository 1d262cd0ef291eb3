import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Where writers put their bytes. Writers append with `write` and may patch earlier bytes with `writeAt`
 * (an HPI directory, for instance, is written after the data it points to is laid out).
 */
export interface ByteSink {
  readonly position: number;
  write(bytes: Uint8Array): Promise<void>;
  writeAt(offset: number, bytes: Uint8Array): Promise<void>;
}

/** Collects everything in memory: for tests and small archives. */
export class MemorySink implements ByteSink {
  private chunks: Uint8Array[] = [];
  private patches: { offset: number; bytes: Uint8Array }[] = [];
  position = 0;

  async write(bytes: Uint8Array): Promise<void> {
    this.chunks.push(bytes.slice());
    this.position += bytes.length;
  }

  async writeAt(offset: number, bytes: Uint8Array): Promise<void> {
    if (offset + bytes.length > this.position) throw new Error('writeAt past the end of the sink');
    this.patches.push({ offset, bytes: bytes.slice() });
  }

  toBytes(): Uint8Array {
    const out = new Uint8Array(this.position);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    for (const p of this.patches) out.set(p.bytes, p.offset);
    return out;
  }
}

/** Appends to an open file handle with positioned writes, buffering small writes. */
export class FileSink implements ByteSink {
  private buffer: Uint8Array[] = [];
  private buffered = 0;
  private flushedTo = 0;
  position = 0;

  constructor(private readonly handle: FileHandle) {}

  async write(bytes: Uint8Array): Promise<void> {
    this.buffer.push(bytes.slice());
    this.buffered += bytes.length;
    this.position += bytes.length;
    if (this.buffered >= 1 << 20) await this.flush();
  }

  async writeAt(offset: number, bytes: Uint8Array): Promise<void> {
    await this.flush();
    if (offset + bytes.length > this.position) throw new Error('writeAt past the end of the sink');
    await this.handle.write(bytes, 0, bytes.length, offset);
  }

  async flush(): Promise<void> {
    if (this.buffered === 0) return;
    const all = Buffer.concat(this.buffer);
    this.buffer = [];
    this.buffered = 0;
    await this.handle.write(all, 0, all.length, this.flushedTo);
    this.flushedTo += all.length;
  }
}

/**
 * Write a file through a temporary sibling renamed into place: a failure at any point leaves the previous
 * file untouched and removes the temporary one. Readers of the target never see a half-written archive.
 */
export async function writeFileAtomically(target: string, produce: (sink: ByteSink) => Promise<void>): Promise<void> {
  const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(tmp, 'wx');
  let ok = false;
  try {
    const sink = new FileSink(handle);
    await produce(sink);
    await sink.flush();
    await handle.sync();
    ok = true;
  } finally {
    await handle.close();
    if (!ok) await rm(tmp, { force: true });
  }
  try {
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
