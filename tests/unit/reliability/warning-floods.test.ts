import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { warningKind } from '../../../electron/cli/warnings.js';
import { runCli } from '../../helpers/run-cli.js';
import { put, withScratch } from './build.js';

/**
 * Archives that trip one check on every entry (item 14), built here from the format descriptions.
 * HPI v2 as kbot-io writes it: every entry's checksum 0. Raw blocks: Dir2 root {0, 0, 0, 20, N}, then N
 * File2 {namePtr, start, size, compressedSize 0, date 0, checksum 0}.
 * Daikatana as pakka writes it: 72-byte entries {name[56], offset, length, compressedLength, compressed},
 * stored entries with compressedLength 0 instead of their length.
 */
function v2ZeroChecksums(count: number): Uint8Array {
  const data = Buffer.alloc(count, 0x41);
  const names = Buffer.concat([Buffer.from([0]), ...Array.from({ length: count }, (_, i) => Buffer.from(`f${i}.txt\0`))]);
  const dir = Buffer.alloc(20 + count * 24);
  dir.writeInt32LE(20, 12);
  dir.writeInt32LE(count, 16);
  let namePtr = 1;
  for (let i = 0; i < count; i++) {
    const rec = 20 + i * 24;
    dir.writeInt32LE(namePtr, rec);
    namePtr += `f${i}.txt`.length + 1;
    dir.writeUInt32LE(32 + i, rec + 4);
    dir.writeUInt32LE(1, rec + 8);
  }
  const header = Buffer.alloc(32);
  header.write('HAPI', 0, 'latin1');
  header.writeUInt32LE(0x00020000, 4);
  header.writeUInt32LE(32 + data.length + names.length, 8);
  header.writeUInt32LE(dir.length, 12);
  header.writeUInt32LE(32 + data.length, 16);
  header.writeUInt32LE(names.length, 20);
  header.writeUInt32LE(32, 24);
  return new Uint8Array(Buffer.concat([header, data, names, dir]));
}

function daikatanaPakka(count: number): Uint8Array {
  const data = Buffer.alloc(count * 4, 0x42);
  const dir = Buffer.alloc(count * 72);
  for (let i = 0; i < count; i++) {
    const at = i * 72;
    dir.write(`pics/p${i}.txt`, at, 'latin1');
    dir.writeInt32LE(12 + i * 4, at + 56);
    dir.writeInt32LE(4, at + 60);
    dir.writeInt32LE(0, at + 64);
    dir.writeInt32LE(0, at + 68);
  }
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeInt32LE(12 + data.length, 4);
  header.writeInt32LE(dir.length, 8);
  return new Uint8Array(Buffer.concat([header, data, dir]));
}

const warningLines = (text: string) => text.split('\n').filter((l) => /^(modpak: )?warning/.test(l));

describe('warning floods (item 14)', () => {
  it('a kind of warning is one line with a count; -v lists each', async () => {
    await withScratch(async (dir) => {
      const v2 = await put(join(dir, 'kbot.hpi'), v2ZeroChecksums(300));
      const quiet = await runCli(['verify', v2]);
      expect(quiet.code, quiet.stderr).toBe(0);
      expect(warningLines(quiet.stdout)).toEqual([
        expect.stringMatching(
          /^warning: f0\.txt: entry checksum 0x0 does not match the data's 0x[0-9a-f]+ \(and 299 more like it; -v lists them\)$/,
        ),
      ]);
      expect(warningLines((await runCli(['verify', v2, '-v'])).stdout)).toHaveLength(300);
      const extract = await runCli(['extract', v2, '-t', join(dir, 'out')]);
      expect(warningLines(extract.stderr)).toEqual([
        expect.stringMatching(/^modpak: warning: f\d+\.txt: entry checksum 0x0 does not match .* \(and 299 more like it; -v lists them\)$/),
      ]);
      expect(warningLines((await runCli(['extract', v2, '-t', join(dir, 'out2'), '-v'])).stderr)).toHaveLength(300);

      const dk = await put(join(dir, 'pakka.pak'), daikatanaPakka(375));
      const info = await runCli(['info', dk]);
      expect(info.stdout.split('\n').filter((l) => l.startsWith('warning '))).toEqual([
        expect.stringMatching(/\(and 374 more like it; -v lists them\)$/),
      ]);
      expect(info.stdout.split('\n').filter((l) => l.startsWith('warning '))).toHaveLength(1);
      expect((await runCli(['info', dk, '-v'])).stdout.split('\n').filter((l) => l.startsWith('warning '))).toHaveLength(375);
      const verify = await runCli(['verify', dk]);
      expect(warningLines(verify.stdout)).toHaveLength(1);
    });
  });

  it('kinds: the path, quoted names and numbers vary, the words do not', () => {
    expect(warningKind("units/a.fbi: SQSH chunk at 149: checksum 0xa85 does not match the payload's 0xefd")).toBe(
      warningKind("b.wav: SQSH chunk at 9: checksum 0x1 does not match the payload's 0x2"),
    );
    expect(warningKind('refused to extract "a/b": a file and a folder share this name')).toBe(
      warningKind('refused to extract "c": a file and a folder share this name'),
    );
    expect(warningKind('x: entry checksum 0x0 does not match')).not.toBe(warningKind('x: 3 bytes after the last chunk'));
  });
});
