import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../../../electron/io/byte-source.js';
import { engineFor, openArchiveSource } from '../../../../electron/formats/index.js';
import { FormatError } from '../../../../shared/errors.js';
import type { Archive } from '../../../../electron/formats/archive.js';
import { file, packWith } from './craft.js';

/**
 * Opening a PAK takes shortcuts for the common case (data in directory order, no two names alike, entries
 * read in stored order); these check that the uncommon cases still get the full treatment.
 */

const open = (bytes: Uint8Array): Promise<Archive> => openArchiveSource(new MemorySource(bytes, 'crafted.pak'));
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The same archive with its 64-byte directory entries in reverse order (the data stays where it is). */
function reversedDirectory(pak: Uint8Array): Uint8Array {
  const view = new DataView(pak.buffer, pak.byteOffset, pak.length);
  const dirOffset = view.getInt32(4, true);
  const count = view.getInt32(8, true) / 64;
  const out = pak.slice();
  for (let k = 0; k < count; k++) out.set(pak.subarray(dirOffset + 64 * k, dirOffset + 64 * (k + 1)), dirOffset + 64 * (count - 1 - k));
  return out;
}

const files = Array.from({ length: 40 }, (_, i) => file(`maps/m${i}.bsp`, `map ${i} `.repeat(i + 1)));

describe('PAK open shortcuts', () => {
  it('rates data listed out of order as plausible as the same data listed in order', async () => {
    const pak = await packWith('pak', files);
    const reversed = reversedDirectory(pak);
    const inOrder = await engineFor('pak').detect(new MemorySource(pak));
    const outOfOrder = await engineFor('pak').detect(new MemorySource(reversed));
    expect(inOrder.match && outOfOrder.match).toBe(true);
    expect(outOfOrder.confidence).toBe(inOrder.confidence);
    const archive = await open(reversed);
    expect(archive.entries[0]!.path).toBe('maps/m39.bsp');
    expect(text(await archive.read(archive.entries[0]!))).toBe('map 39 '.repeat(40));
  });

  it('reads entries asked for in any order, and refuses an entry of another archive', async () => {
    const pak = await packWith('pak', files);
    const archive = await open(pak);
    const order = [5, 6, 39, 0, 0, 17, 16, 38, 39];
    for (const i of order) expect(text(await archive.read(archive.entries[i]!)), `entry ${i}`).toBe(`map ${i} `.repeat(i + 1));
    const other = await open(pak);
    // Equal in every field, but not this archive's entry (the first one asked for, then one after a read).
    const foreign = async (i: number) => archive.read(other.entries[i]!).catch((err: unknown) => err);
    const fresh = await open(pak);
    const first = await fresh.read(other.entries[0]!).catch((err: unknown) => err);
    for (const err of [first, await foreign(0), await foreign(6)]) {
      expect(err).toBeInstanceOf(FormatError);
      expect((err as FormatError).code).toBe('not-found');
    }
  });

  it('warns of every name that only differs in case from an earlier one, in stored order, and of none otherwise', async () => {
    expect((await open(await packWith('pak', files))).warnings).toEqual([]);
    const clashing = [...files, file('MAPS/M3.BSP', 'upper'), file('readme.txt', 'r'), file('Maps/m0.bsp', 'mixed')];
    expect((await open(await packWith('pak', clashing))).warnings).toEqual([
      'MAPS/M3.BSP has the same name as maps/m3.bsp (lookups are case-insensitive): the first stored wins',
      'Maps/m0.bsp has the same name as maps/m0.bsp (lookups are case-insensitive): the first stored wins',
    ]);
  });
});
