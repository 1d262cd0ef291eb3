/**
 * The folder tree a writer lays out, built from PackFile paths in the order given: each folder's children
 * keep their first-appearance order, and folder names that differ only in case are merged under the first
 * spelling met (the game compares names case-insensitively). Files are never merged: two files whose
 * paths differ only in case are both stored (the caller warns about them).
 */
import type { PackFile } from '../archive.js';
import { fail } from '../../../shared/errors.js';
import { pathKey } from '../../../shared/paths.js';

export interface TreeFile {
  readonly kind: 'file';
  readonly name: string;
  readonly file: PackFile;
}

export interface TreeDir {
  readonly kind: 'dir';
  readonly name: string;
  readonly children: (TreeDir | TreeFile)[];
}

export function buildTree(files: readonly PackFile[]): TreeDir {
  const root: TreeDir = { kind: 'dir', name: '', children: [] };
  const folders = new Map<string, TreeDir>([['', root]]);
  for (const file of files) {
    const parts = file.path.split('/').filter((p) => p !== '');
    if (parts.length === 0) fail('bad-name', `cannot pack a file with an empty path (${JSON.stringify(file.path)})`);
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
    parent.children.push({ kind: 'file', name: parts[parts.length - 1]!, file });
  }
  return root;
}
