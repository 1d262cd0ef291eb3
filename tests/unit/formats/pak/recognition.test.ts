import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySource } from '../../../../electron/io/byte-source.js';
import { detectFormat, engineFor, openArchiveSource } from '../../../../electron/formats/index.js';
import { formatEngines } from '../../../../electron/formats/registry.js';
import { FormatError } from '../../../../shared/errors.js';
import { PACK_LAYOUTS } from '../../../../electron/formats/pak/layout.js';
import { runCli } from '../../../helpers/run-cli.js';
import { Craft, assemble, file, packWith } from './craft.js';

async function detect(bytes: Uint8Array) {
  return detectFormat(new MemorySource(bytes, 'crafted.pak'));
}

async function openError(bytes: Uint8Array): Promise<FormatError> {
  try {
    await openArchiveSource(new MemorySource(bytes, 'crafted.pak'));
  } catch (err) {
    if (err instanceof FormatError) return err;
    throw err;
  }
  throw new Error('expected a FormatError');
}

/** 576 bytes: 9 Quake entries over the same bytes as 8 Daikatana entries, only Daikatana's data tiling the file. */
function daikatanaTiles(): Uint8Array {
  const c = new Craft(576);
  // D0's compressedLength (40 = '(') is Q1's name; D1's offset (52 = '4') is Q2's name.
  c.daikatana(0, 'd0', 12, 40, 40, 0).daikatana(1, 'd1', 52, 20, 20, 0).daikatana(2, 'd2', 72, 30, 30, 0);
  c.daikatana(3, 'd3', 102, 30, 30, 0).daikatana(4, 'd4', 132, 20, 20, 0).daikatana(5, 'd5', 152, 20, 20, 0);
  // D7's name is Q7's offset (97 = 'a'); D7's compressedLength and flag are Q8's offset and length.
  c.daikatana(6, 'd6', 172, 20, 20, 0).daikatana(7, 'a', 192, 20, 20, 0);
  c.quake(0, 'd0', 12, 40).quake(1, '(', 12, 40).quake(2, '4', 12, 40);
  for (let k = 3; k <= 6; k++) c.quake(k, `q${k}`, 12, 40);
  c.quake(7, 'q7', 97, 5).quake(8, 'q8', 20, 0);
  return assemble(c.dir, 200);
}

/** The same trick the other way round: the 9 Quake entries tile the data, the 8 Daikatana ones cover a quarter. */
function quakeTiles(): Uint8Array {
  const c = new Craft(576);
  c.quake(0, 'q0', 12, 40).quake(7, 'q7', 52, 10).quake(1, '(', 62, 30).quake(2, 'A', 92, 30);
  c.quake(3, 'q3', 122, 30).quake(4, 'q4', 152, 30).quake(5, 'q5', 182, 20).quake(6, 'q6', 202, 10).quake(8, 'q8', 100, 0);
  c.daikatana(0, 'q0', 12, 40, 40, 0).daikatana(1, 'd1', 65, 10, 10, 0);
  for (let j = 2; j <= 6; j++) c.daikatana(j, `d${j}`, 12, 40, 40, 0);
  c.daikatana(7, '4', 12, 40, 100, 0);
  return assemble(c.dir, 200);
}

describe('PACK layout recognition', () => {
  it('the registry lists the PACK engines in the family order the preference rule relies on', () => {
    const ids = formatEngines.map((e) => e.id).filter((id) => PACK_LAYOUTS.some((l) => l.id === id));
    expect(ids).toEqual(PACK_LAYOUTS.map((l) => l.id));
  });

  it('recognises each layout written by its own writer, with nothing else fitting', async () => {
    const files = [file('maps/e1m1.bsp', 'x'.repeat(300)), file('gfx/palette.lmp', 'palette'), file('readme.txt', 'hi')];
    for (const format of ['pak', 'sin', 'daikatana'] as const) {
      const result = await detect(await packWith(format, files));
      expect(result.engine.id, format).toBe(format);
      expect(result.alternatives, format).toEqual([]);
      expect(result.note).toBeUndefined();
    }
    // Long SiN names (past Quake's 56-byte field) still read as SiN only.
    const long = await packWith('sin', [file(`sound/${'v'.repeat(100)}.wav`, 'data'), file('b.txt', 'b')]);
    expect((await detect(long)).engine.id).toBe('sin');
  });

  it('an even number of Quake entries also fits SiN: Quake is chosen (its data covers the file), SiN reported', async () => {
    const bytes = await packWith('pak', [file('a.txt', 'aaaa'), file('b.txt', 'bbbbbbbb')]);
    const result = await detect(bytes);
    expect(result.engine.id).toBe('pak');
    expect(result.alternatives).toEqual(['sin']);
    expect(result.note).toMatch(
      /fits Quake PAK \(2 × 64-byte entries, data covering 100% .* and SiN PAK \(1 × 128-byte entries, data covering 67% .*read as Quake PAK, the most plausible/,
    );
  });

  it('a 576-byte directory that reads as 9 Quake and 8 Daikatana entries goes to the layout whose data tiles the file', async () => {
    const dkBytes = daikatanaTiles();
    const dk = await detect(dkBytes);
    expect(dk.engine.id).toBe('daikatana');
    // Quake fits too, less plausibly: it is chosen by confidence, not registry order, and listed as the alternative.
    expect(dk.alternatives).toEqual(['pak']);
    expect(dk.note).toMatch(
      /fits Quake PAK \(9 × 64-byte entries, data covering 23% .* and Daikatana PAK \(8 × 72-byte entries, data covering 100% .*read as Daikatana PAK, the most plausible/,
    );
    const quakeGuess = await engineFor('pak').detect(new MemorySource(dkBytes));
    const daikatanaGuess = await engineFor('daikatana').detect(new MemorySource(dkBytes));
    expect(quakeGuess.match).toBe(true);
    expect(daikatanaGuess.confidence!).toBeGreaterThan(quakeGuess.confidence!);
    const asDk = await openArchiveSource(new MemorySource(dkBytes));
    expect(asDk.entries.map((e) => `${e.path}:${e.size}`)).toEqual(['d0:40', 'd1:20', 'd2:30', 'd3:30', 'd4:20', 'd5:20', 'd6:20', 'a:20']);
    // The other reading is still there for whoever asks for it explicitly.
    const asQuake = await engineFor('pak').open(new MemorySource(dkBytes));
    expect(asQuake.entries.map((e) => e.path)).toEqual(['d0', '(', '4', 'q3', 'q4', 'q5', 'q6', 'q7', 'q8']);

    const qBytes = quakeTiles();
    const q = await detect(qBytes);
    expect(q.engine.id).toBe('pak');
    expect(q.alternatives).toEqual(['daikatana']);
    expect(q.note).toMatch(
      /fits Quake PAK \(9 × 64-byte entries, data covering 100% .* and Daikatana PAK \(8 × 72-byte entries, data covering 25% .*read as Quake PAK, the most plausible/,
    );
  });

  it('info reports the ambiguity: format, alsoMatches and the note', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'modpak-rec-'));
    try {
      await writeFile(join(dir, 'q.pak'), quakeTiles());
      await writeFile(join(dir, 'd.pak'), daikatanaTiles());
      const q = JSON.parse((await runCli(['info', join(dir, 'q.pak'), '--json'])).stdout);
      expect(q).toMatchObject({ format: 'pak', files: 9, dirs: 0, bytes: 200, alsoMatches: ['daikatana'] });
      expect(q.note).toMatch(/^ambiguous PACK layout/);
      const d = JSON.parse((await runCli(['info', join(dir, 'd.pak'), '--json'])).stdout);
      expect(d).toMatchObject({ format: 'daikatana', files: 8, dirs: 0, bytes: 200 });
      expect(d.alsoMatches).toEqual(['pak']);
      expect(d.note).toMatch(/read as Daikatana PAK/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('an empty directory fits all three equally: the first in registry order wins, the others are listed', async () => {
    const result = await detect(assemble(new Uint8Array(0), 0));
    expect(result.engine.id).toBe('pak');
    expect(result.alternatives).toEqual(['sin', 'daikatana']);
    expect(result.note).toMatch(/read as Quake PAK, the first in registry order/);
  });

  it('rejects layouts whose fields do not fit, and says why when no layout fits a PACK file', async () => {
    // Daikatana flag other than 0/1.
    const flag = new Craft(72).daikatana(0, 'a.pcx', 12, 4, 4, 2);
    expect((await openError(assemble(flag.dir, 4))).message).toBe('not a valid Daikatana PAK: entry 0: compressed flag is 2, not 0 or 1');
    // A declared length the codec could not reach from its packed bytes.
    const ratio = new Craft(72).daikatana(0, 'a.pcx', 12, 66 * 4, 4, 1);
    expect((await openError(assemble(ratio.dir, 4))).message).toMatch(/length 264 cannot come from 4 compressed bytes \(at most 65×\)/);
    // Data past the end; a name without its NUL; a control character; an empty name.
    expect((await openError(assemble(new Craft(64).quake(0, 'a', 12, 100).dir, 4))).message).toBe(
      'not a valid Quake PAK: entry 0: data 12 + 100 lies outside the file (80 bytes)',
    );
    const noNul = new Craft(64).put(0, new Uint8Array(56).fill(0x41), 'name');
    expect((await openError(assemble(noNul.dir, 0))).message).toBe(
      'not a valid Quake PAK: entry 0: name is not NUL-terminated within its 56 bytes',
    );
    expect((await openError(assemble(new Craft(64).quake(0, 'a\tb', 12, 0).dir, 0))).message).toMatch(
      /entry 0: name has control character 0x09 at byte 1/,
    );
    expect((await openError(assemble(new Craft(64).quake(0, '', 12, 0).dir, 0))).message).toMatch(/entry 0: name is empty/);
    // A length no entry size divides; a directory inside the header; a header cut off.
    expect((await openError(assemble(new Uint8Array(100), 0))).message).toBe(
      'not a valid Quake PAK: directory length 100 is not a multiple of the 64-byte Quake PAK entry',
    );
    const inHeader = assemble(new Uint8Array(64), 0);
    new DataView(inHeader.buffer).setInt32(4, 4, true);
    expect((await openError(inHeader)).message).toBe('Quake PAK: PACK directory at 4 overlaps the 12-byte header');
    expect((await openError(Uint8Array.from([0x50, 0x41, 0x43, 0x4b, 1, 2]))).message).toBe(
      'Quake PAK: PACK header cut off: the file has 6 of its 12 bytes',
    );
    // Not a PACK at all.
    expect((await openError(new TextEncoder().encode('PKZIP and more'))).code).toBe('unknown-format');
  });
});
