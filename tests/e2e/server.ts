import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, serveAndWait } from '../helpers/serve.js';

/**
 * `modpak serve` as a user starts it: the real bin/modpak in a child process, on a free port, with the
 * demo install generated into a fresh cache folder (no ROOT) or a given ROOT. Stopped by its own pid.
 */
export { repoRoot };

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
  const args = [...(options.root ? [options.root] : []), '--port', '0', '--state', join(scratch, 'state'), ...(options.args ?? [])];
  // A home of its own (with Downloads), so the folder browser and extraction defaults stay in the scratch folder.
  await mkdir(join(scratch, 'home', 'Downloads'), { recursive: true });
  const child = await serveAndWait(args, { ...process.env, XDG_CACHE_HOME: join(scratch, 'cache'), HOME: join(scratch, 'home') });
  const url = child.url;
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
      const res = await fetch(`${origin}/api/call/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-modpak-token': token },
        body: JSON.stringify(request),
      });
      const envelope = (await res.json()) as { ok: true; result: T } | { ok: false; error: { code: string; message: string } };
      if (!envelope.ok) throw new Error(`${name}: ${envelope.error.code}: ${envelope.error.message}`);
      return envelope.result;
    },
    async stop() {
      await child.stop();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
