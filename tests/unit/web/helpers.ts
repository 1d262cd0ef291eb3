import { request as httpRequest } from 'node:http';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStudioHost } from '../../../electron/services/handlers/index.js';
import { startWebHost, type WebHost } from '../../../electron/web/server.js';
import type { StudioHost } from '../../../electron/services/host/host.js';

export interface Served {
  web: WebHost;
  host: StudioHost;
  dir: string;
  install: string;
  close(): Promise<void>;
}

/** A real web host on a free port over the real call table, serving a tiny built renderer. */
export async function serveForTest(): Promise<Served> {
  const dir = await mkdtemp(join(tmpdir(), 'modpak-web-'));
  const rendererDir = join(dir, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(
    join(rendererDir, 'index.html'),
    '<!doctype html><title>ModPak Studio</title><script type="module" src="./assets/app.js"></script>',
  );
  await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log("app")');
  await writeFile(join(dir, 'outside.txt'), 'outside the renderer');
  const install = join(dir, 'install');
  await mkdir(install);
  await writeFile(join(install, 'readme.txt'), 'hello');
  const host = await createStudioHost({
    facts: { version: '9.9.9', host: 'web', initialRoot: install, demo: false },
    recentFile: join(dir, 'state', 'recent.json'),
  });
  const web = await startWebHost({ host, rendererDir });
  return {
    web,
    host,
    dir,
    install,
    close: async () => {
      await web.close();
      await host.close();
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with exactly the headers given (fetch would not let a test forge Host). */
export function raw(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** POST a contract call with the token header (and any extra headers). */
export function call(served: Served, name: string, payload: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw(served.web.port, {
    method: 'POST',
    path: `/api/call/${name}`,
    headers: { 'content-type': 'application/json', 'x-modpak-token': served.web.token, ...headers },
    body: JSON.stringify(payload),
  });
}

/** A minimal EventSource over fetch for Node 20 (which has none): enough for the renderer's client. */
export class NodeEventSource {
  private readonly controller = new AbortController();
  private readonly listeners = new Map<string, ((m: { data: string }) => void)[]>();
  readonly opened: Promise<void>;
  constructor(url: string) {
    let markOpen!: () => void;
    this.opened = new Promise((r) => (markOpen = r));
    void (async () => {
      let res: Response;
      try {
        res = await fetch(url, { signal: this.controller.signal });
      } catch {
        markOpen();
        this.dispatch('error');
        return;
      }
      markOpen();
      if (res.ok) this.dispatch('open');
      if (!res.body || !res.ok) {
        if (!res.ok) this.dispatch('error');
        return;
      }
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event = 'message';
            let data = '';
            for (const line of frame.split('\n')) {
              if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data += line.slice(6);
            }
            if (data) for (const l of this.listeners.get(event) ?? []) l({ data });
          }
        }
      } catch {
        // aborted by close(), or the server went away
      }
      // The stream ended: the browser's EventSource reports an error (and would retry).
      if (!this.controller.signal.aborted) this.dispatch('error');
    })();
  }
  private dispatch(type: string): void {
    for (const l of this.listeners.get(type) ?? []) l({ data: '' });
  }
  addEventListener(type: string, listener: (m: { data: string }) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {
    this.controller.abort();
  }
}
