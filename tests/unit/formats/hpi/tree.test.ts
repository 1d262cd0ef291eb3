import { describe, expect, it } from 'vitest';
import type { PackFile } from '../../../../electron/formats/archive.js';
import { buildTree, type TreeDir } from '../../../../electron/formats/hpi/tree.js';
import { pathKey } from '../../../../shared/paths.js';
import { packFile } from './fixtures.js';

/** The tree as the writers define it: every part of every path case-folded, folder by folder. */
function referenceTree(files: readonly PackFile[]): unknown {
  type Dir = { name: string; children: (Dir | string)[] };
  const root: Dir = { name: '', children: [] };
  const folders = new Map<string, Dir>([['', root]]);
  for (const file of files) {
    const parts = file.path.split('/').filter((p) => p !== '');
    let parent = root;
    let key = '';
    for (const part of parts.slice(0, -1)) {
      key = key === '' ? pathKey(part) : `${key}/${pathKey(part)}`;
      let folder = folders.get(key);
      if (!folder) {
        folder = { name: part, children: [] };
        folders.set(key, folder);
        parent.children.push(folder);
      }
      parent = folder;
    }
    parent.children.push(parts.at(-1)!);
  }
  return root;
}

const shape = (dir: TreeDir): unknown => ({
  name: dir.name,
  children: dir.children.map((c) => (c.kind === 'dir' ? shape(c) : c.name)),
});

describe('the HPI writers’ folder tree', () => {
  it('matches the part-by-part tree on paths in mixed case, with doubled, leading and trailing slashes', () => {
    const spellings = ['units', 'UNITS', 'Units', 'units/deep', 'UNITS/Deep', 'units//deep', '/units', 'anims', ''];
    const files: PackFile[] = [];
    for (let i = 0; i < 400; i++) {
      const folder = spellings[(i * 7) % spellings.length]!;
      const name = `f${i % 13}${i % 3 === 0 ? '.FBI' : '.fbi'}${i % 17 === 0 ? '/' : ''}`;
      files.push(packFile(folder === '' ? name : `${folder}/${name}`, 'x'));
    }
    expect(shape(buildTree(files))).toEqual(referenceTree(files));
    expect(() => buildTree([packFile('a.txt', 'x'), packFile('', 'y')])).toThrow(/empty path/);
  });
});
