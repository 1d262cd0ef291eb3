import { describe, expect, it } from 'vitest';
import { exampleTntSpec, writeOta, writeTnt } from '../../../../electron/demo/tnt-map.js';
import { readOta } from '../../../../electron/tdf/ota.js';
import { FormatError } from '../../../../shared/errors.js';
import type { Palette } from '../../../../shared/assets/image.js';
import { decodeTnt } from '../../../../shared/assets/ta/tnt.js';
import { drawTntMarkers, renderTnt } from '../../../../shared/assets/ta/tnt-render.js';
import { tntView } from '../../../../shared/assets/ta/tnt-view.js';
import { mutations, withAllocationLimit } from '../../../helpers/fuzz.js';

const palette: Palette = { name: 'grey', rgba: new Uint8Array(1024).map((_, k) => ((k & 3) === 3 ? 255 : k >> 2)) };

/**
 * Mutated maps decode, render (at 1 and 1/3), take markers and make a view, or fail with a FormatError;
 * never another exception, a hang, or an allocation the file cannot justify. A render is 4096 bytes of
 * RGBA per tile and each tile needs 16 bytes of attribute cells in the file, so no honest allocation
 * exceeds 256 × the file (plus 16 MiB of slack for the view's buffers).
 */
function exercise(bytes: Uint8Array): void {
  const map = decodeTnt(bytes, 'fuzz.tnt');
  const image = renderTnt(map, palette);
  drawTntMarkers(image, map, {
    features: true,
    startPositions: [
      { player: 1, x: 10, z: 10 },
      { player: 12, x: -5, z: 1e9 },
    ],
  });
  renderTnt(map, palette, 1 / 3);
  tntView(map, palette);
}

async function fuzz(original: Uint8Array, count: number, seed: number): Promise<{ ok: number; rejected: number }> {
  const limit = 16 * 1024 * 1024 + 256 * original.length;
  const outcome = { ok: 0, rejected: 0 };
  for (const m of mutations(original, count, seed)) {
    const started = Date.now();
    try {
      await withAllocationLimit(limit, async () => exercise(m.bytes));
      outcome.ok++;
    } catch (err) {
      if (!(err instanceof FormatError))
        throw new Error(`fuzz case ${m.label}: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`, { cause: err });
      outcome.rejected++;
    }
    expect(Date.now() - started, `fuzz case ${m.label}`).toBeLessThan(2000);
  }
  return outcome;
}

describe('TNT fuzz', () => {
  it('a small map with a small stored minimap survives 600 mutations', async () => {
    const spec = exampleTntSpec(4, 3, { tileCount: 5 });
    const bytes = writeTnt({ ...spec, minimap: { ...spec.minimap!, storedWidth: 8, storedHeight: 6 } });
    const outcome = await fuzz(bytes, 600, 7);
    expect(outcome.ok).toBeGreaterThan(50);
    expect(outcome.rejected).toBeGreaterThan(50);
  });

  it('a map with its sections reversed and a 252 × 252 minimap survives 300 mutations', async () => {
    const bytes = writeTnt({ ...exampleTntSpec(6, 6, { tileCount: 3 }), order: 'reversed' });
    const outcome = await fuzz(bytes, 300, 11);
    expect(outcome.ok + outcome.rejected).toBe(300);
  });

  it('.ota reading never throws on mutated text', () => {
    const original = writeOta('Fuzz', [
      { x: 1, z: 2 },
      { x: 3, z: 4 },
    ]);
    for (const m of mutations(original, 300, 5)) {
      const info = readOta(m.bytes);
      expect(Array.isArray(info.startPositions), m.label).toBe(true);
    }
  });
});
