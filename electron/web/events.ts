import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Server-sent events for the browser renderer: each host event is written as `event: <name>` with its
 * JSON payload to every open stream. A comment line every 15 s keeps idle connections from timing out.
 */
export class EventStream {
  private readonly clients = new Set<ServerResponse>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(heartbeatMs = 15_000) {
    this.heartbeat = setInterval(() => {
      for (const res of this.clients) res.write(': keep-alive\n\n');
    }, heartbeatMs);
    this.heartbeat.unref();
  }

  attach(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): void {
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    // Reconnect quickly if the stream drops; then flush the headers with a first comment.
    res.write('retry: 1000\n: connected\n\n');
    this.clients.add(res);
    req.on('close', () => this.clients.delete(res));
  }

  broadcast(event: string, payload: unknown): void {
    // JSON.stringify never emits a raw newline, so one `data:` line always holds the whole payload.
    const frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const res of this.clients) res.write(frame);
  }

  get size(): number {
    return this.clients.size;
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}
