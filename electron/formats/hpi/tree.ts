/**
 * The folder tree a writer lays out, built from PackFile paths in the order given: each folder's children
 * keep their first-appearance order, and folder names that differ only in case are merged under the first
 * spelling met (the game compares names case-insensitively). Files are never merged: two files whose
 * paths differ only in case are both stored (the caller warns about them).
 */
import type { PackFile } from '../archive.js';
import { fail } from '../../../shared/errors.js';
import { pathKey } from '../../../shared/paths.js';

/** A file's node holds only the file: its name is cut from the path when asked for (once, by the layout). */
export class TreeFile {
  readonly kind = 'file';
  constructor(readonly file: PackFile) {}
  get name(): string {
    return this.file.path
      .split('/')
      .filter((p) => p !== '')
      .pop()!;
  }
}

export interface TreeDir {
  readonly kind: 'dir';
  readonly name: string;
  readonly children: (TreeDir | TreeFile)[];
}

export function buildTree(files: readonly PackFile[]): TreeDir {
  const root: TreeDir = { kind: 'dir', name: '', children: [] };
  const folders = new Map<string, TreeDir>([['', root]]);
  // Each folder as its files' paths spell it: siblings skip the case-folding of every part (a regular
  // expression per part, for each of 30,000 files).
  const bySpelling = new Map<string, TreeDir>();
  for (const file of files) {
    const path = file.path;
    const spelled = path.slice(0, Math.max(0, path.lastIndexOf('/')));
    const known = bySpelling.get(spelled);
    // A name of its own after the folder (not a trailing slash, not an empty path) takes the known folder.
    if (known && path.length > spelled.length + 1) {
      known.children.push(new TreeFile(file));
      continue;
    }
    const parts = path.split('/').filter((p) => p !== '');
    if (parts.length === 0) fail('bad-name', `cannot pack a file with an empty path (${JSON.stringify(path)})`);
    let parent = root;
    let key = '';
    for (const part of parts.slice(0, -1)) {
      key = key === '' ? pathKey(part) : `${key}/${pathKey(part)}`;
      let folder = folders.get(key);
      if (!folder) {
        folder = { kind: 'dir', name: part, children: [] };
        folders.set(key, folder);
        parent.children.push(folder);
      }
      parent = folder;
    }
    if (!path.endsWith('/')) bySpelling.set(spelled, parent);
    parent.children.push(new TreeFile(file));
  }
  return root;
}
