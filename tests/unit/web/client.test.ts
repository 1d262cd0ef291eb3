import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHttpApi, ApiError, HOST_STOPPED, tokenFromLocation } from '../../../renderer/api/transport.js';
import type { HostConnection } from '../../../shared/contract.js';
import { packFolder } from '../../../electron/mods/pack.js';
import { serveForTest, NodeEventSource, type Served } from './helpers.js';
import { mkdir } from 'node:fs/promises';
import type { Events } from '../../../shared/contract.js';

/** The renderer's HTTP transport against a real `modpak serve` host: calls, errors and server-sent events. */
let served: Served;
beforeAll(async () => {
  served = await serveForTest();
});
afterAll(async () => {
  await served?.close();
});

const base = () => `http://127.0.0.1:${served.web.port}`;

describe('renderer/api over HTTP', () => {
  it('calls the host and returns the typed result', async () => {
    const api = createHttpApi({ base: base(), token: served.web.token });
    const info = await api.call('app.info', {});
    expect(info).toMatchObject({ host: 'web', initialRoot: served.install });
  });

  it('turns a contract error into an ApiError with its code', async () => {
    const api = createHttpApi({ base: base(), token: served.web.token });
    const err = await api.call('archive.read', { path: '/etc/passwd', entry: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'not-allowed' });
  });

  it('a wrong token is refused with not-allowed', async () => {
    const api = createHttpApi({ base: base(), token: 'nope' });
    await expect(api.call('app.info', {})).rejects.toMatchObject({
      code: 'not-allowed',
      message: expect.stringMatching(
        /^missing or wrong token: .*a restarted server makes a new one.*open the URL the running server printed/,
      ),
    });
  });

  it('an unreachable host is a readable failure', async () => {
    const api = createHttpApi({ base: 'http://127.0.0.1:1', token: 'x' });
    await expect(api.call('app.info', {})).rejects.toMatchObject({ code: 'failed', message: expect.stringContaining('cannot be reached') });
  });

  it('receives progress events of its own job over server-sent events', async () => {
    const sources: NodeEventSource[] = [];
    const Source = class extends NodeEventSource {
      constructor(url: string) {
        super(url);
        sources.push(this);
      }
    };
    const api = createHttpApi({ base: base(), token: served.web.token, EventSource: Source });
    const seen: Events['progress'][] = [];
    const off = api.on('progress', (p) => seen.push(p));
    await sources[0]!.opened;
    // Wait until the server has registered the stream before starting the job.
    await new Promise((r) => setTimeout(r, 50));
    const src = join(served.dir, 'mod-src');
    await mkdir(join(src, 'units'), { recursive: true });
    for (let i = 0; i < 5; i++) await writeFile(join(src, 'units', `U${i}.FBI`), `[UNITINFO]{UnitName=U${i};}`);
    const archive = join(served.install, 'mod.ufo');
    await packFolder({ dir: src, target: archive });
    const result = await api.call('archive.extract', { path: archive, target: join(served.dir, 'out'), jobId: 'sse-job' });
    expect(result.files).toBe(5);
    await expect.poll(() => seen.at(-1)).toMatchObject({ jobId: 'sse-job', done: 5, total: 5 });
    off();
    sources[0]!.close();
  });
});

describe('a host that stops', () => {
  it('the event stream closing says at once that the host stopped, and how to reconnect', async () => {
    const own = await serveForTest();
    const api = createHttpApi({ base: `http://127.0.0.1:${own.web.port}`, token: own.web.token, EventSource: NodeEventSource });
    const seen: HostConnection[] = [];
    api.onConnection!((c) => seen.push(c));
    await expect.poll(() => seen.at(-1)?.state).toBe('connected');
    await own.close();
    await expect.poll(() => seen.at(-1)?.state).toBe('lost');
    expect(seen.at(-1)?.message).toBe(HOST_STOPPED);
    expect(HOST_STOPPED).toMatch(/^The studio's host stopped.*open the URL it prints/);
    await expect(api.call('app.info', {})).rejects.toMatchObject({ code: 'failed', message: expect.stringContaining('start it again') });
  });
});

describe('tokenFromLocation', () => {
  it('reads ?token= and keeps it for reloads without it', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    expect(tokenFromLocation({ search: '?token=abc%2Bdef' }, storage)).toBe('abc+def');
    expect(tokenFromLocation({ search: '' }, storage)).toBe('abc+def');
    expect(tokenFromLocation({ search: '' })).toBeNull();
  });
});
