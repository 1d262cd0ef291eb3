import { createServer, type Server } from 'node:http';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect } from './fixtures.js';

/**
 * `modpak serve` seen from a browser: the page with the token works; without it, or from a foreign page,
 * or through a foreign Host name, nothing is served and nothing is done.
 */
const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

test('the studio opens from the printed URL without page errors', async ({ studioPage }) => {
  await studioPage.goto();
  await expect(studioPage.page).toHaveTitle(/ModPak Studio/);
  const csp = await studioPage.page.evaluate(async () =>
    (await fetch((globalThis as unknown as { location: { href: string } }).location.href)).headers.get('content-security-policy'),
  );
  expect(csp).toContain("script-src 'self'");
  await studioPage.screenshot('web-host-start');
});

test('without the token the page is refused', async ({ page, studio }) => {
  const response = await page.goto(`${studio.origin}/`);
  expect(response?.status()).toBe(401);
  await expect(page.locator('body')).toContainText('refused: missing or wrong token');
  const wrong = await page.goto(`${studio.origin}/?token=${'x'.repeat(studio.token.length)}`);
  expect(wrong?.status()).toBe(401);
});

test('a foreign page cannot make the host act, even knowing the token', async ({ page, studio }) => {
  let foreign: Server | null = null;
  try {
    foreign = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>elsewhere</title>');
    });
    await new Promise<void>((r) => foreign!.listen(0, '127.0.0.1', r));
    const port = (foreign.address() as { port: number }).port;
    await page.goto(`http://localhost:${port}/`);
    const target = join(studio.scratch, 'stolen');
    const body = JSON.stringify({ root: studio.root, paths: ['units'], target });
    const outcome = await page.evaluate(
      async ({ url, body }) => {
        const results: string[] = [];
        // A "simple" request (no preflight): the browser sends it with this page's Origin.
        try {
          await fetch(url, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body });
          results.push('sent');
        } catch (err) {
          results.push(`blocked: ${String(err)}`);
        }
        // A JSON request needs a preflight, which the host never grants.
        try {
          const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          results.push(`read ${res.status}`);
        } catch {
          results.push('blocked');
        }
        return results;
      },
      { url: `${studio.origin}/api/call/install.extract?token=${encodeURIComponent(studio.token)}`, body },
    );
    expect(outcome[1]).toBe('blocked');
    expect(await exists(target)).toBe(false);
  } finally {
    await new Promise((r) => foreign?.close(r));
  }
});

test('the host answers a foreign Origin or Host with a refusal, token or not', async ({ playwright, studio }) => {
  const request = await playwright.request.newContext();
  try {
    const headers = { 'content-type': 'application/json', 'x-modpak-token': studio.token };
    const origin = await request.post(`${studio.origin}/api/call/app.info`, {
      headers: { ...headers, origin: 'http://evil.example' },
      data: {},
    });
    expect(origin.status()).toBe(403);
    expect(await origin.json()).toEqual({ ok: false, error: { code: 'not-allowed', message: 'foreign Origin header' } });
    const host = await request.post(`${studio.origin}/api/call/app.info`, {
      headers: { ...headers, host: `rebound.example:${studio.port}` },
      data: {},
    });
    expect(host.status()).toBe(421);
    const none = await request.post(`${studio.origin}/api/call/app.info`, { headers: { 'content-type': 'application/json' }, data: {} });
    expect(none.status()).toBe(401);
    const good = await request.post(`${studio.origin}/api/call/app.info`, { headers, data: {} });
    expect(await good.json()).toMatchObject({ ok: true, result: { host: 'web', demo: true } });
  } finally {
    await request.dispose();
  }
});
