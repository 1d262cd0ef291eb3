import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { createBridgeApi, createHttpApi, ApiError, type PreloadBridge } from '../../../renderer/api/transport.js';
import type { StudioApi, Events } from '../../../shared/contract.js';
import { createStudioHost } from '../../../electron/services/handlers/index.js';
import type { StudioHost } from '../../../electron/services/host/host.js';
import { startWebHost, type WebHost } from '../../../electron/web/server.js';
import { buildElectronBundles } from '../../../electron/main/bundle.js';
import { forwardEvents, registerCallHandlers, type IpcMainLike } from '../../../electron/main/ipc.js';
import { isAppUrl } from '../../../electron/main/policy.js';
import { packFolder } from '../../../electron/mods/pack.js';
import { NodeEventSource } from './helpers.js';

/**
 * One contract, two transports, the same answers: the renderer's client over HTTP to `modpak serve`, and
 * over the real preload bundle → IPC adapter (Electron's ipcMain/ipcRenderer replaced by direct calls).
 */
let dir: string;
let root: string;
let archive: string;
let host: StudioHost;
let web: WebHost;
const transports: { name: string; api: StudioApi }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modpak-transports-'));
  root = join(dir, 'install');
  const src = join(dir, 'src');
  await mkdir(join(src, 'units'), { recursive: true });
  for (let i = 0; i < 6; i++) await writeFile(join(src, 'units', `U${i}.FBI`), `[UNITINFO]{UnitName=U${i};}`);
  await mkdir(root);
  archive = join(root, 'mod.ufo');
  await packFolder({ dir: src, target: archive });
  host = await createStudioHost({ facts: { version: '1', host: 'web', initialRoot: root, demo: false }, recentFile: null, warm: false });

  web = await startWebHost({ host, rendererDir: join(dir, 'renderer') });
  transports.push({
    name: 'http',
    api: createHttpApi({ base: `http://127.0.0.1:${web.port}`, token: web.token, EventSource: NodeEventSource }),
  });

  const out = join(dir, 'out');
  await buildElectronBundles(join(import.meta.dirname, '..', '..', '..'), out);
  const handlers = new Map<string, (event: unknown, payload: unknown) => Promise<unknown>>();
  const ipcMain: IpcMainLike = { handle: (c, h) => void handlers.set(c, h as never), removeHandler: (c) => void handlers.delete(c) };
  registerCallHandlers(ipcMain, host);
  const rendererListeners: ((event: unknown, message: unknown) => void)[] = [];
  forwardEvents(
    host,
    { isDestroyed: () => false, getURL: () => 'modpak://app/index.html', send: (_c, m) => rendererListeners.forEach((l) => l({}, m)) },
    isAppUrl,
  );
  const frame = { senderFrame: { url: 'modpak://app/index.html', parent: null } };
  const exposed: Record<string, unknown> = {};
  const electron = {
    contextBridge: { exposeInMainWorld: (k: string, v: unknown) => void (exposed[k] = v) },
    ipcRenderer: {
      // Structured clone, as IPC does: nothing but data crosses.
      invoke: async (channel: string, payload: unknown) => structuredClone(await handlers.get(channel)!(frame, structuredClone(payload))),
      on: (_channel: string, listener: (event: unknown, message: unknown) => void) => void rendererListeners.push(listener),
    },
  };
  const module = { exports: {} };
  runInNewContext(await readFile(join(out, 'preload', 'index.cjs'), 'utf8'), { require: () => electron, module, exports: module.exports });
  transports.push({ name: 'electron', api: createBridgeApi(exposed.modpak as PreloadBridge) });
}, 60_000);

afterAll(async () => {
  await web?.close();
  await host?.close();
});

describe.each(['http', 'electron'])('the contract over %s', (name) => {
  const api = () => transports.find((t) => t.name === name)!.api;

  it('answers app.info and opens an archive with the same typed result', async () => {
    expect(await api().call('app.info', {})).toMatchObject({ version: '1', initialRoot: root });
    const listing = await api().call('archive.open', { path: archive });
    expect(listing.info.format).toBe('hpi');
    expect(listing.entries.filter((e) => !e.dir).map((e) => e.path)).toEqual([
      'units/U0.FBI',
      'units/U1.FBI',
      'units/U2.FBI',
      'units/U3.FBI',
      'units/U4.FBI',
      'units/U5.FBI',
    ]);
  });

  it('rejects with the same ApiError codes', async () => {
    const refused = await api()
      .call('archive.read', { path: '/etc/hostname', entry: 'x' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'not-allowed' });
    const bad = await api()
      .call('install.defs', { root, kind: 'tanks' } as never)
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: 'bad-request' });
    const unknown = await api()
      .call('no.such' as never, {} as never)
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: 'bad-request' });
  });

  it('delivers progress events of a job to on() listeners, and off() stops them', async () => {
    const seen: Events['progress'][] = [];
    const off = api().on('progress', (p) => seen.push(p));
    await new Promise((r) => setTimeout(r, 100));
    const jobId = `verify-${name}`;
    expect(await api().call('archive.verify', { path: archive, jobId })).toMatchObject({ ok: true, files: 6 });
    await expect.poll(() => seen.filter((p) => p.jobId === jobId).at(-1)).toMatchObject({ done: 6, total: 6 });
    off();
    const before = seen.length;
    await api().call('archive.verify', { path: archive, jobId: `${jobId}-2` });
    await new Promise((r) => setTimeout(r, 100));
    expect(seen.length).toBe(before);
  });
});
