import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `modpak serve` as a user starts it: the real bin/modpak in a child process, on a free port, with the
 * demo install generated into a fresh cache folder (no ROOT) or a given ROOT. Stopped by its own pid.
 */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface ServeProcess {
  url: string;
  origin: string;
  port: number;
  token: string;
  /** The temporary folder holding the cache (demo), the state (recent installs), the server's home (`home/`) and test scratch. */
  scratch: string;
  call<T = unknown>(name: string, request: unknown): Promise<T>;
  stop(): Promise<void>;
}

export async function startServe(options: { root?: string; args?: string[] } = {}): Promise<ServeProcess> {
  const scratch = await mkdtemp(join(tmpdir(), 'modpak-e2e-'));
  const args = [join(repoRoot, 'bin', 'modpak'), 'serve', ...(options.root ? [options.root] : []), '--port', '0', '--state', join(scratch, 'state'), ...(options.args ?? [])];
  // A home of its own (with Downloads), so the folder browser and extraction defaults stay in the scratch folder.
  await mkdir(join(scratch, 'home', 'Downloads'), { recursive: true });
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, XDG_CACHE_HOME: join(scratch, 'cache'), HOME: join(scratch, 'home') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`modpak serve printed no URL in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`modpak serve exited with ${code}:\n${output}`));
    });
  });
  const parsed = new URL(url);
  const token = parsed.searchParams.get('token')!;
  const origin = parsed.origin;
  return {
    url,
    origin,
    port: Number(parsed.port),
    token,
    scratch,
    async call<T>(name: string, request: unknown): Promise<T> {
      const res = await fetch(`${origin}/api/call/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-modpak-token': token }, body: JSON.stringify(request) });
      const envelope = (await res.json()) as { ok: true; result: T } | { ok: false; error: { code: string; message: string } };
      if (!envelope.ok) throw new Error(`${name}: ${envelope.error.code}: ${envelope.error.message}`);
      return envelope.result;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
