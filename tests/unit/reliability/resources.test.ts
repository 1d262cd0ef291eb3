import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { stat } from 'node:fs/promises';
import { modpakBin, modpakNodeFlags } from '../../helpers/run-cli.js';
import { hpiV1Amplifier, hpiV1ChunkBomb, hpiV2DirectoryBomb, withTrailer } from './hostile.js';
import { put, withScratch } from './build.js';
import { mkdir } from 'node:fs/promises';

/**
 * The amplifier and bomb cases run through the real CLI in a child process under a 512 MB heap limit;
 * the child reports its peak resident memory as it exits. Each must answer (not be killed by the safety
 * timeout) and stay under 512 MB of RSS in all (heap and buffers).
 */
const LIMIT_MB = 512;
const REPORT = "data:text/javascript,process.on('exit',()=>process.stderr.write('maxrss-kb='+process.resourceUsage().maxRSS+'\\n'))";

interface Run {
  code: number | null;
  stdoutBytes: number;
  /** The first 64 KB of stdout. */
  stdout: string;
  stderr: string;
  peakMb: number;
}

function runLimited(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      // The flags of bin/modpak's shebang (as users run it), and the heap limit.
      [`--max-old-space-size=${LIMIT_MB}`, ...modpakNodeFlags(), '--import', REPORT, modpakBin, ...args],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdoutBytes = 0;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdoutBytes += c.length;
      if (stdout.length < 65536) stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const kb = Number(/maxrss-kb=(\d+)/.exec(stderr)?.[1] ?? NaN);
      resolve({ code, stdoutBytes, stdout, stderr: stderr.replace(/maxrss-kb=\d+\n/, ''), peakMb: kb / 1024 });
    });
  });
}

const CHUNKS = 4096; // 256 MiB of zeros from about 400 KB of chunks

describe('resource limits: hostile archives under a 512 MB limit (items 1, 2)', () => {
  it('the v1 directory amplifier is refused by every command, quickly and in little memory', async () => {
    await withScratch(async (dir) => {
      const amp = await put(join(dir, 'amp.ufo'), withTrailer(hpiV1Amplifier(10_000, 10_000)));
      expect((await stat(amp)).size).toBeLessThan(300_000);
      for (const args of [
        ['list', amp],
        ['verify', amp],
        ['extract', amp, '-t', join(dir, 'out')],
        ['mount', 'archives', dir, '--game', 'ta'],
      ]) {
        const run = await runLimited(args);
        expect(run.peakMb, args.join(' ')).toBeLessThan(LIMIT_MB);
        if (args[0] === 'mount') {
          expect(run.code, run.stderr).toBe(0);
        } else {
          expect(run.code, run.stderr).toBe(1);
          expect(run.stderr.trim().split('\n')).toHaveLength(1);
          expect(run.stderr).toMatch(/shares its entry list/);
        }
      }
    });
  }, 300_000);

  it('a v1 entry of 256 MiB decoded from 400 KB is streamed by cat, verify and extract', async () => {
    await withScratch(async (dir) => {
      const bomb = await put(join(dir, 'bomb.hpi'), hpiV1ChunkBomb(CHUNKS));
      expect((await stat(bomb)).size).toBeLessThan(1_000_000);
      const cat = await runLimited(['cat', bomb, 'bomb.bin']);
      expect(cat.code, cat.stderr).toBe(0);
      expect(cat.stdoutBytes).toBe(CHUNKS * 65536);
      const verify = await runLimited(['verify', bomb]);
      expect(verify.code, verify.stderr).toBe(0);
      await mkdir(join(dir, 'out'));
      const extract = await runLimited(['extract', bomb, '-t', join(dir, 'out')]);
      expect(extract.code, extract.stderr).toBe(0);
      expect((await stat(join(dir, 'out', 'bomb.bin'))).size).toBe(CHUNKS * 65536);
      for (const run of [cat, verify, extract]) expect(run.peakMb).toBeLessThan(LIMIT_MB / 2);
    });
  }, 300_000);

  it('the same entry in a mounted install is streamed by mount flatten (the mount-side extract)', async () => {
    await withScratch(async (dir) => {
      const root = join(dir, 'TA');
      await mkdir(root);
      await put(join(root, 'bomb.ufo'), withTrailer(hpiV1ChunkBomb(CHUNKS)));
      const out = join(dir, 'flat');
      const flatten = await runLimited(['mount', 'flatten', root, out, '--game', 'ta']);
      expect(flatten.code, flatten.stderr).toBe(0);
      expect((await stat(join(out, 'bomb.bin'))).size).toBe(CHUNKS * 65536);
      expect(flatten.peakMb).toBeLessThan(LIMIT_MB / 2);
    });
  }, 300_000);

  it('an HPI v2 directory block that inflates past what records can need is refused before inflating', async () => {
    await withScratch(async (dir) => {
      const bomb = await put(join(dir, 'dir-bomb.hpi'), hpiV2DirectoryBomb(64 << 20));
      for (const args of [
        ['info', bomb],
        ['list', bomb],
      ]) {
        const run = await runLimited(args);
        expect(run.code, run.stderr).toBe(1);
        expect(run.stderr).toMatch(
          /directory block at 32 declares 67108864 bytes once decoded, more than its records can need \(at most 25165824\)/,
        );
        expect(run.peakMb).toBeLessThan(LIMIT_MB / 2);
      }
      // Mounted in an install, the archive is ignored with that reason and the mount goes on.
      const mount = await runLimited(['mount', 'archives', dir, '--game', 'tak', '--json']);
      expect(mount.code, mount.stderr).toBe(0);
      expect(mount.peakMb).toBeLessThan(LIMIT_MB / 2);
      expect(mount.stdout).toMatch(/dir-bomb\.hpi/);
      expect(mount.stdout).toMatch(/more than its records can need/);
    });
  }, 300_000);
});
