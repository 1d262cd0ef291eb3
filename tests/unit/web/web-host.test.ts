import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveForTest, raw, call, type Served } from './helpers.js';

let served: Served;
beforeAll(async () => {
  served = await serveForTest();
});
afterAll(async () => {
  await served?.close();
});

const json = (body: string) => JSON.parse(body) as { ok: boolean; result?: unknown; error?: { code: string; message: string } };

describe('modpak serve: who may talk to it', () => {
  it('binds to 127.0.0.1 only and prints a URL with the token', () => {
    expect(served.web.url).toBe(`http://127.0.0.1:${served.web.port}/?token=${served.web.token}`);
    expect(served.web.token.length).toBeGreaterThanOrEqual(40);
  });

  it('answers a call that carries the token', async () => {
    const res = await call(served, 'app.info', {});
    expect(res.status).toBe(200);
    expect(json(res.body)).toEqual({
      ok: true,
      result: {
        version: '9.9.9',
        host: 'web',
        initialRoot: served.install,
        demo: false,
        cli: null,
        capabilities: { pickFolder: false, pickFile: false, desktop: false },
      },
    });
  });

  it('refuses a call without the token, or with a wrong one, and runs nothing', async () => {
    const target = `${served.dir}/extract-should-not-exist`;
    for (const headers of [
      { 'x-modpak-token': '' },
      { 'x-modpak-token': served.web.token.slice(0, -1) + 'x' },
      { 'x-modpak-token': served.web.token + 'x' },
    ]) {
      const res = await raw(served.web.port, {
        method: 'POST',
        path: '/api/call/install.recent',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
      expect(res.status).toBe(401);
      expect(json(res.body)).toEqual({
        ok: false,
        error: { code: 'not-allowed', message: expect.stringMatching(/^missing or wrong token: /) },
      });
    }
    const noHeader = await raw(served.web.port, {
      method: 'POST',
      path: '/api/call/archive.extract',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: `${served.install}/readme.txt`, target }),
    });
    expect(noHeader.status).toBe(401);
    expect(served.host.allowlist.allows(target)).toBe(false);
  });

  it('refuses the page and its files without the token', async () => {
    expect((await raw(served.web.port, { path: '/' })).status).toBe(401);
    expect((await raw(served.web.port, { path: '/assets/app.js' })).status).toBe(401);
    expect((await raw(served.web.port, { path: '/api/events' })).status).toBe(401);
  });

  it('refuses a foreign Origin even with the right token', async () => {
    for (const origin of [
      'http://evil.example',
      `http://127.0.0.1:${served.web.port + 1}`,
      `https://127.0.0.1:${served.web.port}`,
      'null',
    ]) {
      const res = await call(served, 'app.info', {}, { origin });
      expect(res.status, origin).toBe(403);
      expect(json(res.body).error).toEqual({ code: 'not-allowed', message: 'foreign Origin header' });
    }
    const same = await call(served, 'app.info', {}, { origin: `http://localhost:${served.web.port}` });
    expect(same.status).toBe(200);
  });

  it('refuses a foreign Host header (DNS rebinding) even with the right token', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${served.web.port}`,
      `127.0.0.1:${served.web.port + 1}`,
      `0.0.0.0:${served.web.port}`,
    ]) {
      const res = await call(served, 'app.info', {}, { host });
      expect(res.status, host).toBe(421);
      expect(json(res.body).error?.message).toBe('foreign Host header');
    }
    const page = await raw(served.web.port, { path: `/?token=${served.web.token}`, headers: { host: 'attacker.test' } });
    expect(page.status).toBe(421);
  });

  it('refuses a cross-site fetch marked by the browser', async () => {
    const res = await call(served, 'app.info', {}, { 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(403);
  });

  it('serves the page with the token in the URL, with a CSP, and a cookie for its own files', async () => {
    const page = await raw(served.web.port, { path: `/?token=${served.web.token}` });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>ModPak Studio</title>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const setCookie = String(page.headers['set-cookie']);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    const cookie = setCookie.split(';')[0]!;
    const asset = await raw(served.web.port, { path: '/assets/app.js', headers: { cookie } });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toContain('text/javascript');
    expect(asset.body).toBe('console.log("app")');
  });

  it('does not accept the cookie alone for a call', async () => {
    const page = await raw(served.web.port, { path: `/?token=${served.web.token}` });
    const cookie = String(page.headers['set-cookie']).split(';')[0]!;
    const res = await raw(served.web.port, {
      method: 'POST',
      path: '/api/call/app.info',
      headers: { 'content-type': 'application/json', cookie },
      body: '{}',
    });
    expect(res.status).toBe(401);
  });

  it('never serves files outside the renderer folder', async () => {
    const t = `token=${served.web.token}`;
    for (const path of [
      `/../outside.txt?${t}`,
      `/%2e%2e/outside.txt?${t}`,
      `/assets/%2e%2e%2f%2e%2e%2foutside.txt?${t}`,
      `/..%5coutside.txt?${t}`,
    ]) {
      const res = await raw(served.web.port, { path });
      expect(res.status, path).toBe(404);
      expect(res.body).not.toContain('outside the renderer');
    }
  });
});

describe('modpak serve: calls', () => {
  it('refuses a body that is not JSON, or not declared as JSON', async () => {
    const notJson = await raw(served.web.port, {
      method: 'POST',
      path: '/api/call/app.info',
      headers: { 'content-type': 'application/json', 'x-modpak-token': served.web.token },
      body: '{nope',
    });
    expect(notJson.status).toBe(400);
    expect(json(notJson.body).error?.code).toBe('bad-request');
    const form = await raw(served.web.port, {
      method: 'POST',
      path: '/api/call/app.info',
      headers: { 'content-type': 'text/plain', 'x-modpak-token': served.web.token },
      body: '{}',
    });
    expect(form.status).toBe(415);
  });

  it('answers a contract error in the envelope for a bad payload or an unknown call', async () => {
    expect(json((await call(served, 'install.tree', { root: 42 })).body)).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(json((await call(served, 'process.exit', {})).body)).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    for (const name of ['%E0%A4%A', 'app%2Einfo', '..%2Fapp.info', 'app.info%00']) {
      const res = await call(served, name, {});
      expect(res.status, name).toBe(200);
      expect(json(res.body), name).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    }
    expect(json((await call(served, 'archive.read', { path: '/etc/passwd', entry: 'x' })).body)).toMatchObject({
      ok: false,
      error: { code: 'not-allowed' },
    });
  });

  it('refuses a body over the limit', async () => {
    const res = await call(served, 'workspace.checkTdf', { text: 'x'.repeat(41 << 20) });
    expect(res.status).toBe(413);
  });

  it('accepts only POST for calls', async () => {
    const res = await raw(served.web.port, { path: `/api/call/app.info?token=${served.web.token}` });
    expect(res.status).toBe(405);
  });
});
