import { describe, expect, it } from 'vitest';
import { mutations } from '../../helpers/fuzz.js';
import { diffOverride } from '../../../electron/mods/diff.js';
import { ARMCOM_FBI, WEAPONS_TDF } from './fixture.js';

/**
 * The diff takes whatever a modder saved: broken braces, binary garbage under a .FBI name, truncations.
 * Every mutant must give a well-formed result (never an exception), and the section/key diff of a file
 * against itself is always empty.
 */
describe('diffOverride on damaged text', () => {
  it('answers every mutant of an FBI and a TDF with a well-formed diff', () => {
    let cases = 0;
    for (const [path, text] of [
      ['units/ARMCOM.FBI', ARMCOM_FBI],
      ['weapons/WEAPONS.TDF', WEAPONS_TDF],
    ] as const) {
      const original = new Uint8Array(Buffer.from(text, 'latin1'));
      for (const m of mutations(original, 300, 7)) {
        const d = diffOverride(path, { archive: 'totala1.hpi', entry: path, bytes: original }, m.bytes);
        expect(['same', 'modified'], m.label).toContain(d.status);
        if (d.status === 'modified') {
          expect(d.diff?.kind, m.label).toBe('text');
          if (d.diff?.kind === 'text') {
            expect(d.diff.unified.startsWith(`--- a/${path}`), m.label).toBe(true);
            expect(Array.isArray(d.diff.tdf), m.label).toBe(true);
          }
        }
        const self = diffOverride(path, { archive: null, entry: path, bytes: m.bytes }, m.bytes);
        expect(self.status, m.label).toBe('same');
        cases++;
      }
    }
    expect(cases).toBe(600);
  });
});
