import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { modpakBin, runBin, runCli } from '../../helpers/run-cli.js';

/** `modpak serve` and `modpak studio` as a user runs them. */
describe('modpak serve', () => {
  it('prints the URL with its token, answers on it, and stops cleanly on SIGTERM', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'modpak-serve-'));
    const install = join(scratch, 'install');
    await (await import('node:fs/promises')).mkdir(install);
    const child = spawn(process.execPath, [modpakBin, 'serve', install, '--port', '0', '--state', join(scratch, 'state')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{40,})$/m.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const { origin, searchParams } = new URL(url);
    const res = await fetch(`${origin}/api/call/app.info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-modpak-token': searchParams.get('token')! },
      body: '{}',
    });
    expect(await res.json()).toMatchObject({ ok: true, result: { host: 'web', initialRoot: install, demo: false } });
    const exit = new Promise<number | null>((r) => child.on('exit', r));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('a ROOT that is not a folder is one line and exit 1', async () => {
    const run = await runCli(['serve', join(tmpdir(), 'no-such-install-here')]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^modpak: .*no-such-install-here: no such file or folder/);
  });

  it('a port in use is one line and exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = await runCli(['serve', tmpdir(), '--port', String(port)]);
      expect(run.code).toBe(1);
      expect(run.stderr.trim()).toBe(`modpak: port ${port} is in use`);
    } finally {
      blocker.close();
    }
  });
});

describe('modpak studio / npm start where Electron is missing', () => {
  it('prints one line naming npm run web and exits non-zero', async () => {
    const run = await runBin(['studio']);
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^modpak: the Electron binary is missing.*npm run web/);
  });
});
