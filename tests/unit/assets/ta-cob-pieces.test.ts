import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { samplesDir } from '../../helpers/run-cli.js';
import { readCob } from '../../../shared/assets/ta/cob/index.js';
import { checkPieces, modelPathFor } from '../../../shared/assets/ta/cob/pieces.js';

/** Object names of a 3DO, walked here from the format description: name offset at +28, sibling +44, child +48. */
function objectNames(bytes: Buffer): string[] {
  const names: string[] = [];
  const stack = [0];
  while (stack.length) {
    const at = stack.pop()!;
    const name = bytes.readUInt32LE(at + 28);
    names.push(bytes.toString('latin1', name, bytes.indexOf(0, name)));
    const sibling = bytes.readUInt32LE(at + 44);
    const child = bytes.readUInt32LE(at + 48);
    if (sibling) stack.push(sibling);
    if (child) stack.push(child);
  }
  return names;
}

describe('script pieces against the model', () => {
  it("ARMIMR's script names exactly the objects of ARMIMR.3do", () => {
    const cob = readCob(new Uint8Array(readFileSync(join(samplesDir, 'ta', 'armimr', 'scripts', 'ARMIMR.cob'))));
    const model = objectNames(readFileSync(join(samplesDir, 'ta', 'armimr', 'objects3d', 'ARMIMR.3do')));
    expect(checkPieces(cob.pieces, model)).toEqual({ missing: [], unused: [] });
  });

  it("DEMR's script animates 33 of the 43 objects of DEMR.3do and names none it lacks", () => {
    const cob = readCob(new Uint8Array(readFileSync(join(samplesDir, 'ta', 'scripts', 'DEMR.cob'))));
    const model = objectNames(readFileSync(join(samplesDir, 'ta', 'objects3d', 'DEMR.3do')));
    const check = checkPieces(cob.pieces, model);
    expect(check.missing).toEqual([]);
    expect(check.unused.length).toBe(model.length - cob.pieces.length);
    expect(check.unused).toContain('chassis');
  });

  it('ignores case and reports the script pieces a model lacks, in script order', () => {
    expect(checkPieces(['Base', 'turret', 'flare'], ['base', 'TURRET', 'barrel'])).toEqual({ missing: ['flare'], unused: ['barrel'] });
    expect(modelPathFor('scripts/ARMIMR.COB')).toBe('objects3d/ARMIMR.3do');
  });
});
