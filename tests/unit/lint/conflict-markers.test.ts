import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const SKIP = new Set(['node_modules', '.git', '.bench', 'out', 'dist', 'test-results', 'playwright-report']);
const TEXT = /\.(ts|mts|mjs|cjs|js|vue|json|md|yml|yaml|css|html|sh)$|^run$/;
const MARKER = /^(<{7}|>{7})( |$)/m;

async function* textFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* textFiles(path);
    else if (entry.isFile() && TEXT.test(entry.name)) yield path;
  }
}

// A merge once landed README.md with its conflict markers; lint and tests passed around them.
describe('the tree', () => {
  it('holds no merge conflict markers', async () => {
    const marked: string[] = [];
    for await (const file of textFiles(repo)) if (MARKER.test(await readFile(file, 'utf8'))) marked.push(relative(repo, file));
    expect(marked).toEqual([]);
  });

  it('would see one', () => {
    expect(MARKER.test('text\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> main\n')).toBe(true);
    expect(MARKER.test('a heading\n=======\n')).toBe(false);
  });
});
