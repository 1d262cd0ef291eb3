import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { samplesDir } from '../../../helpers/run-cli.js';
import { builtInTaPalette } from '../../../../shared/assets/ta/palette.js';
import { decodePal, palDecoder, paletteSwatch } from '../../../../shared/assets/ta/pal.js';
import { FormatError } from '../../../../shared/errors.js';
import { assetDecoderFor } from '../../../../shared/assets/registry.js';
import { mutations } from '../../../helpers/fuzz.js';

const palFile = new Uint8Array(readFileSync(join(samplesDir, 'ta/palettes/PALETTE.PAL')));

describe('TA palette', () => {
  it('the built-in palette is PALETTE.PAL byte for byte (R, G, B, then the unused 0)', () => {
    const builtIn = builtInTaPalette();
    const asFile = new Uint8Array(1024);
    for (let i = 0; i < 256; i++) asFile.set(builtIn.rgba.subarray(i * 4, i * 4 + 3), i * 4);
    expect(palFile.length).toBe(1024);
    expect(Buffer.from(asFile).equals(Buffer.from(palFile))).toBe(true);
    expect(builtIn.name).toBe('built-in TA palette');
  });

  it('decodes 256 × R, G, B, unused into opaque RGBA', () => {
    const { palette, nonZeroUnused, trailing } = decodePal(palFile, 'PALETTE.PAL');
    expect(nonZeroUnused).toBe(0);
    expect(trailing).toBe(0);
    for (const i of [0, 9, 100, 255]) {
      expect([...palette.rgba.subarray(i * 4, i * 4 + 4)]).toEqual([palFile[i * 4], palFile[i * 4 + 1], palFile[i * 4 + 2], 255]);
    }
  });

  it('a short file is a FormatError naming both sizes', () => {
    expect(() => decodePal(palFile.subarray(0, 1000), 'x.pal')).toThrow(/1024 bytes .*found 1000/);
    expect(() => decodePal(palFile.subarray(0, 1000))).toThrow(FormatError);
  });

  it('the swatch puts index i at row i / 16, column i % 16', () => {
    const { palette } = decodePal(palFile);
    const swatch = paletteSwatch(palette, 4);
    expect([swatch.width, swatch.height]).toEqual([64, 64]);
    for (const i of [0, 17, 200, 255]) {
      const x = (i % 16) * 4 + 3;
      const y = Math.floor(i / 16) * 4 + 1;
      const at = (y * 64 + x) * 4;
      expect([...swatch.rgba.subarray(at, at + 4)]).toEqual([palFile[i * 4], palFile[i * 4 + 1], palFile[i * 4 + 2], 255]);
    }
  });

  it('is the asset decoder for .pal files, with a 16 × 16 swatch view and facts', async () => {
    expect(assetDecoderFor('palettes/PALETTE.PAL', palFile.subarray(0, 64))?.id).toBe('pal');
    expect(assetDecoderFor('x.pal', new TextEncoder().encode('RIFF....PAL data'))).toBeNull();
    const view = await palDecoder.view('PALETTE.PAL', palFile, null as never);
    if (view.kind !== 'images') throw new Error(view.kind);
    expect(view.groups[0]!.frames[0]!.image.width).toBe(16);
    expect(view.facts.find((f) => f.label === 'Unused bytes')?.value).toBe('all 0');
  });

  it('fuzz: every mutant decodes or fails with a FormatError', () => {
    for (const m of mutations(palFile, 100, 7)) {
      try {
        decodePal(m.bytes);
      } catch (err) {
        expect(err, m.label).toBeInstanceOf(FormatError);
      }
    }
  });
});
