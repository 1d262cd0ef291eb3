import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TOKEN_HEADER } from '../../shared/wire.js';

/**
 * Who may talk to `modpak serve`: a page on this very host and port that holds the token. Everything here
 * is pure so the rules are unit-tested without a socket.
 *
 * - Host must name 127.0.0.1 or localhost with our port (a DNS-rebinding page has its own host name).
 * - Origin, when sent, must be that same origin (a foreign page's fetch carries its own origin).
 * - The token: in the `x-modpak-token` header (API calls), in `?token=` (the first page load and the
 *   event stream, which cannot set headers), or in the HttpOnly SameSite=Strict cookie set on the first
 *   page load (so the page's own scripts and styles load). API calls need the header or the query.
 */
export { TOKEN_HEADER };
/** Cookies are shared by every port of a host, so the name carries the port. */
export const tokenCookieName = (port: number) => `modpak_token_${port}`;

export type Refusal = { status: number; reason: string };

export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export function sameToken(given: string | null | undefined, token: string): boolean {
  if (typeof given !== 'string' || given.length !== token.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(token));
}

function cookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

export interface GuardInput {
  headers: IncomingMessage['headers'];
  url: URL;
  /** API calls must carry the token explicitly (header or query), not only the cookie. */
  explicitTokenOnly: boolean;
  /** The headers as received (name, value, name, value...), to see a repeated Host that `headers` folds into one. */
  rawHeaders?: readonly string[];
}

/** null when the request may proceed; otherwise the status and a reason for the one-line answer. */
export function checkRequest(input: GuardInput, port: number, token: string): Refusal | null {
  const hosts = allowedHosts(port);
  const host = input.headers.host;
  // Exactly one Host, exactly as the page sends it (no case folding, no trimming here; Node's parser has
  // already dropped the whitespace HTTP allows around a value).
  const hostHeaders = (input.rawHeaders ?? []).filter((_, i, all) => i % 2 === 0 && all[i]!.toLowerCase() === 'host').length;
  if (typeof host !== 'string' || hostHeaders > 1 || !hosts.has(host)) return { status: 421, reason: 'foreign Host header' };
  const origin = input.headers.origin;
  if (origin !== undefined) {
    let originHost: string | null;
    try {
      const parsed = new URL(String(origin));
      originHost = parsed.protocol === 'http:' ? parsed.host.toLowerCase() : null;
    } catch {
      originHost = null;
    }
    if (originHost === null || !hosts.has(originHost)) return { status: 403, reason: 'foreign Origin header' };
  }
  if (input.headers['sec-fetch-site'] === 'cross-site') return { status: 403, reason: 'cross-site request' };
  const header = input.headers[TOKEN_HEADER];
  const given = [typeof header === 'string' ? header : null, input.url.searchParams.get('token')];
  if (!input.explicitTokenOnly) given.push(cookie(input.headers.cookie, tokenCookieName(port)));
  if (!given.some((g) => sameToken(g, token)))
    return {
      status: 401,
      reason:
        'missing or wrong token: this page holds the token of another run of modpak serve (a restarted server makes a new one); open the URL the running server printed',
    };
  return null;
}

export function tokenCookie(token: string, port: number): string {
  return `${tokenCookieName(port)}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`;
}
