import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readWholeFileSync } from '../../../electron/io/read-whole.js';

describe('readWholeFileSync with the size a folder walk listed', () => {
  it('reads the whole file whether it kept, lost or gained bytes since it was listed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modpak-read-whole-'));
    try {
      const path = join(dir, 'unit.fbi');
      const bytes = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) & 0xff);
      await writeFile(path, bytes);
      const scratch = new Uint8Array(8192);
      const same = readWholeFileSync(path, scratch, 5000);
      expect(same).toEqual(bytes);
      expect(same.buffer).toBe(scratch.buffer);
      // Listed at 4000 bytes, now 5000: the probe past 4000 finds more, so the real size is read.
      expect(readWholeFileSync(path, scratch, 4000)).toEqual(bytes);
      // Listed at 6000 bytes, now 5000: the read stops short, and the caller sees 5000.
      expect(readWholeFileSync(path, scratch, 6000).length).toBe(5000);
      expect(readWholeFileSync(path, undefined, 5000)).toEqual(bytes);
      // No byte of room past the listed size: the probe is a read of its own, with the same answers.
      const tight = new Uint8Array(5000);
      expect(readWholeFileSync(path, tight, 5000).buffer).toBe(tight.buffer);
      expect(readWholeFileSync(path, new Uint8Array(4000), 4000)).toEqual(bytes);
      expect(readWholeFileSync(path, new Uint8Array(5001), 4000)).toEqual(bytes);
      expect(readWholeFileSync(path, new Uint8Array(6000), 6000).length).toBe(5000);
      expect(readWholeFileSync(path)).toEqual(bytes);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
