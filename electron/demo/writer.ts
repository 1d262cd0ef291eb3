import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { PackFile, PackOptions } from '../formats/index.js';
import { engineFor } from '../formats/index.js';
import { MemorySink, writeFileAtomically } from '../io/byte-sink.js';

/**
 * Writing the archives of a generated install through the format engines (never by hand), with the
 * tampering a test install needs: TA's mount test looks at the last 36 bytes, so an archive with another
 * year in its trailer or with bytes after the trailer is made by editing the engine's output.
 */
export interface DemoFile {
  path: string;
  data: Uint8Array;
}

export interface Tamper {
  /** Replace the trailer's year ("Copyright 1997 …" → this 4-character year). */
  trailerYear?: string;
  /** Bytes appended after the trailer. */
  append?: Uint8Array;
}

const text = new TextEncoder();
export const utf8 = (s: string) => text.encode(s);

export function packFiles(files: readonly DemoFile[]): PackFile[] {
  return files.map((f) => ({ path: f.path, size: f.data.length, read: async () => f.data }));
}

export async function packBytes(
  engine: 'hpi' | 'pak' | 'daikatana',
  files: readonly DemoFile[],
  options: PackOptions,
): Promise<Uint8Array> {
  const sink = new MemorySink();
  await engineFor(engine).pack!(packFiles(files), sink, options);
  return sink.toBytes();
}

export async function writeArchive(target: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  await writeFileAtomically(target, (sink) => sink.write(bytes));
}

/** An HPI archive (v1 by default) with optional tampering, written atomically. */
export async function writeHpi(target: string, files: readonly DemoFile[], options: PackOptions = {}, tamper: Tamper = {}): Promise<void> {
  let bytes = await packBytes('hpi', files, { version: 1, ...options });
  if (tamper.trailerYear) {
    // "Copyright 1997 Cavedog Entertainment" is the last 36 bytes; the year starts 10 bytes in.
    if (tamper.trailerYear.length !== 4) throw new Error('a trailer year has four characters');
    bytes = bytes.slice();
    bytes.set(utf8(tamper.trailerYear), bytes.length - 36 + 10);
  }
  if (tamper.append) {
    const out = new Uint8Array(bytes.length + tamper.append.length);
    out.set(bytes);
    out.set(tamper.append, bytes.length);
    bytes = out;
  }
  await writeArchive(target, bytes);
}
