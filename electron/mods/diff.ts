import { createHash } from 'node:crypto';
import { createTwoFilesPatch } from 'diff';
import type { OverrideDiff } from '../../shared/mods-types.js';
import { decodeTdf } from '../../shared/tdf/parse.js';
import { tdfChanges } from './tdf-diff.js';
import { isTdfSyntax, isTextFile } from '../../shared/file-kinds.js';

/**
 * What one workspace file does to the install: adds a path, modifies the file it shadows, or repeats it
 * byte for byte. Text files get a unified diff (the `diff` package); TDF-syntax files (TDF, FBI, GUI, OTA)
 * also a diff by section and key; anything else is compared by size and SHA-256.
 */

/** The install's current winner of a path: which archive (null = loose file) and entry, and its bytes. */
export interface OverrideBase {
  archive: string | null;
  entry: string;
  bytes: Uint8Array;
}

/** Beyond this a line diff costs more than it tells; such files are compared as binary. */
const MAX_TEXT_DIFF_BYTES = 4 << 20;

export { isTdfSyntax };

/** Text by extension; for an unknown extension, text when the first 8 KiB hold no NUL and few control bytes. */
export function looksLikeText(path: string, bytes: Uint8Array): boolean {
  if (isTextFile(path)) return true;
  const n = Math.min(bytes.length, 8192);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === 0) return false;
    if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 26) control++;
  }
  return n > 0 && control * 50 < n;
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

/** The diff of one workspace file (`after`) against what the install has at its path (`base`, null = nothing). */
export function diffOverride(path: string, base: OverrideBase | null, after: Uint8Array): OverrideDiff {
  const baseRef = base ? { archive: base.archive, entry: base.entry } : null;
  if (base && sameBytes(base.bytes, after)) return { path, status: 'same', base: baseRef, diff: null };
  const status = base ? 'modified' : 'added';
  const before = base?.bytes ?? new Uint8Array(0);
  const text =
    before.length <= MAX_TEXT_DIFF_BYTES &&
    after.length <= MAX_TEXT_DIFF_BYTES &&
    looksLikeText(path, after) &&
    (base === null || looksLikeText(path, before));
  if (!text) {
    return {
      path,
      status,
      base: baseRef,
      diff: {
        kind: 'binary',
        before: base ? { size: before.length, sha256: sha256(before) } : null,
        after: { size: after.length, sha256: sha256(after) },
      },
    };
  }
  const oldText = decodeTdf(before);
  const newText = decodeTdf(after);
  const oldLabel = base ? `${base.archive ?? '(loose)'}:${base.entry}` : '/dev/null';
  // CRLF and LF versions of a line are the same line: an editor that changes line ends does not rewrite the file's diff.
  let unified = createTwoFilesPatch(base ? `a/${path}` : '/dev/null', `b/${path}`, oldText, newText, oldLabel, 'workspace', {
    context: 3,
    stripTrailingCr: true,
  });
  // createTwoFilesPatch starts with a line of '=' under an 'Index' header: the --- / +++ lines say it all.
  unified = unified.replace(/^={10,}\n/, '');
  if (!unified.includes('\n@@')) unified += '(no line differs: only the line endings do)\n';
  const diff: OverrideDiff['diff'] = { kind: 'text', unified };
  if (base && isTdfSyntax(path)) diff.tdf = tdfChanges(oldText, newText);
  return { path, status, base: baseRef, diff };
}
