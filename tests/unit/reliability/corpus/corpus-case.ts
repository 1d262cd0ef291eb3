/**
 * The failure corpus: one generated file per way a file can be broken, each with the message it must give.
 * Files are built in code (from the format descriptions, or from a small real sample with one field broken
 * at a place read from the sample's own header), so the corpus is its generator: nothing binary is
 * committed, and each breakage is written down where it is made.
 */

/** A command to run on a corpus file: the argument list, given the file and an empty output folder. */
export type CorpusCommand = (file: string, out: string) => string[];

export interface CorpusCase {
  /** The file name it is written under (the extension decides nothing: formats are told by their bytes). */
  file: string;
  bytes: Uint8Array;
  /** A fragment of the one line `modpak: FILE: …` every command must print. */
  message: string | RegExp;
  commands: readonly CorpusCommand[];
}

export const info: CorpusCommand = (f) => ['info', f];
export const list: CorpusCommand = (f) => ['list', f];
export const verify: CorpusCommand = (f) => ['verify', f];
export const extract: CorpusCommand = (f, out) => ['extract', f, '-t', out];
/** Every archive command: for a broken header or directory. */
export const archiveCommands = [info, list, verify, extract] as const;
/** The commands that decode entries: for a broken entry behind a sound directory. */
export const entryCommands = [verify, extract] as const;

/** A copy of `bytes` with the u32 at `at` set to `value` (little-endian). */
export function setU32(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const out = bytes.slice();
  new DataView(out.buffer).setUint32(at, value >>> 0, true);
  return out;
}

/** A copy of `bytes` with `values` written from `at`. */
export function setBytes(bytes: Uint8Array, at: number, values: ArrayLike<number> | string): Uint8Array {
  const out = bytes.slice();
  for (let i = 0; i < values.length; i++)
    out[at + i] = typeof values === 'string' ? values.charCodeAt(i) : (values as ArrayLike<number>)[i]!;
  return out;
}

export const u32 = (bytes: Uint8Array, at: number) => new DataView(bytes.buffer, bytes.byteOffset).getUint32(at, true);
export const i32 = (bytes: Uint8Array, at: number) => new DataView(bytes.buffer, bytes.byteOffset).getInt32(at, true);
export const u16 = (bytes: Uint8Array, at: number) => new DataView(bytes.buffer, bytes.byteOffset).getUint16(at, true);
