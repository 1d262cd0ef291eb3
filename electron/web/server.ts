import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { StudioHost } from '../services/host/host.js';
import { CONTENT_SECURITY_POLICY } from '../services/host/csp.js';
import { checkRequest, tokenCookie } from './guard.js';
import { contentTypeOf, staticFile } from '../services/host/static.js';
import { EventStream } from './events.js';
import { CALL_PATH, EVENTS_PATH } from '../../shared/wire.js';

/**
 * `modpak serve`: the studio's renderer in a browser, over the same host as the Electron shell.
 *   POST /api/call/<name>   JSON body → { ok: true, result } | { ok: false, error: ContractError }
 *   GET  /api/events        server-sent events: `progress` and `watch`
 *   GET  /…                 the built renderer (out/renderer)
 * Bound to 127.0.0.1 only; every request is checked by guard.ts (Host, Origin, token) before routing.
 */
export interface WebHostOptions {
  host: StudioHost;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** A fixed token (tests); by default 32 random bytes. */
  token?: string;
  /** The largest request body accepted (default 40 MiB: a 16 MiB text as JSON with escapes). */
  maxBodyBytes?: number;
}

export interface WebHost {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const baseHeaders = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    ...baseHeaders,
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...extra,
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  // Encoded once: a string body would be encoded twice, for its length and for the socket (the tree is 2 MB).
  send(res, status, 'application/json; charset=utf-8', Buffer.from(JSON.stringify(value)));
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new BodyTooLarge());
      return;
    }
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped (not kept), so the answer still reaches the client.
      if (size > limit) reject(new BodyTooLarge());
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const maxBody = options.maxBodyBytes ?? 40 << 20;
  const events = new EventStream();
  const unsubscribe = options.host.on((event, payload) => events.broadcast(event, payload));
  let port = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const isCall = url.pathname.startsWith(CALL_PATH);
    const refusal = checkRequest({ headers: req.headers, rawHeaders: req.rawHeaders, url, explicitTokenOnly: isCall }, port, token);
    if (refusal) {
      if (url.pathname.startsWith('/api/'))
        return sendJson(res, refusal.status, { ok: false, error: { code: 'not-allowed', message: refusal.reason } });
      return send(res, refusal.status, 'text/plain; charset=utf-8', `refused: ${refusal.reason}\n`);
    }

    if (isCall) {
      if (req.method !== 'POST')
        return sendJson(res, 405, { ok: false, error: { code: 'bad-request', message: 'calls are POST requests' } });
      // A JSON content type cannot be sent by a plain HTML form, one more wall against cross-site posts.
      if (
        !String(req.headers['content-type'] ?? '')
          .toLowerCase()
          .startsWith('application/json')
      ) {
        return sendJson(res, 415, { ok: false, error: { code: 'bad-request', message: 'the body must be application/json' } });
      }
      let payload: unknown;
      try {
        const body = await readBody(req, maxBody);
        payload = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
      } catch (err) {
        const message = err instanceof BodyTooLarge ? `the request is larger than ${maxBody} bytes` : 'the body is not valid JSON';
        if (err instanceof BodyTooLarge) res.setHeader('connection', 'close');
        return sendJson(res, err instanceof BodyTooLarge ? 413 : 400, { ok: false, error: { code: 'bad-request', message } });
      }
      // Call names are plain ASCII; anything percent-encoded is simply not a call name.
      const name = url.pathname.slice(CALL_PATH.length);
      const envelope = await options.host.call(name, payload);
      // Contract errors are answers, not transport failures: 200 either way, the envelope tells.
      return sendJson(res, 200, envelope);
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
    if (url.pathname === EVENTS_PATH) return events.attach(req, res, baseHeaders);
    if (url.pathname.startsWith('/api/'))
      return sendJson(res, 404, { ok: false, error: { code: 'not-found', message: `no such endpoint: ${url.pathname}` } });

    const file = await staticFile(options.rendererDir, url.pathname);
    if (!file) {
      if (url.pathname === '/' || url.pathname === '/index.html') {
        return send(
          res,
          503,
          'text/plain; charset=utf-8',
          `the renderer is not built (no ${options.rendererDir}/index.html): run npm run build:renderer\n`,
        );
      }
      return send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
    }
    const isHtml = file.path.endsWith('.html');
    const extra: Record<string, string> = isHtml
      ? {
          'content-security-policy': CONTENT_SECURITY_POLICY,
          ...(url.searchParams.has('token') ? { 'set-cookie': tokenCookie(token, port) } : {}),
        }
      : { 'cache-control': 'no-cache' };
    return send(res, 200, contentTypeOf(file.path), req.method === 'HEAD' ? '' : file.bytes, extra);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { ok: false, error: { code: 'failed', message: err instanceof Error ? err.message : String(err) } });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${encodeURIComponent(token)}`,
    port,
    token,
    close: async () => {
      unsubscribe();
      events.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
