import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { serveForTest, type Served } from '../web/helpers.js';

/**
 * Item 10's "a Host header with a trailing space is accepted": Node's HTTP parser drops the optional
 * whitespace around a field value (RFC 9110 §5.5) before any code sees it, in `headers` and in
 * `rawHeaders` alike, so `Host: h ` reaches the host as `h`, the same request as `Host: h`. Anything else
 * around the name (a second word, a dot) still differs and is refused.
 */
function rawRequest(port: number, lines: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

let served: Served;
beforeAll(async () => {
  served = await serveForTest();
});
afterAll(async () => {
  await served.close();
});

describe('a Host header with whitespace around it', () => {
  it("never reaches the host: Node's parser strips it from headers and rawHeaders", async () => {
    let seen: IncomingMessage | null = null;
    const server = createServer((req, res) => {
      seen = req;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    await rawRequest(port, ['GET / HTTP/1.1', `Host: 127.0.0.1:${port} \t `]);
    await new Promise<void>((r) => server.close(() => r()));
    expect(seen!.headers.host).toBe(`127.0.0.1:${port}`);
    expect(seen!.rawHeaders).toEqual(['Host', `127.0.0.1:${port}`, 'Connection', 'close']);
  });

  it('modpak serve answers it as the exact Host, and refuses a Host with anything else after the port', async () => {
    const port = served.web.port;
    const get = (host: string) =>
      rawRequest(port, [`GET /api/events?token=${served.web.token} HTTP/1.1`, `Host: ${host}`]).then((t) =>
        Number(/^HTTP\/1\.1 (\d+)/.exec(t)?.[1]),
      );
    const exact = await rawRequest(port, [`GET /?token=${served.web.token} HTTP/1.1`, `Host: 127.0.0.1:${port}`]);
    const spaced = await rawRequest(port, [`GET /?token=${served.web.token} HTTP/1.1`, `Host: 127.0.0.1:${port} `]);
    expect(exact.slice(0, 12)).toBe('HTTP/1.1 200');
    expect(spaced.slice(0, 12)).toBe('HTTP/1.1 200');
    for (const host of [`127.0.0.1:${port} x`, `127.0.0.1:${port}.`, `127.0.0.1.:${port}`]) expect(await get(host), host).toBe(421);
  });
});
