import { describe, expect, it } from 'vitest';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { escapeControls } from '../../../shared/escape.js';
import { runCli } from '../../helpers/run-cli.js';
import { put, withScratch } from './build.js';
import { hpiV1Files, withTrailer } from './hostile.js';

/** Any C0 control but tab, DEL and the C1 controls: what must never reach a terminal raw. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('control characters in names are shown escaped (item 5)', () => {
  it('escapeControls', () => {
    expect(escapeControls('a\nmodpak: fake\x1b[31m\x07\x9b\r\0\tb')).toBe('a\\nmodpak: fake\\x1b[31m\\x07\\x9b\\r\\0\tb');
    expect(escapeControls('units/ARMCOM.FBI é')).toBe('units/ARMCOM.FBI é');
  });

  it('list, mount ls, mount resolve, warnings and errors print names escaped, one line each', async () => {
    await withScratch(async (dir) => {
      const root = join(dir, 'ta');
      await mkdir(root);
      const names = ['maps/a\nmodpak: x.pak: fake', 'sound/\x1b[31mred\x1b]0;title\x07.wav', '../up\nx.txt'];
      const pak = await put(join(root, 'pak0.ufo'), withTrailer(hpiV1Files(names)));
      const runs = [
        await runCli(['list', pak]),
        await runCli(['list', pak, '-v']),
        await runCli(['mount', 'ls', root, '--game', 'ta']),
        await runCli(['mount', 'resolve', root, 'maps/a\nmodpak: x.pak: fake', '--game', 'ta']),
        await runCli(['extract', pak, '-t', join(dir, 'out')]),
        await runCli(['cat', pak, 'no\nmodpak: such']),
      ];
      for (const run of runs) {
        expect(RAW_CONTROL.test(run.stdout), run.stdout).toBe(false);
        expect(RAW_CONTROL.test(run.stderr), run.stderr).toBe(false);
        for (const line of run.stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^(modpak: |extracted )/);
      }
      expect(runs[0]!.stdout.split('\n').filter(Boolean)).toEqual([
        'maps/a\\nmodpak: x.pak: fake',
        'sound/\\x1b[31mred\\x1b]0;title\\x07.wav',
        '../up\\nx.txt',
      ]);
      expect(runs[2]!.stdout).toContain('maps/a\\nmodpak: x.pak: fake');
      expect(runs[3]!.stdout).toMatch(/winner: .*pak0\.ufo/);
      expect(runs[4]!.stderr).toContain('refused to extract "../up\\nx.txt"');
      expect(runs[5]!.code).toBe(1);
      expect(runs[5]!.stderr).toMatch(/^modpak: .*pak0\.ufo: no file no\\nmodpak: such in the archive\n$/);
    });
  });
});
