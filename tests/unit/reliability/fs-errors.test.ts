import { describe, expect, it } from 'vitest';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { packFolder } from '../../../electron/mods/pack.js';
import { describeError } from '../../../electron/cli/errors.js';
import { withScratch } from './build.js';

describe('a file-system error names the file it is about (item 9)', () => {
  it('a source deleted mid-pack is named, not the target; no target or temporary file is left', async () => {
    await withScratch(async (dir) => {
      const src = join(dir, 'src');
      await mkdir(src);
      for (let i = 0; i < 200; i++) await writeFile(join(src, `f${String(i).padStart(3, '0')}.txt`), `file ${i}`);
      const target = join(dir, 'out', 'mod.pak');
      await mkdir(join(dir, 'out'));
      let deleted = false;
      const err = await packFolder({
        dir: src,
        target,
        format: 'pak',
        onProgress: () => {
          if (deleted) return;
          deleted = true;
          // Synchronously, before the writer goes on: the files from f150 on vanish before they are read.
          for (let i = 150; i < 200; i++) rmSync(join(src, `f${i}.txt`));
        },
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      const line = describeError(err, target);
      expect(line).toMatch(/^modpak: .*src\/f1[5-9]\d\.txt: no such file or folder$/);
      expect(line).not.toContain('mod.pak');
      expect(await readdir(join(dir, 'out'))).toEqual([]);
    });
  });
});
