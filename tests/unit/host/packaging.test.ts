import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { buildStudio } from '../../../electron/main/bundle.js';

/**
 * `npm run dist` without the Electron download: build out/, then let electron-builder lay out the Linux
 * app around a stand-in Electron folder (`--linux dir`, offline). The app must hold exactly the bundles,
 * the renderer and package.json, and no node_modules. (AppImage, deb, NSIS and dmg need the real binary.)
 */
const repo = join(import.meta.dirname, '..', '..', '..');
/** Where Electron's fuse wire starts in its binary (what @electron/fuses looks for). */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('packaging', () => {
  it('electron-builder packs only out/ and package.json into the app', async () => {
    await buildStudio(repo);
    const standIn = await mkdtemp(join(tmpdir(), 'modpak-electron-dist-'));
    // A stand-in binary carrying Electron's fuse wire (sentinel, version 1, 8 fuses as Electron 45 ships
    // them: RunAsNode, NODE_OPTIONS, --inspect and file:// privileges on), so the fuses are flipped in it.
    await writeFile(join(standIn, 'electron'), `#!/bin/sh\nexit 0\n# ${FUSE_SENTINEL}\x01\x0810110001\n`, 'latin1');
    await chmod(join(standIn, 'electron'), 0o755);
    await writeFile(join(standIn, 'LICENSE'), '');
    await writeFile(join(standIn, 'version'), '45.5.0');
    const output = await mkdtemp(join(tmpdir(), 'modpak-dist-'));
    const builder = join(repo, 'node_modules', '.bin', 'electron-builder');
    const result = await run(builder, [
      '--config',
      'electron-builder.yml',
      '--linux',
      'dir',
      `-c.electronDist=${standIn}`,
      '-c.electronVersion=45.5.0',
      `-c.directories.output=${output}`,
    ]);
    expect(result.code, result.output).toBe(0);

    const app = join(output, 'linux-unpacked');
    expect((await stat(join(app, 'modpak-studio'))).isFile()).toBe(true);
    const asarPath = join(app, 'resources', 'app.asar');
    const asar = createRequire(import.meta.url)('@electron/asar') as { listPackage(path: string): string[] };
    const files = asar.listPackage(asarPath).map((p) => p.replace(/\\/g, '/'));
    expect(files).toEqual(
      expect.arrayContaining(['/package.json', '/out/main/index.cjs', '/out/preload/index.cjs', '/out/renderer/index.html']),
    );
    // The worker threads' own bundles: without them a packaged app would extract and pack on one core.
    expect(files).toEqual(expect.arrayContaining(['/out/main/extract-worker.mjs', '/out/main/compress-worker.mjs']));
    expect(files.filter((f) => f.startsWith('/node_modules'))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.every((f) => f === '/package.json' || f.startsWith('/out'))).toBe(true);
    // Not the command line's bundle, nor the code caches its runs on this machine left beside it.
    expect(files.filter((f) => f.startsWith('/out/cli'))).toEqual([]);
    expect((await stat(asarPath)).size).toBeLessThan(8 << 20);

    // The fuses of electron-builder.yml, read back from the packaged binary (a fuse removed from the config stays on).
    const fuses = createRequire(import.meta.url)('@electron/fuses') as {
      getCurrentFuseWire(path: string): Promise<Record<number, number>>;
    };
    const wire = await fuses.getCurrentFuseWire(join(app, 'modpak-studio'));
    const on = (i: number) => wire[i] === 0x31;
    expect({
      runAsNode: on(0),
      cookieEncryption: on(1),
      nodeOptions: on(2),
      inspectArguments: on(3),
      asarIntegrity: on(4),
      onlyAsar: on(5),
    }).toEqual({
      runAsNode: false,
      cookieEncryption: true,
      nodeOptions: false,
      inspectArguments: false,
      asarIntegrity: true,
      onlyAsar: true,
    });
  }, 120_000);
});
